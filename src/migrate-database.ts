import { MIGRATIONS } from '../migrations/index.js';
import { migrationUrl, type AppConfig } from './config/app-config.js';
import { runMigrations, type MigrationRun } from './database/migrate.js';
import type { RuntimeAccess } from './database/runtime-grants.js';
import { installQueueSchema } from './queue/queue-schema.js';
import { MODULE_SLICES } from './slices.js';

/**
 * The migrations, as the migration role (DATABASE_MIGRATION_URL, else DATABASE_URL's), then,
 * when that is another role than DATABASE_URL's, the runtime role's grants: every module's
 * tables read-write except those its slice declares append-only or read-only, and the job
 * queue's schema its own. Run at start (bootstrap.ts) and by the CLI, the same way.
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
          readOnly: MODULE_SLICES.flatMap((s) => s.readOnlyTables ?? []),
          ownedSchemas: [{ name: schema, install: (u) => installQueueSchema(u, schema) }],
        };
  const partitioned = MODULE_SLICES.flatMap((s) => s.partitionedTables ?? []);
  return runMigrations(url, MIGRATIONS, runtime, partitioned);
}
