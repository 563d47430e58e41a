import { Command } from 'commander';
import type { DataSource } from 'typeorm';
import { checkedPurgeDate, MIN_RETENTION_YEARS } from '../auditoria/audit-purger.js';
import type { AppConfig } from '../config/app-config.js';
import {
  listarParticiones,
  MESES_ADELANTE,
  mesesAntesDe,
  type Particion,
  separarMes,
} from '../database/particiones/particiones.js';
import type { PartitionedTable } from '../database/particiones/particionadas.js';
import { primerId, siguiente, sufijo } from '../database/particiones/periodos.js';
import { MODULE_SLICES } from '../slices.js';
import type { Output } from './output.js';

/** The event log's months go only through `auditoria purgar`: after their seals. */
const EVENT_LOG = 'auditoria_eventos';

interface MesSeparado {
  tabla: string;
  periodo: string;
  particiones: string[];
  /** `borrar` on recetas: the month's rows of recetas_cuir deleted with it. */
  cuirs_borrados?: number;
}

/**
 * `particiones crear | listar | separar | borrar` (SPEC 10; docs/architecture.md, "Partitions"):
 * detaching and dropping take whole months past the retention, a leader's with its followers'
 * (and CUIR rows), as the migration role; never the event log's (`auditoria purgar`).
 */
export function particionesCommand(config: AppConfig, out: Output): Command {
  const tables = MODULE_SLICES.flatMap((s) => s.partitionedTables ?? []);
  const cmd = new Command('particiones').description(
    'the monthly partitions (docs/architecture.md, "Partitions")',
  );
  cmd
    .command('crear')
    .description(
      `create the months ahead (a year: ${MESES_ADELANTE}) and open this month, as the migration role; run it on a schedule (daily), so a service that is never restarted keeps its margin`,
    )
    .option('--json', 'print one JSON object on stdout')
    .action(async (flags: { json?: boolean }) => {
      // The command's code is loaded when it runs (main.ts).
      const { mesesAdelante } = await import('../database/particiones/particiones.metrics.js');
      const { withCliDatabase } = await import('./cli-database.js');
      // Every CLI command's migration run creates them; this one says what it did.
      const result = await withCliDatabase(config, [], async (ds, migrated) => ({
        ...(migrated.particiones ?? { creadas: [], abiertas: [] }),
        meses_adelante: mesesAdelante(
          await listarParticiones(ds, tables),
          tables.map((t) => t.table),
        ),
      }));
      out.result(flags.json, result, (r) => [
        ...r.creadas.map((name) => `created ${name}`),
        ...r.abiertas.map((a) => `opened ${a.periodo} in ${a.secuencia}`),
        `${r.meses_adelante} months ahead`,
      ]);
    });
  cmd
    .command('listar')
    .description('every partition: its table, month, bounds, estimated rows and size')
    .option('--json', 'print one JSON object on stdout')
    .action(async (flags: { json?: boolean }) => {
      const { withCliDatabase } = await import('./cli-database.js');
      const rows = await withCliDatabase(config, [], (ds) => listarParticiones(ds, tables));
      out.result(flags.json, { particiones: rows }, (r) => r.particiones.map(describe));
    });
  for (const [name, drop] of [
    ['separar', false],
    ['borrar', true],
  ] as const) {
    cmd
      .command(name)
      .description(
        drop
          ? 'detach and drop the months entirely before a date past the retention'
          : 'detach (keep as plain tables, to archive) the months entirely before a date past the retention',
      )
      .requiredOption('--antes-de <YYYY-MM-DD>', 'only months entirely before this date (UTC)')
      .option('--json', 'print one JSON object on stdout')
      .action(async (flags: { antesDe: string; json?: boolean }) => {
        // Past the regulation's 5 years, as the event log's purge (audit-purger.ts).
        const antesDe = checkedPurgeDate(flags.antesDe, MIN_RETENTION_YEARS);
        const { withCliDatabase } = await import('./cli-database.js');
        const meses = await withCliDatabase(
          config,
          [],
          (ds) => separar(ds, tables, antesDe, drop),
          { as: 'migration' },
        );
        out.result(flags.json, { antes_de: antesDe, meses }, () =>
          meses.length === 0
            ? `no month entirely before ${antesDe}`
            : meses.map(
                (m) =>
                  `${drop ? 'dropped' : 'detached'} ${m.tabla} ${m.periodo}: ${m.particiones.join(', ')}`,
              ),
        );
      });
  }
  return cmd;
}

async function separar(
  ds: DataSource,
  tables: readonly PartitionedTable[],
  antesDe: string,
  drop: boolean,
): Promise<MesSeparado[]> {
  const all = await listarParticiones(ds, tables);
  const done: MesSeparado[] = [];
  for (const { table: leader } of tables.filter((t) => !t.follows && t.table !== EVENT_LOG)) {
    const family = tables.filter((t) => (t.follows ?? t.table) === leader);
    const meses = mesesAntesDe(
      all.filter((p) => p.tabla === leader),
      antesDe,
    );
    for (const p of meses) {
      // One transaction a month: the family's tables, and the month's CUIR rows, together.
      const result = await ds.transaction(async (tx) => {
        const particiones = await separarMes(tx, family, p, drop);
        if (!drop || leader !== 'recetas') return { particiones };
        const [{ n }]: Array<{ n: number }> = await tx.query(
          `WITH d AS (DELETE FROM recetas_cuir WHERE id_transaccion >= $1 AND id_transaccion < $2
                      RETURNING 1)
           SELECT count(*)::int AS n FROM d`,
          [primerId(p).toString(), primerId(siguiente(p)).toString()],
        );
        return { particiones, cuirs_borrados: n };
      });
      done.push({ tabla: leader, periodo: sufijo(p).replace('_', '-'), ...result });
    }
  }
  return done;
}

function describe(p: Particion): string {
  const size = `${(p.bytes / 1048576).toFixed(1)} MiB`;
  return `${p.tabla}\t${p.particion}\t${p.periodo ?? '(before partitioning)'}\t[${p.desde}, ${p.hasta})\t~${p.filas_estimadas} rows\t${size}`;
}
