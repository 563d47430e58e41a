import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { dataSourceOptions } from './data-source-options.js';
import { type Aseguradas, asegurarEnTransaccion } from './particiones/particiones.js';
import type { PartitionedTable } from './particiones/particionadas.js';
import { grantRuntimeRole, roleOf, type RuntimeAccess } from './runtime-grants.js';

/** An arbitrary constant: the advisory-lock key that serialises migration runs across instances. */
export const MIGRATION_LOCK = 724_231_117;

export interface MigrationRun {
  /** The migrations applied by this run, in order. */
  applied: string[];
  /** The role granted RuntimeAccess; undefined when the service runs as the migration role. */
  runtimeRole?: string;
  /** What an operator should fix about the runtime role (logged as warnings at start). */
  warnings: string[];
  /** The months' partitions created and sequences opened after the migrations (particiones/). */
  particiones?: Aseguradas;
}

/**
 * Brings the schema up to date. Several instances may start at once, so the run holds a
 * session advisory lock; the schema is only ever changed by migrations (no synchronize).
 * `url` is the migration role's (DATABASE_MIGRATION_URL, else DATABASE_URL); with `runtime`
 * given and naming another role, that role's privileges are then set (runtime-grants.ts),
 * under the same lock. Then, still under it, the partitioned tables get their months ahead
 * (particiones/particiones.ts): a fresh database is ready for this month's first row.
 */
export async function runMigrations(
  url: string,
  migrations: readonly (new () => MigrationInterface)[],
  runtime?: RuntimeAccess,
  partitioned: readonly PartitionedTable[] = [],
): Promise<MigrationRun> {
  const ds = new DataSource(dataSourceOptions(url, 2, undefined, migrations));
  await ds.initialize();
  const lock = ds.createQueryRunner();
  try {
    await lock.connect();
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const applied = (await ds.runMigrations({ transaction: 'each' })).map((m) => m.name);
    const particiones = await asegurar(lock, partitioned);
    if (!runtime) return { applied, warnings: [], particiones };
    const role = await roleOf(runtime.url);
    const [{ self }] = (await lock.query('SELECT current_user AS self')) as Array<{ self: string }>;
    if (role === self)
      return {
        applied,
        warnings: [`DATABASE_MIGRATION_URL logs in as DATABASE_URL's role ${role}`],
        particiones,
      };
    const warnings = await grantRuntimeRole(lock, url, role, runtime);
    return { applied, runtimeRole: role, warnings, particiones };
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await lock.release();
    await ds.destroy();
  }
}

/** The months ahead (none declared: nothing to do). */
function asegurar(
  q: QueryRunner,
  tables: readonly PartitionedTable[],
): Promise<Aseguradas | undefined> {
  return tables.length === 0 ? Promise.resolve(undefined) : asegurarEnTransaccion(q, tables);
}
