import { Documented } from '../config/setting-docs.js';
import { DecimalSetting } from '../config/setting-decorators.js';
import { ConfigError, defineSettings, SettingsOf } from '../config/settings.js';

class DispensasVariables {
  @Documented("a dispenser's reservation lapses after this (decimals allowed: 0.5 = 30 s)", {
    default: 10,
    env: "a dispenser's reservation lapses after this many minutes (decimals allowed: 0.5 = 30 s)",
  })
  @DecimalSetting(0.01, 1440)
  DISPENSA_RESERVA_MINUTOS?: number;
  @Documented('asking again never extends a reservation past its creation + this (≥ the above)', {
    default: 30,
    env: 'asking again extends a reservation, but never past its creation + this many minutes (decimals allowed; at least DISPENSA_RESERVA_MINUTOS). Once it lapsed or was released, its holder may not reserve that prescription again for DISPENSA_RESERVA_MINUTOS: another dispenser gets its turn',
  })
  @DecimalSetting(0.01, 1440)
  DISPENSA_RESERVA_MAX_MINUTOS?: number;
  @Documented('its dispenser may reverse a dispensation this long after recording it', {
    default: 24,
    env: 'a dispensation may be reversed by its dispenser this many hours after it was recorded',
  })
  @DecimalSetting(0.001, 720)
  DISPENSA_REVERSION_HORAS?: number;
}

export const dispensasSettings = defineSettings(
  'dispensas',
  DispensasVariables,
  (v) => {
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
  },
  { title: 'Dispensation (SPEC 7)' },
);
export type DispensasSettings = SettingsOf<typeof dispensasSettings>;
