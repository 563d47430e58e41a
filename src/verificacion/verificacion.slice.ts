import type { ModuleSlice } from '../common/module-slice.js';
import { defineScopes } from '../common/http/access.js';
import { IntSetting } from '../config/setting-decorators.js';
import { defineSettings, SettingsOf } from '../config/settings.js';
import { VerificationAndWebhooks1763800005000 } from './migrations/1763800005000-VerificationAndWebhooks.js';

export const VERIFICACION_SCOPES = defineScopes({
  'recetas:verify': 'dispensers: verify any prescription by its CUIR',
});

declare module '../common/http/access.js' {
  interface Scopes extends Record<keyof typeof VERIFICACION_SCOPES, true> {}
}

class VerificacionVariables {
  /** Unknown CUIRs a client may verify in a minute before its verifications by CUIR answer 429. */
  @IntSetting(1, 100000) VERIFICACION_FALLOS_POR_MINUTO?: number;
}

export const verificacionSettings = defineSettings('verificacion', VerificacionVariables, (v) => ({
  fallosPorMinuto: v.VERIFICACION_FALLOS_POR_MINUTO ?? 20,
}));
export type VerificacionSettings = SettingsOf<typeof verificacionSettings>;

/** Verification by CUIR for dispensers, and its audit (contract §3). */
export const verificacionSlice: ModuleSlice = {
  name: 'verificacion',
  scopes: VERIFICACION_SCOPES,
  settings: [verificacionSettings],
  // Also adds the clients' webhook columns: committed migrations are never split.
  migrations: [VerificationAndWebhooks1763800005000],
};
