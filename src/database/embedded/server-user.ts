import { execFileSync } from 'node:child_process';
import { chownSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** Who the server runs as: the caller, or (for root, which PostgreSQL refuses) `postgres`. */
export interface ServerUser {
  uid?: number;
  gid?: number;
  /** Hands a folder the server must write to over to its user. */
  own(path: string): void;
}

const runningAsRoot = () => process.getuid?.() === 0;

function idOf(flag: '-u' | '-g'): number | undefined {
  try {
    return Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  } catch {
    return undefined;
  }
}

/**
 * PostgreSQL will not run as root. As root (a container, a CI machine) the server and initdb run
 * as the `postgres` user, created when missing, and every folder above the data folder must let
 * that user through.
 */
export function serverUser(dataDir: string): ServerUser {
  if (!runningAsRoot()) return { own: () => undefined };
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
  return { uid, gid, own: (path) => chownSync(path, uid, gid) };
}

/** Every ancestor of `dir` must be searchable by `uid` (others' x bit, or owned by it). */
function assertReachable(dir: string, uid: number): void {
  for (let d = dir; ; d = dirname(d)) {
    let st;
    try {
      st = statSync(d);
    } catch {
      st = undefined; // created later by us, with mode 755
    }
    if (st && st.uid !== uid && (st.mode & 0o001) === 0) {
      throw new Error(
        `Running as root, the embedded PostgreSQL runs as the "postgres" user, which cannot enter ${d} ` +
          `(mode ${(st.mode & 0o777).toString(8)}). Set EMBEDDED_DB_DIR to a folder it can reach ` +
          `(e.g. /var/lib/prescription-registry), run as another user, or set DATABASE_URL.`,
      );
    }
    if (d === dirname(d)) return;
  }
}
