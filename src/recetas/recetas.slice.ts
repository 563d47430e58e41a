import { defineErrorCodes } from '../common/errors/error-codes.js';
import { defineScopes } from '../common/http/scopes.js';
import { defineSlice } from '../common/module-slice.js';
import { Recetas1763800003000 } from './migrations/1763800003000-Recetas.js';
import { RecetaVida1764000000000 } from './migrations/1764000000000-RecetaVida.js';
import { RecetasPendingIndex1764100000000 } from './migrations/1764100000000-RecetasPendingIndex.js';
import { RecetaContenido1795728400000 } from './migrations/1795728400000-RecetaContenido.js';
import { DatosPacienteCifrados1795728600000 } from './migrations/1795728600000-DatosPacienteCifrados.js';
import { DatosPersonalesCifrados1795728700000 } from './migrations/1795728700000-DatosPersonalesCifrados.js';
import { RecetasParticionadas1795728800000 } from './migrations/1795728800000-RecetasParticionadas.js';
import { HistorialSinIndiceRepetido1795728800300 } from './migrations/1795728800300-HistorialSinIndiceRepetido.js';
import { RecetasCuirPorTrigger1795728800400 } from './migrations/1795728800400-RecetasCuirPorTrigger.js';
import { RecetasReglasEnTrigger1795728800500 } from './migrations/1795728800500-RecetasReglasEnTrigger.js';
import { MINISTERIO_QUEUE } from './notificacion/ministerio-delivery.sql.js';
import { WEBHOOKS_QUEUE } from './notificacion/webhook-delivery.queue.js';
import { recetasSettings } from './recetas.settings.js';

export const RECETAS_SCOPES = defineScopes({
  'recetas:write': 'register and cancel prescriptions',
  'recetas:read': "list, read and track the client's own prescriptions",
});

export const RECETAS_ERRORS = defineErrorCodes({
  CUIR_ALREADY_REGISTERED: 409,
  PROFESSIONAL_NOT_ENABLED: 422,
  // Cancellation (contract §7); dispensas declares them too, with the same statuses.
  RECETA_DISPENSADA: 409,
  RECETA_RESERVADA: 409,
});

declare module '../common/http/scopes.js' {
  interface Scopes extends Record<keyof typeof RECETAS_SCOPES, true> {}
}
declare module '../common/errors/error-codes.js' {
  interface ErrorCodes extends Record<keyof typeof RECETAS_ERRORS, number> {}
}

/** Registration, consultation, cancellation and ministry notification of prescriptions (contract §3, §4, §7). */
export const recetasSlice = defineSlice({
  name: 'recetas',
  module: () => import('./recetas.module.js').then((m) => m.RecetasModule),
  scopes: RECETAS_SCOPES,
  errors: RECETAS_ERRORS,
  settings: [recetasSettings],
  // Also holds the Idempotency-Key table: committed migrations are never split.
  migrations: [
    Recetas1763800003000,
    RecetaVida1764000000000,
    RecetasPendingIndex1764100000000,
    RecetaContenido1795728400000,
    DatosPacienteCifrados1795728600000,
    DatosPersonalesCifrados1795728700000,
    // Also partitions the dispensas module's tables: one family, one migration (it re-keys them).
    RecetasParticionadas1795728800000,
    HistorialSinIndiceRepetido1795728800300,
    RecetasCuirPorTrigger1795728800400,
    RecetasReglasEnTrigger1795728800500,
  ],
  queues: [MINISTERIO_QUEUE, WEBHOOKS_QUEUE],
  partitionedTables: [
    { table: 'recetas', range: 'id' },
    { table: 'receta_historial', range: 'id', follows: 'recetas' },
  ],
  tags: {
    recetas:
      "Registration of prescriptions, reported to the ministry; the caller's listing, detail and transaction tracking.",
  },
  operationIds: {
    'POST /v1/recetas/registrar': 'registrarReceta',
    'GET /v1/recetas/listar': 'listarRecetas',
    'GET /v1/recetas/{id_transaccion}': 'obtenerReceta',
    'GET /v1/transacciones/{id_transaccion}': 'obtenerTransaccion',
    'POST /v1/recetas/{id_transaccion}/anular': 'anularReceta',
    'GET /v1/recetas/{id_transaccion}/eventos': 'listarEventosReceta',
  },
});
