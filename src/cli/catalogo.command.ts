import { Command } from 'commander';
import type { AppConfig } from '../config/app-config.js';
import type { SyncResult } from '../medicamentos/catalogo-sync.service.js';
import type { Output } from './output.js';

/** `catalogo sync`: refreshes the catalogue mirror now, on the database the service uses. */
export function catalogoCommand(config: AppConfig, out: Output): Command {
  const catalogo = new Command('catalogo').description(
    'the local mirror of the medication catalogue',
  );
  catalogo
    .command('sync')
    .description(
      'sync the mirror from CATALOGO_BASE_URL (unset: a sandbox started for the run); progress is logged on stderr',
    )
    .option('--json', 'print one JSON object on stdout')
    .action(async (flags: { json?: boolean }) => {
      const { syncCatalogo } = await import('./catalogo-sync.js');
      out.result(flags.json, await syncCatalogo(config), describe);
    });
  return catalogo;
}

function describe(r: SyncResult): string {
  if (r.outcome === 'skipped') {
    return r.reason === 'locked'
      ? 'skipped: another instance is syncing the catalogue'
      : 'skipped: the mirror is fresh';
  }
  return `catalogue synced: ${r.items} items (${r.inserted} new, ${r.updated} changed, ${r.deleted} removed) in ${r.duration_ms} ms`;
}
