import { Documented } from '../config/setting-docs.js';
import { IntSetting } from '../config/setting-decorators.js';
import { defineSettings, SettingsOf } from '../config/settings.js';

class VerificacionVariables {
  @Documented(
    'unknown CUIRs (404) per client and minute before its verifications by CUIR get 429',
    {
      default: 20,
      env: 'unknown CUIRs (404) a client may verify in a minute; past it, all its verifications by CUIR (found ones too) answer 429 until the minute ends. Counted in RATE_LIMIT_STORE',
    },
  )
  @IntSetting(1, 100000)
  VERIFICACION_FALLOS_POR_MINUTO?: number;
}

export const verificacionSettings = defineSettings(
  'verificacion',
  VerificacionVariables,
  (v) => ({ fallosPorMinuto: v.VERIFICACION_FALLOS_POR_MINUTO ?? 20 }),
  { title: 'Verification by CUIR' },
);
export type VerificacionSettings = SettingsOf<typeof verificacionSettings>;
