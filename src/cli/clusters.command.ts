import { Command } from 'commander';
import {
  listFallbackClusters,
  NotAFallbackCluster,
  removeOrphans,
  type FallbackCluster,
} from '../database/embedded/fallback-clusters.js';
import { ROOT_FALLBACK_DIR } from '../database/embedded/server-user.js';
import { DomainError } from '../common/errors/domain-error.js';
import type { Output } from './output.js';

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

function describe(c: FallbackCluster): string {
  const state = c.en_uso
    ? 'in use'
    : c.checkout === null
      ? 'checkout unknown'
      : c.huerfano
        ? 'ORPHAN: its checkout is gone'
        : 'its checkout exists';
  return `${c.carpeta}  ${megabytes(c.bytes)}  ${c.checkout ?? '?'}  (${state})`;
}

/**
 * `clusters listar | borrar-huerfanos` (docs/operators.md, "The embedded cluster as root"): the embedded clusters root
 * keeps under /var/lib/prescription-registry for checkouts the `postgres` user cannot enter,
 * which a deleted checkout leaves behind. No database is opened.
 */
export function clustersCommand(out: Output): Command {
  const cmd = new Command('clusters').description(
    `root's relocated embedded clusters, in ${ROOT_FALLBACK_DIR}`,
  );
  cmd
    .command('listar')
    .description('each relocated cluster: its folder, size, checkout, and whether that is gone')
    .option('--json', 'print one JSON object on stdout')
    .action((flags: { json?: boolean }) => {
      const clusters = listFallbackClusters(ROOT_FALLBACK_DIR);
      if (flags.json) out.json({ clusters });
      else if (clusters.length === 0) out.line(`No relocated cluster in ${ROOT_FALLBACK_DIR}.`);
      else for (const c of clusters) out.line(describe(c));
    });
  cmd
    .command('borrar-huerfanos')
    .description(
      'remove the relocated clusters whose checkout no longer exists (only the folders named, when given); never one in use',
    )
    .argument('[carpetas...]', 'only these folders (paths or names under the root)')
    .option('--json', 'print one JSON object on stdout')
    .action((carpetas: string[], flags: { json?: boolean }) => {
      let removal;
      try {
        removal = removeOrphans(ROOT_FALLBACK_DIR, carpetas);
      } catch (err) {
        if (err instanceof NotAFallbackCluster)
          throw new DomainError('VALIDATION_FAILED', err.message);
        throw err;
      }
      if (flags.json) out.json(removal);
      else {
        for (const carpeta of removal.borrados) out.line(`removed ${carpeta}`);
        for (const kept of removal.conservados) out.line(`kept ${kept.carpeta}: ${kept.motivo}`);
        if (removal.borrados.length + removal.conservados.length === 0)
          out.line('No orphaned cluster.');
      }
    });
  return cmd;
}
