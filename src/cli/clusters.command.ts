import { Command } from 'commander';
import {
  listFallbackClusters,
  removeOrphans,
  type FallbackCluster,
} from '../database/embedded/fallback-clusters.js';
import { ROOT_FALLBACK_DIR } from '../database/embedded/server-user.js';
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

/** `clusters listar | borrar-huerfanos` (docs/operators.md, "The embedded cluster as root"); no database is opened. */
export function clustersCommand(out: Output): Command {
  const cmd = new Command('clusters').description(
    `root's relocated embedded clusters, in ${ROOT_FALLBACK_DIR}`,
  );
  cmd
    .command('listar')
    .description('each relocated cluster: its folder, size, checkout, and whether that is gone')
    .option('--json', 'print one JSON object on stdout')
    .action((flags: { json?: boolean }) =>
      out.result(flags.json, { clusters: listFallbackClusters(ROOT_FALLBACK_DIR) }, (r) =>
        r.clusters.length === 0
          ? `No relocated cluster in ${ROOT_FALLBACK_DIR}.`
          : r.clusters.map(describe),
      ),
    );
  cmd
    .command('borrar-huerfanos')
    .description(
      'remove the relocated clusters whose checkout no longer exists (only the folders named, when given); never one in use',
    )
    .argument('[carpetas...]', 'only these folders (paths or names under the root)')
    .option('--json', 'print one JSON object on stdout')
    .action((carpetas: string[], flags: { json?: boolean }) =>
      out.result(flags.json, removeOrphans(ROOT_FALLBACK_DIR, carpetas), (r) =>
        r.borrados.length + r.conservados.length === 0
          ? 'No orphaned cluster.'
          : [
              ...r.borrados.map((carpeta) => `removed ${carpeta}`),
              ...r.conservados.map((kept) => `kept ${kept.carpeta}: ${kept.motivo}`),
            ],
      ),
    );
  return cmd;
}
