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

/**
 * Starts everything the service needs, in dependency order: the embedded PostgreSQL when no
 * DATABASE_URL is set, the sandbox for any registry URL left unset, the migrations, then the
 * Nest app. Stops in reverse order. Used by main.ts and by the e2e tests alike.
 */
export async function startRuntime(initial: AppConfig, logger: Logger): Promise<Runtime> {
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of stops.reverse())
      await stop().catch((err) => logger.error({ err }, 'stop failed'));
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
    // The serving process keeps no migration credentials (SPEC 11.1).
    config = withoutMigrationUrl(config);
    for (const warning of warnings) logger.warn(warning);
    if (applied.length > 0) logger.info({ migrations: applied }, 'migrations applied');
    if (runtimeRole)
      logger.info(
        { role: runtimeRole },
        'migrated as DATABASE_MIGRATION_URL; runtime role granted',
      );

    const app = await NestFactory.create<NestExpressApplication>(
      AppModule.forRoot(config, logger),
      {
        bodyParser: false,
        // Throw instead of exiting: the caller (main.ts or a test) decides what a failed start means.
        abortOnError: false,
        logger: new NestPinoLogger(logger.child({ component: 'nest' })),
      },
    );
    stops.push(() => app.close());
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
    return {
      app,
      url: `http://127.0.0.1:${port}`,
      config,
      sandboxUrl,
      embeddedDir,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
