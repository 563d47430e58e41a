// Jest loads global setup outside its module registry, so this imports the compiled build
// (`npm test` builds first when the build is stale, see scripts/build-if-stale.mjs).
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * One database for the whole run, migrated once, on a PostgreSQL server: DATABASE_URL's (CI,
 * the local server) or, when it is unset, a throwaway embedded cluster started here and removed
 * in the teardown. Either way a fresh database is created for the run and dropped afterwards,
 * and tests that need one of their own create it beside it (test/support/fresh-database.ts).
 */
export default async function globalSetup() {
  // Imported here, not at the top: src/slices.ts awaits its slices (top-level await), and Jest
  // loads this file with require(), which cannot load a graph holding one.
  const { startThrowawayPostgres } =
    await import('../../dist/src/database/embedded/embedded-postgres.js');
  const { runMigrations } = await import('../../dist/src/database/migrate.js');
  const { MIGRATIONS } = await import('../../dist/migrations/index.js');
  let base = process.env.DATABASE_URL;
  if (!base) {
    const cluster = await startThrowawayPostgres();
    globalThis.__stopCluster = () => cluster.stop();
    base = cluster.url;
  }
  const name = `prs_test_${Date.now()}_${process.pid}`;
  await admin(base, `CREATE DATABASE ${name}`);
  const u = new URL(base);
  u.pathname = `/${name}`;
  globalThis.__dropTestDatabase = () => admin(base, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  process.env.TEST_DATABASE_URL = u.toString();
  process.env.TEST_DATABASE_POOL_SIZE = '5';
  // The service's own login for the run, owning nothing, as production's (SPEC 11.1): the
  // tests start it as this role with DATABASE_URL's as the migration role (database-roles.ts).
  const role = `prs_rt_${process.pid}_${Date.now()}`;
  const password = randomBytes(16).toString('hex');
  await admin(base, `CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
  process.env.TEST_RUNTIME_ROLE = role;
  process.env.TEST_RUNTIME_PASSWORD = password;
  const drop = globalThis.__dropTestDatabase;
  globalThis.__dropTestDatabase = async () => {
    await drop();
    // Fails while a database a test left behind still grants it something: left, harmless.
    await admin(base, `DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
  };
  await runMigrations(u.toString(), MIGRATIONS);
}

async function admin(url, sql) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}
