import type { ModuleSlice } from '../common/module-slice.js';
import { defineScopes } from '../common/http/access.js';
import { IntSetting } from '../config/setting-decorators.js';
import { defineSettings, SettingsOf } from '../config/settings.js';

export const PERSONA_SCOPES = defineScopes({
  'persona:read': "verify a citizen's identity (RENAPER)",
});

declare module '../common/http/access.js' {
  interface Scopes extends Record<keyof typeof PERSONA_SCOPES, true> {}
}

class PersonaVariables {
  @IntSetting(0, 3600) PERSONA_CACHE_TTL_SECONDS?: number;
}

export const personaSettings = defineSettings('persona', PersonaVariables, (v) => ({
  /** Persona data (found or not) is kept only this long, never served stale (contract §3). */
  cacheTtlSeconds: v.PERSONA_CACHE_TTL_SECONDS ?? 60,
  cacheMaxEntries: 10_000,
}));

export type PersonaSettings = SettingsOf<typeof personaSettings>;

export const personaSlice: ModuleSlice = {
  name: 'persona',
  scopes: PERSONA_SCOPES,
  settings: [personaSettings],
};
