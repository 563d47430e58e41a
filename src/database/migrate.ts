import { DataSource, MigrationInterface } from 'typeorm';
import { dataSourceOptions } from './data-source-options.js';
import { type Aseguradas, asegurarEnTransaccion } from './particiones/particiones.js';
import type { PartitionedTable } from './particiones/particionadas.js';
import {
  grantRuntimeRole,
  roleOf,
  type RuntimeAccess,
  takeBackFromRuntime,
} from './runtime-grants.js';

/** The advisory-lock key serialising migration runs across instances. */
const MIGRATION_LOCK = 724_231_117;

export interface MigrationRun {
  applied: string[];
  /** The role granted RuntimeAccess; undefined when the service runs as the migration role. */
  runtimeRole?: string;
  /** What an operator should fix about the runtime role (logged at start). */
  warnings: string[];
  particiones?: Aseguradas;
}

/**
 * Brings the schema up to date as the migration role (`url`), under an advisory lock (several
 * instances may start at once): what the runtime role owns taken back, the migrations, the job
 * queue's schema, the months ahead, then the runtime role's privileges.
 */
export async function runMigrations(
  url: string,
  migrations: readonly (new () => MigrationInterface)[],
  options: {
    runtime?: RuntimeAccess;
    partitioned?: readonly PartitionedTable[];
    installQueue?: (url: string) => Promise<void>;
  } = {},
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
    const particiones = partitioned.length
      ? await asegurarEnTransaccion(lock, partitioned)
      : undefined;
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
