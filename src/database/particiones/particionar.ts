import { nombrarIndices, type Sql } from './particiones.js';

/** How a migration turns one plain table into a partitioned one (particionarTabla). */
export interface Particionado {
  table: string;
  /** `RANGE (id_transaccion)` */
  by: string;
  /** The partitioned table's primary key: the partition key must be in it. */
  primaryKey: readonly string[];
  /** The first partition's upper bound (`<table>_p0`, from MINVALUE): the first month's start. */
  firstBound: string;
  /**
   * A month's partition to create before the copy (`{ suffix: 'p2026_11', from, to }`): for a
   * table cut by time, whose rows of this month exist already (`verificaciones_cuir`).
   */
  month?: { suffix: string; from: string; to: string };
  /** Indexes of the plain table not to carry over (a UNIQUE the partition key is not in). */
  dropIndexes?: readonly string[];
  /** Index definitions to change on the way (by name: the new CREATE INDEX). */
  replaceIndexes?: Readonly<Record<string, string>>;
}

/**
 * Rewrites a plain table as a partitioned one holding every row: the columns, defaults,
 * identities and CHECKs copied (LIKE), each index re-created under its own name, the rows
 * copied with their ids (OVERRIDING SYSTEM VALUE) into a first partition below every month
 * (`<table>_p0`), the identity resumed after them. Foreign keys, triggers and the plain table's
 * drop are the migration's: it knows which point where. The plain table is left renamed
 * `<table>_previa`, without its primary key.
 *
 * A copy, not ATTACH PARTITION of the old table: the new table gets exactly the declared
 * shape (keys including the partition key), and at today's sizes the copy takes seconds.
 */
export async function particionarTabla(q: Sql, p: Particionado): Promise<void> {
  const t = p.table;
  const previa = `${t}_previa`;
  const indexes = await q.query<Array<{ name: string; def: string; constraint: string | null }>>(
    `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS def, c.conname AS constraint
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
       LEFT JOIN pg_constraint c ON c.conindid = i.oid AND c.conrelid = x.indrelid
      WHERE x.indrelid = $1::regclass`,
    [t],
  );
  await q.query(`ALTER TABLE ${t} RENAME TO ${previa}`);
  for (const i of indexes) {
    if (i.constraint) await q.query(`ALTER TABLE ${previa} DROP CONSTRAINT ${i.constraint}`);
    else await q.query(`ALTER INDEX ${i.name} RENAME TO ${i.name}_previa`);
  }
  await q.query(
    `CREATE TABLE ${t} (LIKE ${previa} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED
       INCLUDING IDENTITY INCLUDING STORAGE INCLUDING COMMENTS) PARTITION BY ${p.by}`,
  );
  await q.query(
    `CREATE TABLE ${t}_p0 PARTITION OF ${t} FOR VALUES FROM (MINVALUE) TO (${p.firstBound})`,
  );
  await q.query(
    `ALTER TABLE ${t} ADD CONSTRAINT ${t}_pkey PRIMARY KEY (${p.primaryKey.join(', ')})`,
  );
  for (const i of indexes) {
    if (i.constraint || p.dropIndexes?.includes(i.name)) continue;
    // Read before the renames: the definition names the table and the index as they were.
    await q.query(p.replaceIndexes?.[i.name] ?? i.def);
  }
  for (const name of Object.keys(p.replaceIndexes ?? {})) {
    if (!indexes.some((i) => i.name === name)) await q.query(p.replaceIndexes![name]);
  }
  await nombrarIndices(q, `${t}_p0`);
  if (p.month) {
    const name = `${t}_${p.month.suffix}`;
    await q.query(
      `CREATE TABLE ${name} PARTITION OF ${t} FOR VALUES FROM (${p.month.from}) TO (${p.month.to})`,
    );
    await nombrarIndices(q, name);
  }
  await q.query(`INSERT INTO ${t} OVERRIDING SYSTEM VALUE SELECT * FROM ${previa}`);
  const identities = await q.query<Array<{ col: string }>>(
    `SELECT attname AS col FROM pg_attribute
      WHERE attrelid = $1::regclass AND attidentity <> '' AND NOT attisdropped`,
    [t],
  );
  for (const { col } of identities) {
    await q.query(
      `SELECT setval(pg_get_serial_sequence($1, $2), coalesce((SELECT max(${col}) FROM ${t}), 0) + 1, false)`,
      [t, col],
    );
  }
}

/**
 * Drops the plain table a particionarTabla left (its foreign keys, and those pointing at it,
 * dropped by the migration first) and gives the identity sequences their usual names back
 * (LIKE made new ones beside the old).
 */
export async function retirarPrevia(q: Sql, table: string): Promise<void> {
  // A plain sequence (serial) owned by the old table would go with it: the new table owns it.
  const owned = await q.query<Array<{ seq: string; col: string }>>(
    `SELECT s.relname AS seq, a.attname AS col
       FROM pg_depend d JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
       JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
      WHERE d.refobjid = $1::regclass AND d.deptype = 'a'`,
    [`${table}_previa`],
  );
  for (const o of owned) await q.query(`ALTER SEQUENCE ${o.seq} OWNED BY ${table}.${o.col}`);
  await q.query(`DROP TABLE ${table}_previa`);
  const identities = await q.query<Array<{ col: string; seq: string }>>(
    `SELECT attname AS col, pg_get_serial_sequence($1, attname) AS seq FROM pg_attribute
      WHERE attrelid = $1::regclass AND attidentity <> '' AND NOT attisdropped`,
    [table],
  );
  for (const { col, seq } of identities) {
    const wanted = `${table}_${col}_seq`;
    if (seq !== `public.${wanted}`) await q.query(`ALTER SEQUENCE ${seq} RENAME TO ${wanted}`);
  }
}
