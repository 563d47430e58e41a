import { ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { parentDeathWrapper } from '../../src/database/embedded/postgres-binaries.js';
import { withRoles } from './database-roles.js';

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<number | null>;
  /** SIGKILL: no cleanup at all, as in a crash. */
  kill(): Promise<void>;
}

/**
 * Settings of a service process whose external systems are a sandbox run by the test (so it
 * outlives the service): a job queue of its own, and short retry and expiry times.
 */
export function sandboxedEnv(
  sandboxUrl: string,
  over: Record<string, string> = {},
): Record<string, string> {
  return {
    REFEPS_BASE_URL: sandboxUrl,
    RENAPER_BASE_URL: sandboxUrl,
    CATALOGO_BASE_URL: sandboxUrl,
    MINISTERIO_BASE_URL: sandboxUrl,
    // Mi Argentina's issuer, also the sandbox's: every upstream is set, none emulated in-process.
    PACIENTE_JWKS_URL: `${sandboxUrl}/__sandbox/mi-argentina/jwks.json`,
    PACIENTE_JWT_ISSUER: `${sandboxUrl}/__sandbox/mi-argentina`,
    QUEUE_SCHEMA: `pgboss_${randomBytes(6).toString('hex')}`,
    QUEUE_POLL_INTERVAL_SECONDS: '1',
    QUEUE_MAINTENANCE_INTERVAL_SECONDS: '1',
    MINISTRY_JOB_EXPIRE_SECONDS: '5',
    MINISTRY_RETRY_DELAY_SECONDS: '1',
    CATALOG_SYNC_ON_START: 'false',
    ...over,
  };
}

/**
 * Runs the built service (`dist/`) as its own process against the run's test database. It dies
 * with the test worker that started it, whatever ends that worker (a failed test, Ctrl-C).
 */
export async function startServiceProcess(
  env: Record<string, string>,
  options: { nodeArgs?: string[] } = {},
): Promise<ServiceProcess> {
  const [command, ...prefix] = [...parentDeathWrapper('SIGKILL'), process.execPath];
  const child = spawn(command, [...prefix, ...(options.nodeArgs ?? []), 'dist/src/main.js'], {
    env: withRoles({
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      DATABASE_POOL_SIZE: process.env.TEST_DATABASE_POOL_SIZE ?? '5',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      DEMO_CLIENT: 'false',
      // One process unless a test asks for a cluster (its output, its pid: the service's).
      WEB_CONCURRENCY: '1',
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${out}`)), 20_000);
    const check = () => {
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.on('data', check);
    void exited.then(() => reject(new Error(`service exited early:\n${out}`)));
  });
  return {
    url,
    child,
    output: () => out,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

const run = promisify(execFile);

/** Issues a client with every scope through the credentials tool. */
export async function cliClient(name: string): Promise<{ headers: Record<string, string> }> {
  const { stdout } = await run(
    process.execPath,
    [
      'dist/src/cli/main.js',
      'clients',
      'create',
      '--name',
      name,
      '--scopes',
      'all',
      '--rate-limit',
      '100000',
      '--json',
    ],
    {
      env: withRoles({
        ...process.env,
        DATABASE_URL: process.env.TEST_DATABASE_URL,
        LOG_LEVEL: 'silent',
      }),
    },
  );
  const c = JSON.parse(stdout) as { key: string; secret: string };
  return { headers: { 'X-API-Key': c.key, 'X-API-Secret': c.secret } };
}
