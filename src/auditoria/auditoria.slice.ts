import { defineSlice } from '../common/module-slice.js';
import { auditoriaSettings } from './auditoria.settings.js';
import { Auditoria1763900010000 } from './migrations/1763900010000-Auditoria.js';
import { AuditoriaClientRequestId1795650128478 } from './migrations/1795650128478-AuditoriaClientRequestId.js';
import { AuditoriaEventoEnLinea1795728400000 } from './migrations/1795728400000-AuditoriaEventoEnLinea.js';
import { AuditoriaParticionada1795728800100 } from './migrations/1795728800100-AuditoriaParticionada.js';

/** The sealed event log (contract §8). */
export const auditoriaSlice = defineSlice({
  name: 'auditoria',
  module: () => import('./auditoria.module.js').then((m) => m.AuditoriaModule),
  settings: [auditoriaSettings],
  migrations: [
    Auditoria1763900010000,
    AuditoriaClientRequestId1795650128478,
    AuditoriaEventoEnLinea1795728400000,
    AuditoriaParticionada1795728800100,
  ],
  partitionedTables: [{ table: 'auditoria_eventos', range: 'id' }],
  // The service appends events and seals; only the purge (the CLI, as the migration role) deletes.
  appendOnlyTables: ['auditoria_eventos', 'auditoria_sellos'],
  readOnlyTables: ['auditoria_purgas'],
});
