import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { platform } from 'node:os';
import { join } from 'node:path';

/** What the process that started the embedded server announces beside its data folder. */
interface EmbeddedServerInfo {
  pid: number;
  port: number;
  startedAt: string;
}

export const serverInfoPath = (dataDir: string) => `${dataDir}.server.json`;

/** Whether `pid` runs: a zombie (dead, not yet reaped by its parent) does not. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (platform() !== 'linux') return true;
  try {
    // `pid (comm) S …`: the state follows the last parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function readInfo(dataDir: string): Partial<EmbeddedServerInfo> | undefined {
  try {
    return JSON.parse(readFileSync(serverInfoPath(dataDir), 'utf8')) as EmbeddedServerInfo;
  } catch {
    return undefined;
  }
}

/** The server a live process announced for this data folder, ready for connections. */
export function readRunningServer(dataDir: string): EmbeddedServerInfo | undefined {
  const info = readInfo(dataDir);
  return info?.pid && info.port && isAlive(info.pid) ? (info as EmbeddedServerInfo) : undefined;
}

export class EmbeddedDatabaseInUse extends Error {}

/**
 * Claims the data folder for this process by an exclusive create of the info file, so two
 * processes cannot both start a server on it; a dead owner's file is taken over.
 */
export function claim(dataDir: string): { announce(port: number): void; release(): void } {
  const path = serverInfoPath(dataDir);
  const mine = (port = 0) =>
    JSON.stringify({ pid: process.pid, port, startedAt: new Date().toISOString() });
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, mine(), { flag: 'wx', mode: 0o600 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
      const owner = readInfo(dataDir)?.pid;
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new EmbeddedDatabaseInUse(
          `The embedded database in ${dataDir} is in use by process ${owner}. Stop that process ` +
            `(or use \`npm run cli\`, which reaches its server), set EMBEDDED_DB_DIR to another ` +
            `folder, or set DATABASE_URL.`,
        );
      }
      rmSync(path, { force: true });
    }
  }
  return {
    announce: (port) => writeFileSync(path, mine(port), { mode: 0o600 }),
    release: () => {
      if (readInfo(dataDir)?.pid === process.pid) rmSync(path, { force: true });
    },
  };
}

/** The postmaster's pid from its lock file, when that process is still alive. */
export function livePostmaster(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return pid > 0 && isAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A server whose owner died without stopping it (no parent-death signal there) is shut down
 * immediately; the next start runs PostgreSQL's crash recovery.
 */
export async function stopOrphan(dataDir: string): Promise<boolean> {
  const pid = livePostmaster(dataDir);
  if (pid === undefined) return false;
  process.kill(pid, 'SIGQUIT');
  for (let waited = 0; isAlive(pid); waited += 50) {
    if (waited > 15_000)
      throw new Error(`The orphaned PostgreSQL ${pid} on ${dataDir} did not stop`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}
