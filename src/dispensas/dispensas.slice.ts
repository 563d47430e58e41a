import { defineErrorCodes } from '../common/errors/error-codes.js';
import { defineScopes } from '../common/http/scopes.js';
import { defineSlice } from '../common/module-slice.js';
import { dispensasSettings } from './dispensas.settings.js';
import { Dispensas1764000001000 } from './migrations/1764000001000-Dispensas.js';
import { ReservasTurno1764000002000 } from './migrations/1764000002000-ReservasTurno.js';

export const DISPENSAS_SCOPES = defineScopes({
  'dispensas:write': 'dispensers: reserve, dispense, reverse',
});

/** Contract §1's codes of the dispensation (RECETA_DISPENSADA and RECETA_RESERVADA also in recetas). */
export const DISPENSAS_ERRORS = defineErrorCodes({
  RECETA_ANULADA: 409,
  RECETA_DISPENSADA: 409,
  RECETA_RESERVADA: 409,
  ITEM_YA_DISPENSADO: 409,
  REVERSION_VENCIDA: 409,
  RESERVA_REITERADA: 409,
  RECETA_NO_VIGENTE: 422,
  CANTIDAD_EXCEDIDA: 422,
  // SPEC 9.2: the prescriber's `sustituible: false`, and a code change not declared.
  SUSTITUCION_NO_PERMITIDA: 422,
  SUSTITUCION_NO_DECLARADA: 422,
});

declare module '../common/http/scopes.js' {
  interface Scopes extends Record<keyof typeof DISPENSAS_SCOPES, true> {}
}
declare module '../common/errors/error-codes.js' {
  interface ErrorCodes extends Record<keyof typeof DISPENSAS_ERRORS, number> {}
}

/** Reservation, dispensation and reversal of prescriptions by dispensers (contract §7). */
export const dispensasSlice = defineSlice({
  name: 'dispensas',
  module: () => import('./dispensas.module.js').then((m) => m.DispensasModule),
  scopes: DISPENSAS_SCOPES,
  errors: DISPENSAS_ERRORS,
  settings: [dispensasSettings],
  migrations: [Dispensas1764000001000, ReservasTurno1764000002000],
  // Partitioned with their prescription, by its id (recetas' migration RecetasParticionadas).
  partitionedTables: [
    { table: 'dispensa_reservas', range: 'id', follows: 'recetas' },
    { table: 'dispensas', range: 'id', follows: 'recetas' },
    { table: 'dispensa_items', range: 'id', follows: 'recetas' },
  ],
  tags: {
    dispensas:
      'Dispensers: reserving a prescription, recording its dispensation, reversing it within DISPENSA_REVERSION_HORAS.',
  },
  operationIds: {
    'POST /v1/dispensas/reservas': 'reservarReceta',
    'DELETE /v1/dispensas/reservas/{reserva_id}': 'liberarReserva',
    'POST /v1/dispensas': 'dispensarReceta',
    'POST /v1/dispensas/{id_dispensa}/revertir': 'revertirDispensa',
    'GET /v1/dispensas/{id_dispensa}': 'obtenerDispensa',
  },
});
