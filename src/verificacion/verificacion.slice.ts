import { defineScopes } from '../common/http/scopes.js';
import { defineSlice } from '../common/module-slice.js';
import { VerificationAndWebhooks1763800005000 } from './migrations/1763800005000-VerificationAndWebhooks.js';
import { VerificacionesParticionadas1795728800200 } from './migrations/1795728800200-VerificacionesParticionadas.js';
import { verificacionSettings } from './verificacion.settings.js';

export const VERIFICACION_SCOPES = defineScopes({
  'recetas:verify': 'dispensers: verify any prescription by its CUIR',
});

declare module '../common/http/scopes.js' {
  interface Scopes extends Record<keyof typeof VERIFICACION_SCOPES, true> {}
}

/** Verification by CUIR for dispensers, and its audit (contract §3). */
export const verificacionSlice = defineSlice({
  name: 'verificacion',
  module: () => import('./verificacion.module.js').then((m) => m.VerificacionModule),
  scopes: VERIFICACION_SCOPES,
  settings: [verificacionSettings],
  // Also adds the clients' webhook columns: committed migrations are never split.
  migrations: [VerificationAndWebhooks1763800005000, VerificacionesParticionadas1795728800200],
  partitionedTables: [{ table: 'verificaciones_cuir', range: 'time' }],
  tags: {
    verificacion:
      'Verification of a prescription by its CUIR, for dispensers, and the audit of those verifications for the owner.',
  },
  operationIds: {
    'GET /v1/recetas/verificar/{cuir}': 'verificarRecetaPorCuir',
    'GET /v1/verificaciones': 'listarVerificaciones',
  },
});
