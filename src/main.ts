import { ApiClientsService } from './auth/api-clients.service.js';
import { startRuntime } from './bootstrap.js';
import { authSettings } from './auth/auth.settings.js';
import { ConfigError } from './config/app-config.js';
import { EmbeddedDatabaseInUse } from './database/embedded/ownership.js';
import { EmbeddedPostgresUnavailable } from './database/embedded/postgres-binaries.js';
import { loadAppConfig } from './slices.js';
import { createRootLogger } from './common/logging/logger.js';

async function main(): Promise<void> {
  let config;
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
  const runtime = await startRuntime(config, logger);
  const banner = [
    '',
    `Prescription Registry Service listening on ${runtime.url}`,
    `  API docs:      ${runtime.url}/docs  (OpenAPI: ${runtime.url}/openapi.json)`,
    `  Health:        ${runtime.url}/health/ready   Metrics: ${runtime.url}/metrics`,
    `  Database:      ${runtime.embeddedDir ? `embedded PostgreSQL in ${runtime.embeddedDir}` : 'DATABASE_URL'}`,
    ...(runtime.sandboxUrl
      ? [
          `  Sandbox:       ${runtime.sandboxUrl}  (emulated SISA/REFEPS, RENAPER, catalogue, ministry)`,
        ]
      : []),
  ];
  const demo = config.settings(authSettings).demoClient
    ? // A fresh demo secret at every start: only hashes are stored, so this is the only way
      // to print credentials that work.
      await runtime.app.get(ApiClientsService).ensureDemoClient()
    : undefined;
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
      `    curl -s ${runtime.url}/v1/medicamentos/buscar?q=ibuprofeno -H 'X-API-Key: ${demo.key}' -H 'X-API-Secret: ${demo.secret}'`,
    );
  }
  banner.push('');
  process.stdout.write(`${banner.join('\n')}\n`);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: draining in-flight requests');
    const force = setTimeout(() => process.exit(1), config.http.shutdownGraceMs).unref();
    runtime
      .stop()
      .then(() => {
        clearTimeout(force);
        // The log stream is asynchronous: exit once its last lines are written.
        logger.flush(() => process.exit(0));
      })
      .catch(() => process.exit(1));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/**
 * A start refused for a reason the message names, with what to do (the folder in use, no
 * embedded PostgreSQL here, the port taken): the message is the whole answer, without a stack.
 */
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
