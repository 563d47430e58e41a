import { readFileSync } from 'node:fs';
import { DataSource, EntitySchema } from 'typeorm';
import { migrationUrl, withDatabase, type AppConfig } from '../config/app-config.js';
import { dataSourceOptions } from '../database/data-source-options.js';
import { embeddedRuntimeUrl, embeddedUrl } from '../database/embedded/cluster-server.js';
import { passwordPath, startEmbeddedPostgres } from '../database/embedded/embedded-postgres.js';
import { readRunningServer } from '../database/embedded/ownership.js';
import { effectiveDataDir } from '../database/embedded/server-user.js';
import type { MigrationRun } from '../database/migrate.js';
import { migrateDatabase } from '../migrate-database.js';

type Entity = Function | EntitySchema; // eslint-disable-line @typescript-eslint/no-unsafe-function-type

/**
 * Runs `fn` on the database chosen like the service does: DATABASE_URL when set, else the
 * embedded PostgreSQL (the running service's server, or one started for the command). The
 * migrations run first; `fn` then works as the service's role, or as the migration role for an
 * operator's action the service may not do (`as: 'migration'`).
 */
export async function withCliDatabase<T>(
  config: AppConfig,
  entities: Entity[],
  fn: (dataSource: DataSource, migrated: MigrationRun) => Promise<T>,
  options: { as?: 'runtime' | 'migration' } = {},
): Promise<T> {
  let resolved = config;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!config.database.url) {
    const dir = effectiveDataDir(
      config.database.embedded.dir,
      config.database.embedded.dirIsDefault,
    );
    const running = readRunningServer(dir);
    if (running) {
      const password = readFileSync(passwordPath(dir), 'utf8').trim();
      resolved = withDatabase(config, {
        url: embeddedRuntimeUrl(running.port, password),
        migrationUrl: embeddedUrl(running.port, password),
      });
    } else {
      const db = await startEmbeddedPostgres({ dataDir: dir });
      resolved = withDatabase(config, { url: db.runtimeUrl, migrationUrl: db.url });
      stopEmbedded = () => db.stop();
    }
  }
  try {
    const migrated = await migrateDatabase(resolved);
    const workUrl = (
      options.as === 'migration' ? migrationUrl(resolved) : resolved.database.url
    ) as string;
    const dataSource = new DataSource({ ...dataSourceOptions(workUrl, 1), entities });
    await dataSource.initialize();
    try {
      return await fn(dataSource, migrated);
    } finally {
      await dataSource.destroy();
    }
  } finally {
    await stopEmbedded?.();
  }
}
