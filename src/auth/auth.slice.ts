import { defineSlice } from '../common/module-slice.js';
import { authSettings } from './auth.settings.js';
import { ApiClients1763800001000 } from './migrations/1763800001000-ApiClients.js';

/** API clients, credentials, scopes checking and rate limits (contract §2). */
export const authSlice = defineSlice({
  name: 'auth',
  module: () => import('./auth.module.js').then((m) => m.AuthModule),
  settings: [authSettings],
  migrations: [ApiClients1763800001000],
});
