import type { ModuleSlice } from '../common/module-slice.js';
import { defineScopes } from '../common/http/access.js';
import { VerificationAndWebhooks1763800005000 } from './migrations/1763800005000-VerificationAndWebhooks.js';

export const VERIFICACION_SCOPES = defineScopes({
  'recetas:verify': 'dispensers: verify any prescription by its CUIR',
});

declare module '../common/http/access.js' {
  interface Scopes extends Record<keyof typeof VERIFICACION_SCOPES, true> {}
}

/** Verification by CUIR for dispensers, and its audit (contract §3). */
export const verificacionSlice: ModuleSlice = {
  name: 'verificacion',
  scopes: VERIFICACION_SCOPES,
  // Also adds the clients' webhook columns: committed migrations are never split.
  migrations: [VerificationAndWebhooks1763800005000],
};
