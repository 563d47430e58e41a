import pg from 'pg';

export interface FreshDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A database of the suite's own, empty (the service migrates it at start), for tests that
 * cannot share the run's database: a new database beside the run's (`prs_test_<label>_…`), on
 * the same server, dropped with its connections.
 */
export async function freshDatabase(label: string): Promise<FreshDatabase> {
  const base = process.env.TEST_DATABASE_URL as string;
  const name = `prs_test_${label}_${Date.now()}_${process.pid}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(sql).finally(() => c.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
