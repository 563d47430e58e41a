import { loadConfig, type AppConfig } from './config/app-config.js';
import { registerSlices, type ModuleSlice } from './common/module-slice.js';
import { auditoriaSlice } from './auditoria/auditoria.slice.js';
import { authSlice } from './auth/auth.slice.js';
import { cuirSlice } from './cuir/cuir.slice.js';
import { dispensasSlice } from './dispensas/dispensas.slice.js';
import { fiscalizacionSlice } from './fiscalizacion/fiscalizacion.slice.js';
import { idempotencySlice } from './idempotency/idempotency.slice.js';
import { medicamentosSlice } from './medicamentos/medicamentos.slice.js';
import { pacienteSlice } from './paciente/paciente.slice.js';
import { ministerioSlice } from './ministerio/ministerio.slice.js';
import { personaSlice } from './persona/persona.slice.js';
import { publicoSlice } from './publico/publico.slice.js';
import { profesionalSlice } from './profesional/profesional.slice.js';
import { recetasSlice } from './recetas/recetas.slice.js';
import { verificacionSlice } from './verificacion/verificacion.slice.js';
import { webhooksSlice } from './webhooks/webhooks.slice.js';

/**
 * Every module's slice — scopes, error codes, settings, migrations — one line per module.
 * Adding a module adds a line here and one in app.module.ts (see docs/adding-a-module.md).
 * The order of scopes here is the order the credentials tool lists them in.
 */
export const MODULE_SLICES: readonly ModuleSlice[] = [
  authSlice,
  idempotencySlice,
  cuirSlice,
  recetasSlice,
  profesionalSlice,
  personaSlice,
  medicamentosSlice,
  verificacionSlice,
  dispensasSlice,
  ministerioSlice,
  webhooksSlice,
  auditoriaSlice,
  pacienteSlice,
  publicoSlice,
  fiscalizacionSlice,
];

registerSlices(MODULE_SLICES);

/** Validates the environment against the core settings and every module's. */
export const loadAppConfig = (env: NodeJS.ProcessEnv): AppConfig =>
  loadConfig(
    env,
    MODULE_SLICES.flatMap((s) => s.settings ?? []),
  );
