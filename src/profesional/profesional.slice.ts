import type { ModuleSlice } from '../common/module-slice.js';
import { defineScopes } from '../common/http/access.js';
import { IntSetting } from '../config/setting-decorators.js';
import { defineSettings, SettingsOf } from '../config/settings.js';

export const PROFESIONAL_SCOPES = defineScopes({
  'profesional:read': "verify a professional's enablement (REFEPS)",
});

declare module '../common/http/access.js' {
  interface Scopes extends Record<keyof typeof PROFESIONAL_SCOPES, true> {}
}

class ProfesionalVariables {
  @IntSetting(0, 86400) REGISTRY_CACHE_TTL_SECONDS?: number;
  @IntSetting(0, 86400) REGISTRY_NEGATIVE_CACHE_TTL_SECONDS?: number;
  @IntSetting(0, 604800) REGISTRY_STALE_TTL_SECONDS?: number;
  @IntSetting(1, 1000000) REGISTRY_CACHE_MAX_ENTRIES?: number;
}

/** The cache in front of REFEPS (contract §3: hits for minutes, misses shorter). */
export const profesionalSettings = defineSettings('profesional', ProfesionalVariables, (v) => ({
  ttlSeconds: v.REGISTRY_CACHE_TTL_SECONDS ?? 300,
  negativeTtlSeconds: v.REGISTRY_NEGATIVE_CACHE_TTL_SECONDS ?? 60,
  /** How long past its lifetime a professional record may be served while REFEPS is down. */
  staleTtlSeconds: v.REGISTRY_STALE_TTL_SECONDS ?? 3600,
  maxEntries: v.REGISTRY_CACHE_MAX_ENTRIES ?? 10000,
}));

export type ProfesionalSettings = SettingsOf<typeof profesionalSettings>;

export const profesionalSlice: ModuleSlice = {
  name: 'profesional',
  scopes: PROFESIONAL_SCOPES,
  settings: [profesionalSettings],
};
