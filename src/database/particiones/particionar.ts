import { nombrarIndices, type Sql } from './particiones.js';

interface Particionado {
  table: string;
  /** `RANGE (id_transaccion)` */
  by: string;
  /** Must hold the partition key. */
  primaryKey: readonly string[];
  /** The first partition's (`<table>_p0`, from MINVALUE) upper bound. */
  firstBound: string;
  /** A month's partition created before the copy, for a time table with rows of this month. */
  month?: { suffix: string; from: string; to: string };
  /** Indexes not to carry over (a UNIQUE the partition key is not in). */
  dropIndexes?: readonly string[];
  /** New CREATE INDEX definitions, by index name. */
  replaceIndexes?: Readonly<Record<string, string>>;
}

/**
 * Rewrites a plain table as a partitioned one of the declared shape holding every row (copied
 * with their ids into `<table>_p0`), each index re-created under its own name. Foreign keys,
 * triggers and the drop of the plain table (left as `<table>_previa`) are the migration's.
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

/** Drops the `_previa` table (its foreign keys dropped first) and gives the identities their names back. */
export async function retirarPrevia(q: Sql, table: string): Promise<void> {
  // A serial sequence owned by the old table would go with it.
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
