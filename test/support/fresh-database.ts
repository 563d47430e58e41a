import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres.js';

export interface FreshDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A database of the suite's own, empty (the service migrates it at start), for tests that
 * cannot share the run's database. On PostgreSQL a new database beside the run's
 * (`prs_test_<label>_…`), dropped with its connections; on the embedded database (no
 * DATABASE_URL) an in-memory PGlite of its own.
 */
export async function freshDatabase(label: string): Promise<FreshDatabase> {
  if (!process.env.DATABASE_URL) {
    const db = await startEmbeddedPostgres({ dataDir: 'memory://' });
    return { url: db.url, drop: () => db.stop() };
  }
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
