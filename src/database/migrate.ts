import { DataSource, MigrationInterface } from 'typeorm';
import { dataSourceOptions } from './data-source-options.js';

/** An arbitrary constant: the advisory-lock key that serialises migration runs across instances. */
const MIGRATION_LOCK = 724_231_117;

/**
 * Brings the schema up to date. Several instances may start at once, so the run holds a
 * session advisory lock; the schema is only ever changed by migrations (no synchronize).
 */
export async function runMigrations(
  url: string,
  migrations: readonly (new () => MigrationInterface)[],
): Promise<string[]> {
  const ds = new DataSource(dataSourceOptions(url, 2, undefined, migrations));
  await ds.initialize();
  const lock = ds.createQueryRunner();
  try {
    await lock.connect();
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const applied = await ds.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await lock.release();
    await ds.destroy();
  }
}
