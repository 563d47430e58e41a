import { Documented } from '../config/setting-docs.js';
import { IntSetting } from '../config/setting-decorators.js';
import { defineSettings, SettingsOf } from '../config/settings.js';

class AuditoriaVariables {
  @Documented('event log: seal every N s (0: only the CLI)', {
    default: 60,
    env: 'seal the new events every N seconds, chained by SHA-256 (0: only `npm run cli -- auditoria sellar`)',
  })
  @IntSetting(0, 86400)
  AUDIT_SEAL_SECONDS?: number;
  // The regulation keeps events at least five years (Disp. DNSISA 1/2025, Annex III.3).
  @Documented('event log: keep N years (5 at least)', {
    default: 5,
    env: "years events are kept (minimum 5, the regulation's floor); `auditoria purgar` refuses younger dates",
  })
  @IntSetting(5, 100)
  AUDIT_RETENTION_YEARS?: number;
}

export const auditoriaSettings = defineSettings(
  'auditoria',
  AuditoriaVariables,
  (v) => ({
    sealSeconds: v.AUDIT_SEAL_SECONDS ?? 60,
    retentionYears: v.AUDIT_RETENTION_YEARS ?? 5,
  }),
  { title: 'Event log (SPEC 8)' },
);

export type AuditoriaSettings = SettingsOf<typeof auditoriaSettings>;
