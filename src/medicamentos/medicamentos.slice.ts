import type { ModuleSlice } from '../common/module-slice.js';
import { defineErrorCodes } from '../common/errors/error-codes.js';
import { defineScopes } from '../common/http/access.js';
import { BoolSetting, IntSetting, PatternSetting } from '../config/setting-decorators.js';
import { defineSettings, SettingsOf } from '../config/settings.js';
import { MedicamentosMirror1763800004000 } from './migrations/1763800004000-MedicamentosMirror.js';

export const MEDICAMENTOS_SCOPES = defineScopes({
  'medicamentos:read': 'search the medication catalogue',
});

/** A prescribed or dispensed code not in the catalogue mirror (SPEC 9.2; medicamento-desconocido.ts). */
export const MEDICAMENTOS_ERRORS = defineErrorCodes({
  MEDICAMENTO_DESCONOCIDO: 422,
});

declare module '../common/http/access.js' {
  interface Scopes extends Record<keyof typeof MEDICAMENTOS_SCOPES, true> {}
}
declare module '../common/errors/error-codes.js' {
  interface ErrorCodes extends Record<keyof typeof MEDICAMENTOS_ERRORS, number> {}
}

class MedicamentosVariables {
  @PatternSetting(
    /^[a-z][a-z0-9_]{0,30}$/,
    'must be a lower-case identifier (letters, digits, underscore)',
  )
  INSURER_NAME?: string;
  @IntSetting(0, 10080) CATALOG_SYNC_INTERVAL_MINUTES?: number;
  @IntSetting(10, 1000) CATALOG_SYNC_PAGE_SIZE?: number;
  @IntSetting(0, 3600) CATALOG_SEARCH_CACHE_SECONDS?: number;
  @BoolSetting() CATALOG_SYNC_ON_START?: boolean;
}

export const medicamentosSettings = defineSettings('medicamentos', MedicamentosVariables, (v) => ({
  /** Names the discount field `<insurer>_descuento`. */
  insurerName: v.INSURER_NAME ?? 'pami',
  /** The mirror's sync: every N minutes (0: only at start when empty, and the CLI). */
  syncIntervalMinutes: v.CATALOG_SYNC_INTERVAL_MINUTES ?? 1440,
  syncPageSize: v.CATALOG_SYNC_PAGE_SIZE ?? 500,
  syncOnStart: v.CATALOG_SYNC_ON_START ?? true,
  /** Search results (per query) and catalogue codes' existence (per code) are kept this long (0: not cached). */
  searchCacheSeconds: v.CATALOG_SEARCH_CACHE_SECONDS ?? 60,
}));

export type MedicamentosSettings = SettingsOf<typeof medicamentosSettings>;

export const medicamentosSlice: ModuleSlice = {
  name: 'medicamentos',
  scopes: MEDICAMENTOS_SCOPES,
  errors: MEDICAMENTOS_ERRORS,
  settings: [medicamentosSettings],
  migrations: [MedicamentosMirror1763800004000],
};
