import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { startRuntime, Runtime } from '../../src/bootstrap.js';
import { withRoles } from './database-roles.js';
import { createRootLogger } from '../../src/common/logging/logger.js';
import { loadAppConfig } from '../../src/slices.js';

export interface TestApp extends Runtime {
  /** Every log line the app wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  /** The raw log output, for scans that must not miss anything. */
  rawLogs(): string;
}

/**
 * Boots the real service over real HTTP against the run's test database and a private
 * sandbox on a random port, exactly as main.ts does. `env` overrides settings per suite.
 */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run through jest (global setup)');
  const config = loadAppConfig(
    withRoles({
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      SANDBOX_PORT: '0',
      DATABASE_URL: url,
      DATABASE_POOL_SIZE: process.env.TEST_DATABASE_POOL_SIZE ?? '5',
      LOG_LEVEL: 'info',
      DEMO_CLIENT: 'false',
      // Each app gets its own job queue, so parallel suites never work each other's jobs.
      QUEUE_SCHEMA: `pgboss_${randomBytes(6).toString('hex')}`,
      ...env,
    }),
  );
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = createRootLogger(config.logLevel, sink);
  const runtime = await startRuntime(config, logger);
  return {
    ...runtime,
    get logs() {
      return chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    },
    rawLogs: () => chunks.join(''),
  };
}
