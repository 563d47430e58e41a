import { readFileSync } from 'node:fs';
import { DataSource, EntitySchema } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { dataSourceOptions } from '../database/data-source-options.js';
import {
  embeddedUrl,
  passwordPath,
  startEmbeddedPostgres,
} from '../database/embedded/embedded-postgres.js';
import { readRunningServer } from '../database/embedded/ownership.js';
import { effectiveDataDir } from '../database/embedded/server-user.js';
import { runMigrations } from '../database/migrate.js';
import { MIGRATIONS } from '../../migrations/index.js';

type Entity = Function | EntitySchema; // eslint-disable-line @typescript-eslint/no-unsafe-function-type

export interface CliDatabase {
  dataSource: DataSource;
  close(): Promise<void>;
}

/**
 * The database the credentials tool works on, chosen like the service does: DATABASE_URL when
 * set; otherwise the embedded PostgreSQL — the running service's server when there is one (a
 * data folder has one server, and one owner), else started here for the command and stopped
 * after it.
 */
export async function openCliDatabase(config: AppConfig, entities: Entity[]): Promise<CliDatabase> {
  let url = config.database.url;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!url) {
    const dir = effectiveDataDir(
      config.database.embedded.dir,
      config.database.embedded.dirIsDefault,
    );
    const running = readRunningServer(dir);
    if (running) {
      url = embeddedUrl(running.port, readFileSync(passwordPath(dir), 'utf8').trim());
    } else {
      const db = await startEmbeddedPostgres({ dataDir: dir });
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
