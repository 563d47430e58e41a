import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { initdb, startServer } from './cluster-server.js';
import { claim, isAlive, stopOrphan } from './ownership.js';
import { binariesReachableBy, postgresBinaries } from './postgres-binaries.js';
import { serverUser } from './server-user.js';

interface EmbeddedPostgres {
  /** The superuser's URL for the `registry` database: the migrations'. */
  url: string;
  /** The service's: a role that owns nothing. */
  runtimeUrl: string;
  port: number;
  dataDir: string;
  stop(): Promise<void>;
}

interface EmbeddedOptions {
  dataDir: string;
  /** 0 or unset: a free loopback port. */
  port?: number;
  maxConnections?: number;
  /** Progress lines for a person watching the start. */
  onProgress?: (line: string) => void;
}

const THROWAWAY_PREFIX = 'prs-pg-';

export const passwordPath = (dataDir: string) => `${dataDir}.password`;

/** The server binaries of this platform's npm package, and the user they run as. */
async function serverFor(dataDir: string) {
  const user = serverUser(dataDir);
  return { user, bins: binariesReachableBy(await postgresBinaries(), user.reachable) };
}

/**
 * A PostgreSQL server from this platform's npm package, kept in `dataDir`: initialised on the
 * first start (a password of its own, loopback only), recovered by PostgreSQL after a crash,
 * stopped by `stop()`. One owner per folder at a time.
 */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedPostgres> {
  const { user, bins } = await serverFor(opts.dataDir);
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
 * A cluster for one test or tool run, in the temporary folder, without durability; `stop()`
 * removes it, and the next call removes those of killed runs.
 */
export async function startThrowawayPostgres(
  opts: { maxConnections?: number } = {},
): Promise<EmbeddedPostgres> {
  await sweepThrowaways();
  const root = mkdtempSync(join(tmpdir(), `${THROWAWAY_PREFIX}${process.pid}-`));
  chmodSync(root, 0o755);
  try {
    const dataDir = join(root, 'data');
    const { user, bins } = await serverFor(dataDir);
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
