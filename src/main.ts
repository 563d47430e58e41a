import cluster from 'node:cluster';
import type { Logger } from 'pino';
import { ApiClientsService } from './auth/api-clients.service.js';
import { authSettings } from './auth/auth.settings.js';
import { startApp, startRuntime } from './bootstrap.js';
import { runPrimary, workerPlace, type WorkerReady } from './cluster.js';
import { createRootLogger } from './common/logging/logger.js';
import { AppConfig, ConfigError, withSandbox } from './config/app-config.js';
import { EmbeddedDatabaseInUse } from './database/embedded/ownership.js';
import { EmbeddedPostgresUnavailable } from './database/embedded/postgres-binaries.js';
import { loadAppConfig } from './slices.js';

/** A single process (WEB_CONCURRENCY=1), a cluster's primary (cluster.ts), or one of its workers. */
async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadAppConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createRootLogger(config.logLevel, undefined, config.logFormat);
  if (cluster.isWorker) return runWorker(config, logger);
  if (config.http.workers > 1)
    return runPrimary(config, logger, (ready, deps) =>
      printBanner(ready[0].url, ready[0].demo, { ...deps, workers: ready.length }),
    );

  const runtime = await startRuntime(config, logger);
  printBanner(runtime.url, await demoClient(runtime.app, config), runtime);
  onSignals(logger, config, () => runtime.stop());
}

/** A cluster's worker: the app on the shared port, migrated by the primary. */
async function runWorker(initial: AppConfig, logger: Logger): Promise<void> {
  const { index, sandboxUrl } = workerPlace(process.env);
  const config = sandboxUrl ? withSandbox(initial, sandboxUrl) : initial;
  const served = await startApp(config, logger.child({ worker: index }));
  const ready: WorkerReady = {
    type: 'prs:ready',
    url: served.url,
    ...(index === 1 ? { demo: await demoClient(served.app, config) } : {}),
  };
  process.send?.(ready);
  const stop = onSignals(logger, config, () => served.stop());
  // The primary is gone: nobody supervises this worker, and the port is no longer shared.
  process.on('disconnect', stop);
}

/** The demo client's new secret (DEMO_CLIENT), null when it was revoked, undefined when off. */
function demoClient(
  app: Awaited<ReturnType<typeof startApp>>['app'],
  config: AppConfig,
): Promise<{ key: string; secret: string } | null> | undefined {
  // A fresh secret at every start: only hashes are stored.
  return config.settings(authSettings).demoClient
    ? app.get(ApiClientsService).ensureDemoClient()
    : undefined;
}

function printBanner(
  url: string,
  demo: { key: string; secret: string } | null | undefined,
  runtime: { sandboxUrl?: string; embeddedDir?: string; workers?: number },
): void {
  const banner = [
    '',
    `Prescription Registry Service listening on ${url}${runtime.workers ? ` (${runtime.workers} workers)` : ''}`,
    `  API docs:      ${url}/docs  (OpenAPI: ${url}/openapi.json)`,
    `  Health:        ${url}/health/ready   Metrics: ${url}/metrics`,
    `  Database:      ${runtime.embeddedDir ? `embedded PostgreSQL in ${runtime.embeddedDir}` : 'DATABASE_URL'}`,
    ...(runtime.sandboxUrl
      ? [
          `  Sandbox:       ${runtime.sandboxUrl}  (emulated SISA/REFEPS, RENAPER, catalogue, ministry)`,
        ]
      : []),
  ];
  if (demo === null) {
    banner.push(
      '',
      '  The demo client was revoked; issue credentials with: npm run cli -- clients create --name NAME --scopes all',
    );
  } else if (demo) {
    banner.push(
      '',
      '  Demo client (a new secret at every start):',
      `    X-API-Key:    ${demo.key}`,
      `    X-API-Secret: ${demo.secret}`,
      '',
      '  Try it:',
      `    curl -s ${url}/v1/medicamentos/buscar?q=ibuprofeno -H 'X-API-Key: ${demo.key}' -H 'X-API-Secret: ${demo.secret}'`,
    );
  }
  banner.push('');
  process.stdout.write(`${banner.join('\n')}\n`);
}

/** SIGTERM and SIGINT drain in-flight requests, then exit (forced after SHUTDOWN_GRACE_MS). */
function onSignals(logger: Logger, config: AppConfig, stop: () => Promise<void>): () => void {
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down: draining in-flight requests');
    const force = setTimeout(() => process.exit(1), config.http.shutdownGraceMs).unref();
    stop()
      .then(() => {
        clearTimeout(force);
        // The log stream is asynchronous: exit once its last lines are written.
        logger.flush(() => process.exit(0));
      })
      .catch(() => process.exit(1));
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  return shutdown;
}

/** A start refused for a reason its message names with what to do: printed without a stack. */
const refusal = (err: unknown): err is Error =>
  err instanceof EmbeddedDatabaseInUse ||
  err instanceof EmbeddedPostgresUnavailable ||
  (err as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';

main().catch((err: unknown) => {
  const text = refusal(err)
    ? err.message
    : err instanceof Error
      ? (err.stack ?? err.message)
      : String(err);
  process.stderr.write(`Failed to start: ${text}\n`);
  process.exit(1);
});
