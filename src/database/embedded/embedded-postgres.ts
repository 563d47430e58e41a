import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { claim, isAlive, stopOrphan } from './ownership.js';
import {
  binariesReachableBy,
  parentDeathWrapper,
  postgresBinaries,
  PostgresBinaries,
} from './postgres-binaries.js';
import { serverUser, ServerUser } from './server-user.js';

export interface EmbeddedPostgres {
  /** A URL for the `registry` database, with the server's password. */
  url: string;
  port: number;
  dataDir: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  /** 0 or unset: a free loopback port. */
  port?: number;
  maxConnections?: number;
  /** Progress lines for a person watching the start (initialising, recovering…). */
  onProgress?: (line: string) => void;
}

export const EMBEDDED_DATABASE = 'registry';
const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 20_000;
const THROWAWAY_PREFIX = 'prs-pg-';

export const passwordPath = (dataDir: string) => `${dataDir}.password`;
export const embeddedUrl = (port: number, password: string, database = EMBEDDED_DATABASE) =>
  `postgres://postgres:${password}@127.0.0.1:${port}/${database}?sslmode=disable`;

/**
 * A real PostgreSQL server from this platform's npm package, kept in `dataDir`: initialised on
 * the first start (a password of its own, loopback only), started on later ones — after a crash
 * PostgreSQL's own recovery runs — and stopped by `stop()`. One owner per folder at a time.
 */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedPostgres> {
  const user = serverUser(opts.dataDir);
  const bins = binariesReachableBy(await postgresBinaries(), user.reachable);
  mkdirSync(dirname(opts.dataDir), { recursive: true });
  const ownership = claim(opts.dataDir);
  try {
    if (await stopOrphan(opts.dataDir))
      opts.onProgress?.('Stopped a PostgreSQL server left by a process that died.');
    if (!existsSync(join(opts.dataDir, 'PG_VERSION'))) {
      opts.onProgress?.(`Initialising the embedded PostgreSQL cluster in ${opts.dataDir} …`);
      writeFileSync(passwordPath(opts.dataDir), randomBytes(24).toString('hex'), { mode: 0o600 });
      await initdb(bins, user, opts.dataDir, readPassword(opts.dataDir), false);
    }
    const server = await startServer(bins, user, {
      dataDir: opts.dataDir,
      port: opts.port,
      password: readPassword(opts.dataDir),
      settings: { max_connections: String(opts.maxConnections ?? 100) },
      logPath: `${opts.dataDir}.log`,
    });
    ownership.announce(server.port);
    return { ...server, stop: () => server.stop().finally(() => ownership.release()) };
  } catch (err) {
    ownership.release();
    throw err;
  }
}

function readPassword(dataDir: string): string {
  try {
    return readFileSync(passwordPath(dataDir), 'utf8').trim();
  } catch {
    throw new Error(
      `${passwordPath(dataDir)} is missing, so the cluster in ${dataDir} cannot be reached. ` +
        'Restore the file, or remove the folder to start with an empty database.',
    );
  }
}

/**
 * A cluster for one test run or one tool run, in the system's temporary folder, without
 * durability (no fsync: a crash loses it, and nothing is kept); `stop()` removes it. Folders
 * left by runs that were killed are removed on the next call.
 */
export async function startThrowawayPostgres(
  opts: { maxConnections?: number } = {},
): Promise<EmbeddedPostgres> {
  await sweepThrowaways();
  const root = mkdtempSync(join(tmpdir(), `${THROWAWAY_PREFIX}${process.pid}-`));
  chmodSync(root, 0o755);
  try {
    const dataDir = join(root, 'data');
    const user = serverUser(dataDir);
    const bins = binariesReachableBy(await postgresBinaries(), user.reachable);
    const password = randomBytes(16).toString('hex');
    await initdb(bins, user, dataDir, password, true);
    const server = await startServer(bins, user, {
      dataDir,
      password,
      settings: {
        max_connections: String(opts.maxConnections ?? 200),
        fsync: 'off',
        synchronous_commit: 'off',
        full_page_writes: 'off',
      },
      logPath: join(root, 'postgres.log'),
    });
    return {
      ...server,
      stop: () => server.stop().finally(() => rmSync(root, { recursive: true, force: true })),
    };
  } catch (err) {
    rmSync(root, { recursive: true, force: true });
    throw err;
  }
}

async function sweepThrowaways(): Promise<void> {
  for (const name of readdirSync(tmpdir())) {
    const owner = new RegExp(`^${THROWAWAY_PREFIX}(\\d+)-`).exec(name)?.[1];
    if (!owner || isAlive(Number(owner))) continue;
    const root = join(tmpdir(), name);
    await stopOrphan(join(root, 'data')).catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  }
}

async function initdb(
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
    await run(bins.initdb, user, [
      `--pgdata=${dataDir}`,
      '--username=postgres',
      `--pwfile=${pwfile}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      // The built-in provider (PostgreSQL 17+): Unicode-aware case and character classes the
      // same on every machine, whatever locales the operating system has.
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      '--locale=C',
      ...(throwaway ? ['--no-sync'] : []),
    ]);
  } finally {
    rmSync(pwfile, { force: true });
  }
}

function run(bin: string, user: ServerUser, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      uid: user.uid,
      gid: user.gid,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${bin} failed (exit ${code}):\n${output.trim()}`)),
    );
  });
}

interface ServerSpec {
  dataDir: string;
  port?: number;
  password: string;
  settings: Record<string, string>;
  logPath: string;
}

async function startServer(bins: PostgresBinaries, user: ServerUser, spec: ServerSpec) {
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
    await ensureDatabase(embeddedUrl(port, spec.password, 'postgres'));
    return {
      port,
      url: embeddedUrl(port, spec.password),
      dataDir: spec.dataDir,
      stop: () => stopServer(child),
    };
  }
}

function spawnServer(bins: PostgresBinaries, user: ServerUser, spec: ServerSpec, port: number) {
  const settings = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: '',
    lc_messages: 'C',
    TimeZone: 'UTC',
    ...spec.settings,
  };
  const args = [
    '-D',
    spec.dataDir,
    '-p',
    String(port),
    ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
  ];
  const [command, ...prefix] = [...parentDeathWrapper(), bins.postgres];
  const log = openSync(spec.logPath, 'a', 0o600);
  try {
    // The server's own log goes to a file: no pipe ties its life to this process's reading.
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

async function ensureDatabase(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [
      EMBEDDED_DATABASE,
    ]);
    if (!rowCount) await client.query(`CREATE DATABASE ${EMBEDDED_DATABASE}`);
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
