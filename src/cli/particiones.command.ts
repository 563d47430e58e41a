import { Command } from 'commander';
import { checkedPurgeDate, MIN_RETENTION_YEARS } from '../auditoria/audit-purger.js';
import type { AppConfig } from '../config/app-config.js';
import { mesesAdelante } from '../database/particiones/particiones.metrics.js';
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
import { openCliDatabase } from './cli-database.js';
import type { Output } from './output.js';

/** The event log's months go only through `auditoria purgar`: after their seals. */
const EVENT_LOG = 'auditoria_eventos';

/** The tables moving together: each leader with the tables following it. */
function families(tables: readonly PartitionedTable[]): Map<string, PartitionedTable[]> {
  const out = new Map<string, PartitionedTable[]>();
  for (const t of tables) {
    const leader = t.follows ?? t.table;
    out.set(leader, [...(out.get(leader) ?? []), t]);
  }
  return out;
}

export interface MesSeparado {
  tabla: string;
  periodo: string;
  particiones: string[];
  /** `borrar` on recetas: the month's rows of recetas_cuir deleted with it. */
  cuirs_borrados?: number;
}

/**
 * `particiones listar | separar | borrar` (SPEC 10; docs/architecture.md, "Partitions"): the
 * monthly partitions of the tables the slices declare. Detaching and dropping take whole months
 * past the retention, a prescription's month with its history, reservations, dispensations and
 * CUIR rows, as the migration role (the tables' owner). The event log's months are never
 * taken here: `auditoria purgar` drops them after their seals.
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
      // Every CLI command's migration run creates them; this one says what it did.
      const db = await openCliDatabase(config, []);
      try {
        const done = db.migrated.particiones ?? { creadas: [], abiertas: [] };
        const ahead = mesesAdelante(
          await listarParticiones(db.dataSource, tables),
          tables.map((t) => t.table),
        );
        if (flags.json) out.json({ ...done, meses_adelante: ahead });
        else {
          for (const name of done.creadas) out.line(`created ${name}`);
          for (const a of done.abiertas) out.line(`opened ${a.periodo} in ${a.secuencia}`);
          out.line(`${ahead} months ahead`);
        }
      } finally {
        await db.close();
      }
    });
  cmd
    .command('listar')
    .description('every partition: its table, month, bounds, estimated rows and size')
    .option('--json', 'print one JSON object on stdout')
    .action(async (flags: { json?: boolean }) => {
      const db = await openCliDatabase(config, []);
      try {
        const rows = await listarParticiones(db.dataSource, tables);
        if (flags.json) out.json({ particiones: rows });
        else for (const r of rows) out.line(describe(r));
      } finally {
        await db.close();
      }
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
        const db = await openCliDatabase(config, [], { as: 'migration' });
        try {
          const done = await separar(db.dataSource, tables, antesDe, drop);
          if (flags.json) out.json({ antes_de: antesDe, meses: done });
          else if (done.length === 0) out.line(`no month entirely before ${antesDe}`);
          else
            for (const m of done)
              out.line(
                `${name === 'borrar' ? 'dropped' : 'detached'} ${m.tabla} ${m.periodo}: ${m.particiones.join(', ')}`,
              );
        } finally {
          await db.close();
        }
      });
  }
  return cmd;
}

async function separar(
  ds: import('typeorm').DataSource,
  tables: readonly PartitionedTable[],
  antesDe: string,
  drop: boolean,
): Promise<MesSeparado[]> {
  const all = await listarParticiones(ds, tables);
  const done: MesSeparado[] = [];
  for (const [leader, family] of families(tables)) {
    if (leader === EVENT_LOG) continue;
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
