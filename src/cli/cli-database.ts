import { DataSource, EntitySchema } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { dataSourceOptions } from '../database/data-source-options.js';
import { readRunningServer, startEmbeddedPostgres } from '../database/embedded-postgres.js';
import { runMigrations } from '../database/migrate.js';
import { MIGRATIONS } from '../../migrations/index.js';

type Entity = Function | EntitySchema; // eslint-disable-line @typescript-eslint/no-unsafe-function-type

export interface CliDatabase {
  dataSource: DataSource;
  close(): Promise<void>;
}

/**
 * The database the credentials tool works on, chosen like the service does: DATABASE_URL when
 * set; otherwise the embedded database — reached over its wire port while the service is
 * running (PGlite cannot be opened twice), or opened here when it is not.
 */
export async function openCliDatabase(config: AppConfig, entities: Entity[]): Promise<CliDatabase> {
  let url = config.database.url;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!url) {
    const running = readRunningServer(config.database.embedded.dir);
    if (running) {
      url = `postgres://postgres:postgres@127.0.0.1:${running.port}/postgres?sslmode=disable`;
    } else {
      const db = await startEmbeddedPostgres({ dataDir: config.database.embedded.dir });
      url = db.url;
      stopEmbedded = () => db.stop();
    }
  }
  try {
    await runMigrations(url, MIGRATIONS);
    const dataSource = new DataSource({ ...dataSourceOptions(url, 1), entities });
    await dataSource.initialize();
    return {
      dataSource,
      async close() {
        await dataSource.destroy();
        await stopEmbedded?.();
      },
    };
  } catch (err) {
    await stopEmbedded?.();
    throw err;
  }
}
