import { Documented } from '../config/setting-docs.js';
import { BoolSetting, IntSetting, PatternSetting } from '../config/setting-decorators.js';
import { defineSettings, SettingsOf } from '../config/settings.js';

class MedicamentosVariables {
  @Documented("names the catalogue's discount field `<insurer>_descuento`", {
    default: 'pami',
    env: 'names the discount field: <insurer>_descuento',
  })
  @PatternSetting(
    /^[a-z][a-z0-9_]{0,30}$/,
    'must be a lower-case identifier (letters, digits, underscore)',
  )
  INSURER_NAME?: string;
  @Documented('catalogue mirror sync: every N minutes', {
    default: 1440,
    env: '0: only at start (when empty) and by `npm run cli -- catalogo sync`',
  })
  @IntSetting(0, 10080)
  CATALOG_SYNC_INTERVAL_MINUTES?: number;
  @Documented('catalogue mirror sync: page size', { default: 500 })
  @IntSetting(10, 1000)
  CATALOG_SYNC_PAGE_SIZE?: number;
  @Documented('catalogue mirror sync: at start when the mirror is empty', {
    default: true,
    env: 'sync at start when the mirror is empty',
  })
  @BoolSetting()
  CATALOG_SYNC_ON_START?: boolean;
  @Documented(
    'search results cached per query (at most 20,000 rows), and whether a catalogue code exists, per code (registration, dispensation); any sync clears them everywhere',
    {
      default: 60,
      env: "search results kept per query, and whether a prescribed or dispensed catalogue code exists (SPEC 9.2), kept per code (0: no cache); every sync clears them on every instance (PostgreSQL LISTEN/NOTIFY; on the embedded database only the syncing process's, the others' after this long)",
    },
  )
  @IntSetting(0, 3600)
  CATALOG_SEARCH_CACHE_SECONDS?: number;
}

export const medicamentosSettings = defineSettings(
  'medicamentos',
  MedicamentosVariables,
  (v) => ({
    insurerName: v.INSURER_NAME ?? 'pami',
    syncIntervalMinutes: v.CATALOG_SYNC_INTERVAL_MINUTES ?? 1440,
    syncPageSize: v.CATALOG_SYNC_PAGE_SIZE ?? 500,
    syncOnStart: v.CATALOG_SYNC_ON_START ?? true,
    searchCacheSeconds: v.CATALOG_SEARCH_CACHE_SECONDS ?? 60,
  }),
  { title: 'Medication catalogue mirror' },
);

export type MedicamentosSettings = SettingsOf<typeof medicamentosSettings>;
