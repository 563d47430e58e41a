import { Documented } from '../config/setting-docs.js';
import { IntSetting } from '../config/setting-decorators.js';
import { defineSettings, SettingsOf } from '../config/settings.js';

class PersonaVariables {
  @Documented('citizen data cache, per client (never served stale)', {
    default: 60,
    env: 'citizen data (RENAPER): never kept longer, never served stale',
  })
  @IntSetting(0, 3600)
  PERSONA_CACHE_TTL_SECONDS?: number;
}

export const personaSettings = defineSettings(
  'persona',
  PersonaVariables,
  (v) => ({
    cacheTtlSeconds: v.PERSONA_CACHE_TTL_SECONDS ?? 60,
    cacheMaxEntries: 10_000,
  }),
  { title: 'Citizen identity (RENAPER)' },
);

export type PersonaSettings = SettingsOf<typeof personaSettings>;
