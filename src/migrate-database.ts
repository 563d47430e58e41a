import { MIGRATIONS } from '../migrations/index.js';
import { migrationUrl, type AppConfig } from './config/app-config.js';
import { runMigrations, type MigrationRun } from './database/migrate.js';
import type { RuntimeAccess } from './database/runtime-grants.js';
import { installQueueSchema } from './queue/queue-schema.js';
import { MODULE_SLICES } from './slices.js';

/** Tables of no module the service may only read: the months' openings (written by the migrations). */
const DATABASE_READ_ONLY = ['particiones_aperturas'];

/** The migrations' SECURITY DEFINER doors the service calls (migration FuncionesFijas). */
const DATABASE_DOORS = ['particiones_abrir_mes()'];

/**
 * The migrations as the migration role, the job queue's schema and queues, the months ahead, then
 * DATABASE_URL's role's grants when it is another. Run at start and by the CLI, the same way.
 */
export function migrateDatabase(config: AppConfig): Promise<MigrationRun> {
  const url = migrationUrl(config) as string;
  const schema = config.queue.schema;
  const runtime: RuntimeAccess | undefined =
    config.database.migrationUrl === undefined
      ? undefined
      : {
          url: config.database.url as string,
          appendOnly: MODULE_SLICES.flatMap((s) => s.appendOnlyTables ?? []),
          readOnly: [
            ...DATABASE_READ_ONLY,
            ...MODULE_SLICES.flatMap((s) => s.readOnlyTables ?? []),
          ],
          functions: DATABASE_DOORS,
          queueSchema: schema,
        };
  return runMigrations(url, MIGRATIONS, {
    runtime,
    partitioned: MODULE_SLICES.flatMap((s) => s.partitionedTables ?? []),
    installQueue: (u) =>
      installQueueSchema(
        u,
        schema,
        MODULE_SLICES.flatMap((s) => s.queues ?? []),
      ),
  });
}
