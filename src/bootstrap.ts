import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { AppModule } from './app.module.js';
import { answerClientError } from './common/http/client-error.js';
import { NestPinoLogger } from './common/logging/logger.js';
import { AppConfig, needsSandbox, withDatabase, withSandbox } from './config/app-config.js';
import { configureApp } from './configure-app.js';
import { startEmbeddedPostgres } from './database/embedded/embedded-postgres.js';
import { effectiveDataDir } from './database/embedded/server-user.js';
import { migrateDatabase } from './migrate-database.js';

/** What exists once per service: the database and the sandbox, resolved and migrated. */
export interface Dependencies {
  /** The configuration a serving process gets. */
  config: AppConfig;
  sandboxUrl?: string;
  /** The embedded server's data folder, when DATABASE_URL was unset. */
  embeddedDir?: string;
  stop(): Promise<void>;
}

export interface Runtime extends Dependencies {
  app: NestExpressApplication;
  url: string;
}

/**
 * Starts, in order, the embedded PostgreSQL when no DATABASE_URL is set, the sandbox for any
 * registry URL left unset (loaded only then: production code never imports it), then the
 * migrations. What it answers keeps no migration credentials (SPEC 11.1). Run by the single
 * process, or by a cluster's primary before it forks its workers.
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
      config = withDatabase(config, { url: db.runtimeUrl, migrationUrl: db.url });
    }
    let sandboxUrl: string | undefined;
    if (needsSandbox(config)) {
      const { startSandbox } = await import('../sandbox/server.js');
      const sandbox = await startSandbox({ port: config.sandbox.port, quiet: true });
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
    return {
      config: withDatabase(config, { migrationUrl: undefined }),
      sandboxUrl,
      embeddedDir,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** startDependencies, then the Nest app; stops in reverse order. main.ts's and the e2e tests'. */
export async function startRuntime(initial: AppConfig, logger: Logger): Promise<Runtime> {
  const deps = await startDependencies(initial, logger);
  try {
    const served = await startApp(deps.config, logger);
    return {
      ...deps,
      ...served,
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

/** The Nest app on its HTTP listener, its database migrated: a single process's or a worker's. */
export async function startApp(
  config: AppConfig,
  logger: Logger,
): Promise<{ app: NestExpressApplication; url: string; stop(): Promise<void> }> {
  const app = await NestFactory.create<NestExpressApplication>(
    await AppModule.forRoot(config, logger),
    {
      bodyParser: false,
      // Throw instead of exiting: the caller (main.ts or a test) decides what a failed start means.
      abortOnError: false,
      logger: new NestPinoLogger(logger.child({ component: 'nest' })),
    },
  );
  try {
    await configureApp(app, logger);
    // Node checks requests' time every connectionsCheckingInterval (30 s by default, read on
    // listen): a stalled request got its 408 up to 30 s late.
    const connectionsCheckingInterval = Math.min(1000, config.http.requestTimeoutMs / 4);
    Object.assign(app.getHttpServer(), { connectionsCheckingInterval });
    const server = await app.listen(config.http.port, config.http.host);
    server.requestTimeout = config.http.requestTimeoutMs;
    server.headersTimeout = config.http.requestTimeoutMs;
    // Above a load balancer's idle timeout: else it reuses a connection being closed (a 502).
    server.keepAliveTimeout = config.http.keepAliveTimeoutMs;
    server.on('clientError', answerClientError);
    const { port } = server.address() as AddressInfo;
    return { app, url: `http://127.0.0.1:${port}`, stop: () => app.close() };
  } catch (err) {
    await app.close().catch(() => undefined);
    throw err;
  }
}
