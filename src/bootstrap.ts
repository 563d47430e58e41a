import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { AppModule } from './app.module.js';
import { answerClientError } from './common/http/client-error.js';
import { NestPinoLogger } from './common/logging/logger.js';
import {
  AppConfig,
  needsSandbox,
  withEmbeddedDatabase,
  withoutMigrationUrl,
  withSandbox,
} from './config/app-config.js';
import { configureApp } from './configure-app.js';
import { startEmbeddedPostgres } from './database/embedded/embedded-postgres.js';
import { effectiveDataDir } from './database/embedded/server-user.js';
import { migrateDatabase } from './migrate-database.js';

export interface Runtime {
  app: NestExpressApplication;
  /** Base URL the HTTP server listens on. */
  url: string;
  config: AppConfig;
  sandboxUrl?: string;
  /** The embedded server's data folder, when DATABASE_URL was unset. */
  embeddedDir?: string;
  stop(): Promise<void>;
}

/**
 * The emulated external systems, loaded only when a base URL is left unset outside
 * production (the configuration refuses that in production): production code never imports
 * the sandbox, and the production image could ship without it.
 */
async function startSandbox(port: number): Promise<{ url: string; close(): Promise<void> }> {
  const sandbox = await import('../sandbox/server.js');
  return sandbox.startSandbox({ port, quiet: true });
}

/** What a serving process needs that exists once per service: the database, the sandbox. */
export interface Dependencies {
  /** The configuration a serving process gets: its database and sandbox resolved, migrated. */
  config: AppConfig;
  sandboxUrl?: string;
  embeddedDir?: string;
  stop(): Promise<void>;
}

/**
 * Starts what exists once per service, in dependency order: the embedded PostgreSQL when no
 * DATABASE_URL is set, the sandbox for any registry URL left unset, then the migrations (as
 * the migration role). What it answers keeps no migration credentials (SPEC 11.1). Run by the
 * single process, or by the primary of a cluster (cluster.ts) before it forks its workers.
 */
export async function startDependencies(initial: AppConfig, logger: Logger): Promise<Dependencies> {
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch((err) => logger.error({ err }, 'stop failed'));
  };
  try {
    let config = initial;
    let embeddedDir: string | undefined;
    if (!config.database.url) {
      const { dir, dirIsDefault } = config.database.embedded;
      embeddedDir = effectiveDataDir(dir, dirIsDefault);
      if (embeddedDir !== dir)
        logger.warn(
          `Running as root, the embedded PostgreSQL (which runs as the "postgres" user) cannot reach ${dir}: its cluster is kept in ${embeddedDir} instead.`,
        );
      const db = await startEmbeddedPostgres({
        dataDir: embeddedDir,
        port: config.database.embedded.port,
        onProgress: (line) => logger.info(line),
      });
      stops.push(() => db.stop());
      config = withEmbeddedDatabase(config, { url: db.runtimeUrl, migrationUrl: db.url });
    }
    let sandboxUrl: string | undefined;
    if (needsSandbox(config)) {
      const sandbox = await startSandbox(config.sandbox.port);
      stops.push(() => sandbox.close());
      sandboxUrl = sandbox.url;
      config = withSandbox(config, sandbox.url);
    }
    // Now that the database and the sandbox are known, so are the settings' consequences.
    for (const warning of config.warnings) logger.warn(warning);
    const { applied, runtimeRole, warnings } = await migrateDatabase(config);
    for (const warning of warnings) logger.warn(warning);
    if (applied.length > 0) logger.info({ migrations: applied }, 'migrations applied');
    if (runtimeRole)
      logger.info(
        { role: runtimeRole },
        'migrated as DATABASE_MIGRATION_URL; runtime role granted',
      );
    return { config: withoutMigrationUrl(config), sandboxUrl, embeddedDir, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * Starts everything the service needs (startDependencies), then the Nest app. Stops in reverse
 * order. Used by main.ts's single process and by the e2e tests alike.
 */
export async function startRuntime(initial: AppConfig, logger: Logger): Promise<Runtime> {
  const deps = await startDependencies(initial, logger);
  try {
    const served = await startApp(deps.config, logger);
    return {
      ...served,
      config: deps.config,
      sandboxUrl: deps.sandboxUrl,
      embeddedDir: deps.embeddedDir,
      stop: async () => {
        await served.stop();
        await deps.stop();
      },
    };
  } catch (err) {
    await deps.stop();
    throw err;
  }
}

/**
 * The Nest app on its HTTP listener, for a configuration whose database is migrated and whose
 * external systems are known: a single process's, or a cluster worker's (cluster.ts).
 */
export async function startApp(
  config: AppConfig,
  logger: Logger,
): Promise<{ app: NestExpressApplication; url: string; stop(): Promise<void> }> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, logger), {
    bodyParser: false,
    // Throw instead of exiting: the caller (main.ts or a test) decides what a failed start means.
    abortOnError: false,
    logger: new NestPinoLogger(logger.child({ component: 'nest' })),
  });
  try {
    await configureApp(app, logger);
    // Node looks for requests over their time only every connectionsCheckingInterval (30 s by
    // default), read when it starts listening: without this a stalled request got its 408 up to
    // 30 s late. Headers get the same limit as the whole request (Node's default is 60 s).
    const connectionsCheckingInterval = Math.min(1000, config.http.requestTimeoutMs / 4);
    Object.assign(app.getHttpServer(), { connectionsCheckingInterval });
    const server = await app.listen(config.http.port, config.http.host);
    server.requestTimeout = config.http.requestTimeoutMs;
    server.headersTimeout = config.http.requestTimeoutMs;
    // Longer than a load balancer's idle timeout (60 s on the common ones): with Node's 5 s
    // default the service closes idle keep-alive connections the balancer is about to reuse,
    // and its next request on one fails (a 502 at the client).
    server.keepAliveTimeout = config.http.keepAliveTimeoutMs;
    server.on('clientError', answerClientError);
    const { port } = server.address() as AddressInfo;
    return { app, url: `http://127.0.0.1:${port}`, stop: () => app.close() };
  } catch (err) {
    await app.close().catch(() => undefined);
    throw err;
  }
}
