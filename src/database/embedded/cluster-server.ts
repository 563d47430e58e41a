import { ChildProcess, execFile, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { parentDeathWrapper, PostgresBinaries } from './postgres-binaries.js';
import type { ServerUser } from './server-user.js';

// One cluster's server process: initdb, the server (its log in a file, the parent-death signal),
// readiness by a real connection, the `registry` database and the service's role, a fast stop.

const EMBEDDED_DATABASE = 'registry';
const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 20_000;

/** The service's own login (SPEC 11.1), its password derived from the cluster's (nothing more kept). */
const EMBEDDED_RUNTIME_ROLE = 'registry_app';

const runtimePassword = (password: string) =>
  createHmac('sha256', password).update(EMBEDDED_RUNTIME_ROLE).digest('hex');

/** The superuser's URL (the migrations', the tests' administration). */
export const embeddedUrl = (port: number, password: string, database = EMBEDDED_DATABASE) =>
  `postgres://postgres:${password}@127.0.0.1:${port}/${database}?sslmode=disable`;

/** The service's URL: EMBEDDED_RUNTIME_ROLE's. */
export const embeddedRuntimeUrl = (port: number, password: string, database = EMBEDDED_DATABASE) =>
  `postgres://${EMBEDDED_RUNTIME_ROLE}:${runtimePassword(password)}@127.0.0.1:${port}/${database}?sslmode=disable`;

export async function initdb(
  bins: PostgresBinaries,
  user: ServerUser,
  dataDir: string,
  password: string,
  throwaway: boolean,
): Promise<void> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  user.own(dataDir);
  const pwfile = join(dataDir, '..', `.pwfile-${process.pid}`);
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  user.own(pwfile);
  try {
    const args = [
      `--pgdata=${dataDir}`,
      '--username=postgres',
      `--pwfile=${pwfile}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      // PostgreSQL 17+'s built-in provider: the same Unicode rules whatever the system's locales.
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      '--locale=C',
      ...(throwaway ? ['--no-sync'] : []),
    ];
    await promisify(execFile)(bins.initdb, args, { uid: user.uid, gid: user.gid }).catch(
      (err: { code?: unknown; stdout?: string; stderr?: string }) => {
        if (typeof err.code !== 'number') throw err;
        const output = `${err.stdout}${err.stderr}`.trim();
        throw new Error(`${bins.initdb} failed (exit ${err.code}):\n${output}`);
      },
    );
  } finally {
    rmSync(pwfile, { force: true });
  }
}

interface ServerSpec {
  dataDir: string;
  port?: number;
  password: string;
  settings: Record<string, string>;
  logPath: string;
}

export async function startServer(bins: PostgresBinaries, user: ServerUser, spec: ServerSpec) {
  for (let attempt = 1; ; attempt++) {
    const port = spec.port || (await freePort());
    const child = spawnServer(bins, user, spec, port);
    try {
      await untilReady(child, embeddedUrl(port, spec.password, 'postgres'), spec.logPath);
    } catch (err) {
      await stopServer(child);
      // Another process took the free port between our probe and the server's bind.
      const raced = !spec.port && /could not (bind|create listen)/i.test(String(err));
      if (raced && attempt < 3) continue;
      throw err;
    }
    await ensureDatabase(embeddedUrl(port, spec.password, 'postgres'), spec.password);
    return {
      port,
      url: embeddedUrl(port, spec.password),
      runtimeUrl: embeddedRuntimeUrl(port, spec.password),
      dataDir: spec.dataDir,
      stop: () => stopServer(child),
    };
  }
}

function spawnServer(bins: PostgresBinaries, user: ServerUser, spec: ServerSpec, port: number) {
  const settings = {
    port: String(port),
    listen_addresses: '127.0.0.1',
    unix_socket_directories: '',
    lc_messages: 'C',
    TimeZone: 'UTC',
    ...spec.settings,
  };
  const args = [
    '-D',
    spec.dataDir,
    ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
  ];
  const [command, ...prefix] = [...parentDeathWrapper(), bins.postgres];
  const log = openSync(spec.logPath, 'a', 0o600);
  try {
    // A log file, not a pipe: nothing ties the server's life to this process's reading.
    return spawn(command, [...prefix, ...args], {
      uid: user.uid,
      gid: user.gid,
      stdio: ['ignore', log, log],
    });
  } finally {
    closeSync(log);
  }
}

async function untilReady(child: ChildProcess, url: string, logPath: string): Promise<void> {
  let exited = child.exitCode !== null;
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (exited) throw new Error(`PostgreSQL did not start:\n${tail(logPath)}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch {
      if (Date.now() > deadline)
        throw new Error(
          `PostgreSQL was not ready in ${READY_TIMEOUT_MS / 1000} s:\n${tail(logPath)}`,
        );
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

const tail = (path: string) => {
  try {
    return readFileSync(path, 'utf8').trim().split('\n').slice(-15).join('\n');
  } catch {
    return '(no server log)';
  }
};

/** The `registry` database and the runtime role (an older cluster gets them too). */
async function ensureDatabase(adminUrl: string, password: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [
      EMBEDDED_DATABASE,
    ]);
    if (!rowCount) await client.query(`CREATE DATABASE ${EMBEDDED_DATABASE}`);
    const role = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [
      EMBEDDED_RUNTIME_ROLE,
    ]);
    if (!role.rowCount) await client.query(`CREATE ROLE ${EMBEDDED_RUNTIME_ROLE}`);
    await client.query(
      `ALTER ROLE ${EMBEDDED_RUNTIME_ROLE} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '${runtimePassword(password)}'`,
    );
  } finally {
    await client.end();
  }
}

/** A fast shutdown (sessions ended, a checkpoint written), immediate if it hangs. */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGQUIT'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
