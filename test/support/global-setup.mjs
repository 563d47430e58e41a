// Jest loads global setup outside its module registry, so this imports the compiled build
// (`npm test` builds first, see the pretest script).
import pg from 'pg';
import { startEmbeddedPostgres } from '../../dist/src/database/embedded-postgres.js';
import { runMigrations } from '../../dist/src/database/migrate.js';
import { MIGRATIONS } from '../../dist/migrations/index.js';

/**
 * One database for the whole e2e run, migrated once. With DATABASE_URL (CI, the local
 * PostgreSQL) a fresh database is created beside the given one and dropped afterwards; without
 * it an in-memory embedded PostgreSQL is served from this process for the workers to share.
 */
export default async function globalSetup() {
  const base = process.env.DATABASE_URL;
  let url;
  if (base) {
    const name = `prs_test_${Date.now()}_${process.pid}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(base);
    u.pathname = `/${name}`;
    url = u.toString();
    process.env.TEST_DATABASE_POOL_SIZE = '5';
    globalThis.__dropTestDatabase = async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  } else {
    const db = await startEmbeddedPostgres({ dataDir: 'memory://', maxConnections: 64 });
    url = db.url;
    process.env.TEST_DATABASE_POOL_SIZE = '1';
    globalThis.__stopEmbedded = () => db.stop();
  }
  process.env.TEST_DATABASE_URL = url;
  await runMigrations(url, MIGRATIONS);
}
