import { Documented } from '../config/setting-docs.js';
import { IntSetting } from '../config/setting-decorators.js';
import { defineSettings, SettingsOf } from '../config/settings.js';

class ProfesionalVariables {
  @Documented('professional lookup cache: hits', {
    default: 300,
    env: 'professional lookups (REFEPS) are cached: hits',
  })
  @IntSetting(0, 86400)
  REGISTRY_CACHE_TTL_SECONDS?: number;
  @Documented('professional lookup cache: not found', {
    default: 60,
    env: 'professional lookups (REFEPS) are cached: not-found',
  })
  @IntSetting(0, 86400)
  REGISTRY_NEGATIVE_CACHE_TTL_SECONDS?: number;
  @Documented('serve an expired hit this long while REFEPS fails', {
    default: 3600,
    env: 'how long past expiry a hit may be served while REFEPS fails (0: never)',
  })
  @IntSetting(0, 604800)
  REGISTRY_STALE_TTL_SECONDS?: number;
  @Documented('cache bound', { default: 10000, env: 'professional lookups cache bound' })
  @IntSetting(1, 1000000)
  REGISTRY_CACHE_MAX_ENTRIES?: number;
}

/** The cache in front of REFEPS (contract §3: hits for minutes, misses shorter). */
export const profesionalSettings = defineSettings(
  'profesional',
  ProfesionalVariables,
  (v) => ({
    ttlSeconds: v.REGISTRY_CACHE_TTL_SECONDS ?? 300,
    negativeTtlSeconds: v.REGISTRY_NEGATIVE_CACHE_TTL_SECONDS ?? 60,
    staleTtlSeconds: v.REGISTRY_STALE_TTL_SECONDS ?? 3600,
    maxEntries: v.REGISTRY_CACHE_MAX_ENTRIES ?? 10000,
  }),
  { title: 'Professional enablement (REFEPS)' },
);

export type ProfesionalSettings = SettingsOf<typeof profesionalSettings>;
