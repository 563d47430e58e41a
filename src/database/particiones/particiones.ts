import type { QueryRunner } from 'typeorm';
import type { PartitionedTable } from './particionadas.js';
import {
  compare,
  type Periodo,
  periodoDe,
  periodoDeNombre,
  primerId,
  primerInstante,
  siguiente,
  SUFIJO_PARTICION,
  sufijo,
} from './periodos.js';

/** Runs one statement (a TypeORM QueryRunner, EntityManager or DataSource all do). */
export interface Sql {
  query<T = unknown>(sql: string, params?: unknown[]): Promise<T>;
}

/** Months created ahead by every migration run: a year of margin (the alert fires below two). */
export const MESES_ADELANTE = 12;

const ident = (name: string): string => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain identifier: ${name}`);
  return `"${name}"`;
};

const bound = (t: PartitionedTable, p: Periodo): string =>
  t.range === 'id' ? primerId(p).toString() : `'${primerInstante(p)}'`;

/**
 * A month's partition: a plain table, then attached. `PARTITION OF` would take ACCESS EXCLUSIVE
 * on the parent, queued behind any long read with every insert behind it; ATTACH does not.
 */
export function createPartitionSql(t: PartitionedTable, p: Periodo): string[] {
  const name = ident(`${t.table}_p${sufijo(p)}`);
  return [
    `CREATE TABLE ${name} (LIKE ${ident(t.table)} INCLUDING DEFAULTS INCLUDING CONSTRAINTS
       INCLUDING GENERATED INCLUDING STORAGE)`,
    `ALTER TABLE ${ident(t.table)} ATTACH PARTITION ${name}
       FOR VALUES FROM (${bound(t, p)}) TO (${bound(t, siguiente(p))})`,
  ];
}

/**
 * Names a partition's indexes after its table's (`dispensa_items_una_vez_p2026_11`), so that
 * isUniqueViolation matches a partition's violation to the table's index by the suffix.
 */
export async function nombrarIndices(q: Sql, partition: string): Promise<void> {
  const suffix = SUFIJO_PARTICION.exec(partition)?.[1];
  if (!suffix) throw new Error(`not a partition's name: ${partition}`);
  const rows = await q.query<Array<{ child: string; parent: string }>>(
    `SELECT c.relname AS child, p.relname AS parent
       FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
       JOIN pg_inherits i ON i.inhrelid = c.oid JOIN pg_class p ON p.oid = i.inhparent
      WHERE x.indrelid = $1::regclass`,
    [partition],
  );
  for (const r of rows) {
    const wanted = `${r.parent}_${suffix}`;
    if (r.child !== wanted)
      await q.query(`ALTER INDEX ${ident(r.child)} RENAME TO ${ident(wanted)}`);
  }
}

export interface Aseguradas {
  creadas: string[];
  abiertas: Array<{ secuencia: string; periodo: string; primer_id: string }>;
}

/**
 * Creates the declared tables' partitions from this month to `ahead` months after, then opens
 * this month in each `id` table's sequence (particiones_aperturas). Run as the tables' owner,
 * under the migrations' lock.
 */
export async function asegurarParticiones(
  q: Sql,
  tables: readonly PartitionedTable[],
  now = new Date(),
  ahead = MESES_ADELANTE,
): Promise<Aseguradas> {
  const actual = periodoDe(now);
  const missing: Array<{ t: PartitionedTable; p: Periodo; name: string }> = [];
  for (const t of ordered(tables)) {
    for (let i = 0; i <= ahead; i++) {
      const p = siguiente(actual, i);
      const name = `${t.table}_p${sufijo(p)}`;
      const [{ exists }] = await q.query<Array<{ exists: boolean }>>(
        'SELECT to_regclass($1) IS NOT NULL AS exists',
        [name],
      );
      if (!exists) missing.push({ t, p, name });
    }
  }
  if (missing.length > 0) {
    // Attaching locks every table the foreign keys join; one by one it could deadlock with a
    // write and stall the writes behind: so all at once, waiting at most 200 ms (then retried).
    await q.query(`SET LOCAL lock_timeout = '200ms'`);
    await q.query(
      `LOCK TABLE ${(await joined(q, tables)).map(ident).join(', ')} IN SHARE ROW EXCLUSIVE MODE`,
    );
    for (const m of missing) {
      for (const sql of createPartitionSql(m.t, m.p)) await q.query(sql);
      await nombrarIndices(q, m.name);
    }
  }
  // The function behind the service's SECURITY DEFINER door, here with our instant.
  const abiertas = await q.query<Aseguradas['abiertas']>(
    `SELECT secuencia, periodo::text AS periodo, primer_id::text AS primer_id
       FROM particiones_abrir_mes_en($1)`,
    [now.toISOString()],
  );
  return { creadas: missing.map((m) => m.name), abiertas };
}

async function joined(q: Sql, tables: readonly PartitionedTable[]): Promise<string[]> {
  const rows = await q.query<Array<{ name: string }>>(
    `SELECT DISTINCT t.relname AS name FROM pg_constraint c
       JOIN pg_class t ON t.oid IN (c.conrelid, c.confrelid)
      WHERE c.contype = 'f' AND NOT t.relispartition
        AND (c.conrelid::regclass::text = ANY($1) OR c.confrelid::regclass::text = ANY($1))
     UNION SELECT unnest($1::text[])
     ORDER BY 1`,
    [tables.map((t) => t.table)],
  );
  return rows.map((r) => r.name);
}

/** Codes of a run that lost to the writes: lock_not_available (its timeout), deadlock_detected. */
const RETRIABLE = new Set(['55P03', '40P01']);

/** asegurarParticiones in a transaction, tried again (up to 20 times) when it lost its locks. */
export async function asegurarEnTransaccion(
  q: QueryRunner,
  tables: readonly PartitionedTable[],
  now = new Date(),
): Promise<Aseguradas> {
  for (let attempt = 1; ; attempt++) {
    await q.startTransaction();
    try {
      const done = await asegurarParticiones(q, tables, now);
      await q.commitTransaction();
      return done;
    } catch (err) {
      await q.rollbackTransaction();
      const e = err as { code?: string; driverError?: { code?: string } };
      if (!RETRIABLE.has(e.code ?? e.driverError?.code ?? '') || attempt === 20) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

/** Leaders first (creation order; dropping goes backwards). */
export function ordered(tables: readonly PartitionedTable[]): PartitionedTable[] {
  return [...tables.filter((t) => !t.follows), ...tables.filter((t) => t.follows)];
}

export interface Particion {
  tabla: string;
  particion: string;
  /** `2026-11`, or null for the first partition (the rows of before partitioning). */
  periodo: string | null;
  desde: string;
  hasta: string;
  filas_estimadas: number;
  bytes: number;
}

export async function listarParticiones(
  q: Sql,
  tables: readonly PartitionedTable[],
): Promise<Particion[]> {
  const rows = await q.query<
    Array<{ tabla: string; particion: string; bound: string; filas: string; bytes: string }>
  >(
    `SELECT parent.relname AS tabla, child.relname AS particion,
            pg_get_expr(child.relpartbound, child.oid) AS bound,
            -- reltuples is -1 until the first ANALYZE: the statistics' live count then.
            (CASE WHEN child.reltuples >= 0 THEN child.reltuples
                  ELSE coalesce(pg_stat_get_live_tuples(child.oid), 0) END)::bigint::text AS filas,
            pg_total_relation_size(child.oid)::text AS bytes
       FROM pg_inherits i
       JOIN pg_class parent ON parent.oid = i.inhparent
       JOIN pg_class child ON child.oid = i.inhrelid
      WHERE parent.relname = ANY($1) AND parent.relnamespace = 'public'::regnamespace
      ORDER BY parent.relname, child.relname`,
    [tables.map((t) => t.table)],
  );
  return rows.map((r) => {
    const m = /FROM \((.*)\) TO \((.*)\)/.exec(r.bound);
    const p = periodoDeNombre(r.tabla, r.particion);
    return {
      tabla: r.tabla,
      particion: r.particion,
      periodo: p && `${p.year}-${String(p.month).padStart(2, '0')}`,
      desde: m ? m[1].replace(/'/g, '') : r.bound,
      hasta: m ? m[2].replace(/'/g, '') : r.bound,
      filas_estimadas: Number(r.filas),
      bytes: Number(r.bytes),
    };
  });
}

/** The months entirely before `antesDe` (YYYY-MM-DD, UTC); never the first partition (`_p0`). */
export function mesesAntesDe(particiones: readonly Particion[], antesDe: string): Periodo[] {
  const limite = new Date(`${antesDe}T00:00:00Z`).toISOString();
  const periods = new Map<string, Periodo>();
  for (const p of particiones) {
    if (!p.periodo) continue;
    const [year, month] = p.periodo.split('-').map(Number);
    if (primerInstante(siguiente({ year, month })) <= limite)
      periods.set(p.periodo, { year, month });
  }
  return [...periods.values()].sort(compare);
}

/** Detaches (and with `drop`, drops) a month's partition of every table of a family. */
export async function separarMes(
  q: Sql,
  family: readonly PartitionedTable[],
  p: Periodo,
  drop: boolean,
): Promise<string[]> {
  const done: string[] = [];
  for (const t of [...ordered(family)].reverse()) {
    const name = `${t.table}_p${sufijo(p)}`;
    const [{ attached }] = await q.query<Array<{ attached: boolean }>>(
      `SELECT EXISTS (SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                       WHERE c.relname = $1 AND i.inhparent = $2::regclass) AS attached`,
      [name, t.table],
    );
    if (attached) await q.query(`ALTER TABLE ${ident(t.table)} DETACH PARTITION ${ident(name)}`);
    if (drop) await q.query(`DROP TABLE IF EXISTS ${ident(name)}`);
    if (attached || drop) done.push(name);
  }
  return done;
}
