import { loadConfig, type AppConfig } from './config/app-config.js';
import { registerSlices, type ModuleSlice } from './common/module-slice.js';

/**
 * Every module's slice, one line each (`npm run new:module` adds one). The order is the app's
 * module order (the document's paths) and the order the credentials tool lists scopes in.
 */
export const MODULE_SLICES: readonly ModuleSlice[] = [
  (await import('./auth/auth.slice.js')).authSlice,
  (await import('./idempotency/idempotency.slice.js')).idempotencySlice,
  (await import('./cuir/cuir.slice.js')).cuirSlice,
  (await import('./recetas/recetas.slice.js')).recetasSlice,
  (await import('./verificacion/verificacion.slice.js')).verificacionSlice,
  (await import('./dispensas/dispensas.slice.js')).dispensasSlice,
  (await import('./profesional/profesional.slice.js')).profesionalSlice,
  (await import('./persona/persona.slice.js')).personaSlice,
  (await import('./medicamentos/medicamentos.slice.js')).medicamentosSlice,
  (await import('./ministerio/ministerio.slice.js')).ministerioSlice,
  (await import('./webhooks/webhooks.slice.js')).webhooksSlice,
  (await import('./auditoria/auditoria.slice.js')).auditoriaSlice,
  (await import('./paciente/paciente.slice.js')).pacienteSlice,
  (await import('./publico/publico.slice.js')).publicoSlice,
  (await import('./fiscalizacion/fiscalizacion.slice.js')).fiscalizacionSlice,
];

registerSlices(MODULE_SLICES);

export const loadAppConfig = (env: NodeJS.ProcessEnv): AppConfig =>
  loadConfig(
    env,
    MODULE_SLICES.flatMap((s) => s.settings ?? []),
  );
