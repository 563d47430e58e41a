import type { ModuleSlice } from '../common/module-slice.js';
import { IntSetting } from '../config/setting-decorators.js';
import { defineSettings, SettingsOf } from '../config/settings.js';
import { Auditoria1763900010000 } from './migrations/1763900010000-Auditoria.js';
import { AuditoriaClientRequestId1795650128478 } from './migrations/1795650128478-AuditoriaClientRequestId.js';
import { AuditoriaEventoEnLinea1795728400000 } from './migrations/1795728400000-AuditoriaEventoEnLinea.js';

class AuditoriaVariables {
  /** Seal the event log every N seconds (0: only by `npm run cli -- auditoria sellar`). */
  @IntSetting(0, 86400) AUDIT_SEAL_SECONDS?: number;
  // The regulation keeps events at least five years (Disp. DNSISA 1/2025, Annex III.3).
  @IntSetting(5, 100) AUDIT_RETENTION_YEARS?: number;
}

export const auditoriaSettings = defineSettings('auditoria', AuditoriaVariables, (v) => ({
  sealSeconds: v.AUDIT_SEAL_SECONDS ?? 60,
  retentionYears: v.AUDIT_RETENTION_YEARS ?? 5,
}));

export type AuditoriaSettings = SettingsOf<typeof auditoriaSettings>;

/** The sealed event log (contract §8). */
export const auditoriaSlice: ModuleSlice = {
  name: 'auditoria',
  settings: [auditoriaSettings],
  migrations: [
    Auditoria1763900010000,
    AuditoriaClientRequestId1795650128478,
    AuditoriaEventoEnLinea1795728400000,
  ],
  // The service appends events and seals; only the purge (the CLI, as the migration role) deletes.
  appendOnlyTables: ['auditoria_eventos', 'auditoria_sellos'],
  readOnlyTables: ['auditoria_purgas'],
};
