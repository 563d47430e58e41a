import PgBoss from 'pg-boss';
import pg from 'pg';

/** pg-boss's functions' search path (their names are schema-qualified). */
const PATH_FIJO = 'pg_catalog, pg_temp';

/**
 * Creates or upgrades pg-boss's schema as the migration role, with every declared queue (a
 * partition table, which only the schema's owner may create) and the fetch index; idempotent.
 * The service's own pg-boss then only checks the version and works rows.
 */
export async function installQueueSchema(
  url: string,
  schema: string,
  queues: readonly string[],
): Promise<void> {
  const boss = new PgBoss({
    connectionString: url,
    schema,
    max: 1,
    supervise: false,
    schedule: false,
    application_name: 'prescription-registry-migrate',
  });
  let failure: Error | undefined;
  boss.on('error', (err) => (failure ??= err));
  await boss.start();
  try {
    // The policy is set by JobQueue at start.
    for (const name of queues) if (!(await boss.getQueue(name))) await boss.createQueue(name);
  } finally {
    await boss.stop({ graceful: false, close: true, wait: true });
  }
  if (failure) throw failure;

  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const index = await c.query<{ i: string | null }>(`SELECT to_regclass($1)::text AS i`, [
      `${schema}.job_fetch_order`,
    ]);
    if (index.rows[0].i === null) await c.query(fetchIndexSql(schema));
    // pg-boss's own functions: a fixed path, and callable by their owner only (those not yet).
    const { rows } = await c.query<{ fn: string }>(
      `SELECT p.oid::regprocedure::text AS fn FROM pg_proc p
        WHERE p.pronamespace = $1::regnamespace AND p.proconfig IS NULL`,
      [schema],
    );
    for (const { fn } of rows) {
      await c.query(`ALTER FUNCTION ${fn} SET search_path = ${PATH_FIJO}`);
      await c.query(`REVOKE ALL ON FUNCTION ${fn} FROM PUBLIC`);
    }
  } finally {
    await c.end();
  }
}

/**
 * pg-boss 10 fetches `ORDER BY priority DESC, created_on, id`, which its own index does not
 * serve: every fetch sorted the whole backlog (BENCHMARKS.md). On the parent: every queue gets it.
 */
const fetchIndexSql = (schema: string) =>
  `CREATE INDEX IF NOT EXISTS job_fetch_order ON ${schema}.job (name, priority DESC, created_on, id)
     WHERE state < 'active'`;
