import { defineErrorCodes } from '../common/errors/error-codes.js';
import { defineScopes } from '../common/http/access.js';
import type { ModuleSlice } from '../common/module-slice.js';
import { DecimalSetting } from '../config/setting-decorators.js';
import { ConfigError, defineSettings, SettingsOf } from '../config/settings.js';
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

declare module '../common/http/access.js' {
  interface Scopes extends Record<keyof typeof DISPENSAS_SCOPES, true> {}
}
declare module '../common/errors/error-codes.js' {
  interface ErrorCodes extends Record<keyof typeof DISPENSAS_ERRORS, number> {}
}

class DispensasVariables {
  /** A reservation lapses this long after it was made or last extended. */
  @DecimalSetting(0.01, 1440) DISPENSA_RESERVA_MINUTOS?: number;
  /** No reservation outlives its creation by more than this, however often it is asked again. */
  @DecimalSetting(0.01, 1440) DISPENSA_RESERVA_MAX_MINUTOS?: number;
  /** A dispensation may be reversed by its dispenser this long after it was recorded. */
  @DecimalSetting(0.001, 720) DISPENSA_REVERSION_HORAS?: number;
}

export const dispensasSettings = defineSettings('dispensas', DispensasVariables, (v) => {
  const reservaMinutos = v.DISPENSA_RESERVA_MINUTOS ?? 10;
  const reservaMaxMinutos = v.DISPENSA_RESERVA_MAX_MINUTOS ?? 30;
  // A cap below one reservation's length would silently shorten every reservation.
  if (reservaMaxMinutos < reservaMinutos)
    throw new ConfigError([
      `DISPENSA_RESERVA_MAX_MINUTOS: must be at least DISPENSA_RESERVA_MINUTOS (${reservaMinutos})`,
    ]);
  return {
    reservaMinutos,
    reservaMaxMinutos,
    reversionHoras: v.DISPENSA_REVERSION_HORAS ?? 24,
  };
});
export type DispensasSettings = SettingsOf<typeof dispensasSettings>;

/** Reservation, dispensation and reversal of prescriptions by dispensers (contract §7). */
export const dispensasSlice: ModuleSlice = {
  name: 'dispensas',
  scopes: DISPENSAS_SCOPES,
  errors: DISPENSAS_ERRORS,
  settings: [dispensasSettings],
  migrations: [Dispensas1764000001000, ReservasTurno1764000002000],
};
