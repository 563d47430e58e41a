import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * Throwaway PostgreSQL clusters from the machine's server binaries (PG_BINDIR, else
 * `pg_config --bindir`): a primary of its own (so replication needs nothing of the machine's
 * server configuration) and streaming replicas of it made by `pg_basebackup -R`. As root the
 * tools run as `postgres`, which refuses root.
 */
const bindir = () =>
  process.env.PG_BINDIR || execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
const asRoot = process.getuid?.() === 0;

function pgTool(tool: string, args: string[]): string {
  const [cmd, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(bindir(), tool), ...args]]
    : [join(bindir(), tool), args];
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export async function sql<T = Record<string, unknown>>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows as T[];
  } finally {
    await c.end();
  }
}

export interface Cluster {
  dir: string;
  port: number;
  /** `postgres://postgres@127.0.0.1:<port>/<db>`. */
  url(db?: string): string;
  start(): void;
  /** `fast`: what an operator's stop does; `immediate`: a crash. */
  stop(mode?: 'fast' | 'immediate'): void;
}

function cluster(dir: string, port: number): Cluster {
  return {
    dir,
    port,
    url: (db = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${db}`,
    start: () => {
      pgTool('pg_ctl', ['-D', dir, '-l', `${dir}.log`, '-w', '-t', '60', 'start']);
    },
    stop: (mode = 'fast') => {
      try {
        pgTool('pg_ctl', ['-D', dir, '-m', mode, '-w', 'stop']);
      } catch {
        // Stopped already.
      }
    },
  };
}

/** A folder every cluster of one test lives in (world-writable: `postgres` writes there). */
export function clusterHome(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'prs-clusters-'));
  chmodSync(dir, 0o777);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A primary that streams its WAL to replicas: trust on 127.0.0.1, no fsync (a test's data). */
export async function startPrimary(home: string): Promise<Cluster> {
  const dir = join(home, 'primary');
  const port = await freePort();
  pgTool('initdb', ['-D', dir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  appendFileSync(
    join(dir, 'postgresql.conf'),
    [
      `port = ${port}`,
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = '${home}'`,
      'wal_level = replica',
      'max_wal_senders = 5',
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      '',
    ].join('\n'),
  );
  const c = cluster(dir, port);
  c.start();
  return c;
}

/** A hot standby of `primary` (pg_basebackup -R), streaming, on a port of its own. */
export async function startReplica(home: string, primary: Cluster, name: string): Promise<Cluster> {
  const dir = join(home, name);
  const port = await freePort();
  pgTool('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    dir,
    '-R',
    '-X',
    'stream',
    '-c',
    'fast',
    '--no-sync',
  ]);
  appendFileSync(join(dir, 'postgresql.conf'), `port = ${port}\nhot_standby = on\n`);
  const c = cluster(dir, port);
  c.start();
  return c;
}
