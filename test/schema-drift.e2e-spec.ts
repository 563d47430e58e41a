import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../migrations/index.js';
import { dataSourceOptions } from '../src/database/data-source-options.js';
import { runMigrations } from '../src/database/migrate.js';
import { type FreshDatabase, freshDatabase } from './support/fresh-database.js';

/**
 * The entities are the model and the migrations are the schema: this test holds them to each
 * other. A fresh database is migrated, and TypeORM is asked what it would change to make it
 * match every entity of src/ (`*.entity.ts`, found by name, so a new one is covered at once):
 * columns (type, length, nullability, default, generated), primary keys, foreign keys, indexes
 * (name, columns, uniqueness), uniques and CHECKs (by name). The answer must be empty.
 *
 * TypeORM compares CHECKs by name only and ignores an index's predicate, so both are also
 * compared as written: the database parses the entity's expression on a scratch copy of the
 * table and must print it exactly as it prints the migration's.
 */

/**
 * What TypeORM cannot declare, and so would drop: each object by name, with its reason. Nothing
 * else is ignored, and an entry that no longer matches a wanted change fails the test (the
 * object went, or an entity now declares it), so the list cannot go stale.
 */
const NOT_EXPRESSIBLE: ReadonlyArray<{ statement: string; why: string }> = [
  {
    statement: 'ALTER TABLE "auditoria_eventos" DROP COLUMN "xid"',
    why: 'xid8 (the writing transaction, stamped by the insert trigger): TypeORM has no xid8 type',
  },
  {
    statement: 'DROP INDEX "public"."auditoria_eventos_xid"',
    why: 'the index over that xid8 column, which sealing and verify walk',
  },
  {
    statement: 'ALTER TABLE "auditoria_sellos" DROP COLUMN "xid_desde"',
    why: "xid8: the seal's range of writing transactions",
  },
  {
    statement: 'ALTER TABLE "auditoria_sellos" DROP COLUMN "xid_hasta"',
    why: "xid8: the seal's range of writing transactions",
  },
  {
    statement: 'ALTER TABLE "auditoria_purgas" DROP COLUMN "xid"',
    why: 'xid8: the purging transaction, which the delete trigger matches',
  },
  {
    statement: 'DROP INDEX "public"."medicamentos_search_trgm"',
    why: 'a GIN index with the gin_trgm_ops operator class, which @Index cannot name',
  },
  {
    statement: 'DROP INDEX "public"."recetas_restringidas"',
    why: 'an expression index (substr(cuir, 9, 2), …): @Index takes columns only',
  },
  {
    statement: 'DROP INDEX "public"."recetas_cuir_transaccion"',
    why: "a BRIN index (a month's drop deletes its CUIRs by id range): @Index cannot name the method",
  },
];

/** Tables no entity maps, each with its reason. */
const TABLES_WITHOUT_ENTITY: Record<string, string> = {
  schema_migrations: "TypeORM's ledger of the migrations run",
  rate_limits: "rate-limiter-flexible's counters, in the layout that library owns",
  typeorm_metadata: 'made by this test (see beforeAll)',
};

function* entityFiles(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* entityFiles(path);
    else if (e.name.endsWith('.entity.ts')) yield path;
  }
}

describe('entities against the migrated schema', () => {
  let db: FreshDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await freshDatabase('schema');
    await runMigrations(db.url, MIGRATIONS);
    const entities: Array<new () => unknown> = [];
    for (const file of entityFiles(resolve('src'))) {
      const mod = (await import(file)) as Record<string, unknown>;
      for (const v of Object.values(mod))
        if (typeof v === 'function') entities.push(v as new () => unknown);
    }
    ds = new DataSource({ ...dataSourceOptions(db.url, 2), entities });
    await ds.initialize();
    // TypeORM reads a generated column's expression from its own bookkeeping table, which only
    // synchronize would have written: it is filled here from the database's catalogue.
    await ds.query(`CREATE TABLE typeorm_metadata (type varchar NOT NULL, database varchar,
      schema varchar, "table" varchar, name varchar, value text)`);
    await ds.query(`INSERT INTO typeorm_metadata (type, database, schema, "table", name, value)
      SELECT 'GENERATED_COLUMN', current_database(), table_schema, table_name, column_name,
             generation_expression
        FROM information_schema.columns WHERE is_generated = 'ALWAYS' AND table_schema = 'public'`);
  }, 60_000);

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('TypeORM would change nothing but what it cannot declare', async () => {
    const wanted = (await ds.driver.createSchemaBuilder().log()).upQueries.map((q) => q.query);
    const allowed = new Set(NOT_EXPRESSIBLE.map((a) => a.statement));
    expect(wanted.filter((q) => !allowed.has(q))).toEqual([]);
    expect(NOT_EXPRESSIBLE.filter((a) => !wanted.includes(a.statement))).toEqual([]);
  });

  it('every table has an entity', async () => {
    const rows: Array<{ name: string }> = await ds.query(
      // A partitioned table's entity maps it whole: its partitions are not tables of their own.
      `SELECT relname AS name FROM pg_class
        WHERE relkind IN ('r', 'p') AND NOT relispartition
          AND relnamespace = 'public'::regnamespace ORDER BY 1`,
    );
    const mapped = new Set(ds.entityMetadatas.map((m) => m.tableName));
    expect(
      rows.map((r) => r.name).filter((t) => !mapped.has(t) && !TABLES_WITHOUT_ENTITY[t]),
    ).toEqual([]);
  });

  it("declares each CHECK's and partial index's expression as the migration wrote it", async () => {
    const differing: string[] = [];
    // In a transaction rolled back at the end: nothing of the scratch tables stays.
    const tx = ds.createQueryRunner();
    await tx.connect();
    await tx.startTransaction();
    try {
      const printed = (sql: string, params: unknown[]) =>
        (tx.query(sql, params) as Promise<Array<{ def: string }>>).then(
          (r) => r[0]?.def ?? '(missing)',
        );
      let n = 0;
      for (const m of ds.entityMetadatas) {
        const scratch = `drift_${n++}`;
        await tx.query(`CREATE TEMP TABLE ${scratch} (LIKE ${m.tableName})`);
        for (const c of m.checks) {
          await tx.query(
            `ALTER TABLE ${scratch} ADD CONSTRAINT ${c.name} CHECK (${c.expression}) NOT VALID`,
          );
          const def = `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint
                        WHERE conrelid = $1::regclass AND conname = $2`;
          const [ours, theirs] = [
            await printed(def, [scratch, c.name]),
            await printed(def, [m.tableName, c.name]),
          ];
          // The scratch copy's is NOT VALID (it holds no row); so are some of the migrations'.
          const [a, b] = [ours, theirs].map((d) => d.replace(/ NOT VALID$/, ''));
          if (a !== b) differing.push(`${m.tableName}.${c.name}: ${a} ≠ ${b}`);
        }
        for (const i of m.indices.filter((i) => i.where)) {
          const cols = i.columns.map((c) => c.databaseName).join(', ');
          await tx.query(`CREATE INDEX ${i.name} ON ${scratch} (${cols}) WHERE ${i.where}`);
          const pred = `SELECT pg_get_expr(x.indpred, x.indrelid) AS def FROM pg_index x
                         JOIN pg_class c ON c.oid = x.indexrelid
                        WHERE x.indrelid = $1::regclass AND c.relname = $2`;
          const [ours, theirs] = [
            await printed(pred, [scratch, i.name]),
            await printed(pred, [m.tableName, i.name]),
          ];
          if (ours !== theirs) differing.push(`${m.tableName}.${i.name}: ${ours} ≠ ${theirs}`);
        }
      }
    } finally {
      await tx.rollbackTransaction();
      await tx.release();
    }
    expect(differing).toEqual([]);
  });
});
