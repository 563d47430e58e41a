import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { dataSourceOptions } from './data-source-options.js';
import { type Aseguradas, asegurarEnTransaccion } from './particiones/particiones.js';
import type { PartitionedTable } from './particiones/particionadas.js';
import {
  grantRuntimeRole,
  roleOf,
  type RuntimeAccess,
  takeBackFromRuntime,
} from './runtime-grants.js';

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

/** What a migration run does besides the migrations. */
export interface MigrationOptions {
  /** DATABASE_URL's access, when it logs in as another role than the migrations (runtime-grants.ts). */
  runtime?: RuntimeAccess;
  /** The tables partitioned by month, whose months ahead it creates (particiones/). */
  partitioned?: readonly PartitionedTable[];
  /** Creates or upgrades the job queue's schema, given the migration role's URL (queue/). */
  installQueue?: (url: string) => Promise<void>;
}

/**
 * Brings the schema up to date. Several instances may start at once, so the run holds a
 * session advisory lock; the schema is only ever changed by migrations (no synchronize).
 * `url` is the migration role's (DATABASE_MIGRATION_URL, else DATABASE_URL). Under the lock, in
 * order: what the runtime role owns is taken back before anything reads it (runtime-grants.ts),
 * the migrations, the job queue's schema, the months ahead (a fresh database is ready for this
 * month's first row and the next twelve), then the runtime role's privileges.
 */
export async function runMigrations(
  url: string,
  migrations: readonly (new () => MigrationInterface)[],
  options: MigrationOptions = {},
): Promise<MigrationRun> {
  const { runtime, partitioned = [] } = options;
  const ds = new DataSource(dataSourceOptions(url, 2, undefined, migrations));
  await ds.initialize();
  const lock = ds.createQueryRunner();
  try {
    await lock.connect();
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const [{ self }] = (await lock.query('SELECT current_user AS self')) as Array<{ self: string }>;
    const role = runtime && (await roleOf(runtime.url));
    if (role && role !== self) await takeBackFromRuntime(lock, role);
    const applied = (await ds.runMigrations({ transaction: 'each' })).map((m) => m.name);
    await options.installQueue?.(url);
    const particiones = await asegurar(lock, partitioned);
    if (!runtime || !role) return { applied, warnings: [], particiones };
    if (role === self)
      return {
        applied,
        warnings: [`DATABASE_MIGRATION_URL logs in as DATABASE_URL's role ${role}`],
        particiones,
      };
    const warnings = await grantRuntimeRole(lock, role, runtime);
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
