import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, mkdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { recordCheckout } from './fallback-clusters.js';

/** Who the server runs as: the caller, or (for root, which PostgreSQL refuses) `postgres`. */
export interface ServerUser {
  uid?: number;
  gid?: number;
  /** Hands a folder the server must write to over to its user. */
  own: (path: string) => void;
}

const runningAsRoot = () => process.getuid?.() === 0;

function idOf(flag: '-u' | '-g'): number | undefined {
  try {
    return Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  } catch {
    return undefined;
  }
}

/** PostgreSQL will not run as root: as root, it runs as `postgres` (created when missing). */
export function serverUser(dataDir: string): ServerUser & { reachable: (dir: string) => boolean } {
  if (!runningAsRoot()) return { own: () => undefined, reachable: () => true };
  if (idOf('-u') === undefined) {
    try {
      execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres'], {
        stdio: 'ignore',
      });
    } catch {
      throw new Error(
        'Running as root, the embedded PostgreSQL needs a "postgres" user to run as, and useradd failed. Create one, run as another user, or set DATABASE_URL.',
      );
    }
  }
  const uid = idOf('-u') as number;
  const gid = idOf('-g') as number;
  assertReachable(dirname(dataDir), uid);
  return {
    uid,
    gid,
    own: (path) => chownSync(path, uid, gid),
    reachable: (dir) => blockingAncestor(dir, uid) === undefined,
  };
}

/** The first ancestor of `dir` that `uid` cannot enter (no others' x bit, not its own). */
function blockingAncestor(dir: string, uid: number | undefined): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    let st;
    try {
      st = statSync(d);
    } catch {
      st = undefined; // created later by us, with mode 755
    }
    if (st && st.uid !== uid && (st.mode & 0o001) === 0) return d;
    if (d === dirname(d)) return undefined;
  }
}

function assertReachable(dir: string, uid: number): void {
  const blocked = blockingAncestor(dir, uid);
  if (blocked) {
    throw new Error(
      `Running as root, the embedded PostgreSQL runs as the "postgres" user, which cannot enter ` +
        `${blocked}. Set EMBEDDED_DB_DIR to a folder it can reach (e.g. ` +
        `/var/lib/prescription-registry/postgres), run as another user, or set DATABASE_URL.`,
    );
  }
}

/** Where root's default clusters go when the project folder is closed to `postgres`. */
export const ROOT_FALLBACK_DIR = '/var/lib/prescription-registry';

/**
 * The data folder the embedded server uses. As root, a default folder `postgres` cannot enter
 * moves to ROOT_FALLBACK_DIR, one per checkout; an EMBEDDED_DB_DIR set on purpose never moves.
 */
export function effectiveDataDir(configured: string, isDefault: boolean): string {
  if (!runningAsRoot() || !isDefault) return configured;
  if (!blockingAncestor(dirname(configured), idOf('-u'))) return configured;
  const checkout = dirname(dirname(configured));
  const id = createHash('sha256').update(configured).digest('hex').slice(0, 10);
  const folder = join(ROOT_FALLBACK_DIR, `${basename(checkout)}-${id}`);
  mkdirSync(folder, { recursive: true, mode: 0o755 });
  const dataDir = join(folder, basename(configured));
  // The cluster outlives a deleted checkout: the record lets `clusters borrar-huerfanos` find it.
  recordCheckout(folder, checkout, dataDir);
  return dataDir;
}
