import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface EmbeddedPostgres {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedServerInfo {
  port: number;
  pid: number;
  startedAt: string;
}

/** Where a running service announces its embedded database, so the CLI can reach it. */
export const serverInfoPath = (dataDir: string) => `${dataDir}.server.json`;

/**
 * Starts PGlite (PostgreSQL compiled to WASM, in-process) with the extensions the schema
 * needs, and serves it over the Postgres wire protocol on a loopback port, so the service,
 * the migrations and the credentials tool all speak plain `pg`. PGlite is single-session:
 * the socket server multiplexes connections and keeps a transaction's statements together,
 * and the service uses a pool of one. `dataDir` `memory://` keeps nothing on disk (tests).
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port?: number;
  maxConnections?: number;
}): Promise<EmbeddedPostgres> {
  const persistent = !opts.dataDir.startsWith('memory://');
  if (persistent) {
    const running = readRunningServer(opts.dataDir);
    if (running) {
      throw new Error(
        `The embedded database in ${opts.dataDir} is in use by process ${running.pid} ` +
          `(port ${running.port}). Stop it, or set DATABASE_URL to use a PostgreSQL server.`,
      );
    }
    mkdirSync(dirname(opts.dataDir), { recursive: true });
  }
  const db = await PGlite.create(opts.dataDir, { extensions: { pg_trgm, unaccent } });
  const server = new PGLiteSocketServer({
    db,
    host: '127.0.0.1',
    port: opts.port ?? 0,
    maxConnections: opts.maxConnections ?? 16,
  });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  if (persistent) {
    const info: EmbeddedServerInfo = {
      port,
      pid: process.pid,
      startedAt: new Date().toISOString(),
    };
    writeFileSync(serverInfoPath(opts.dataDir), JSON.stringify(info));
  }
  return {
    port,
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    async stop() {
      if (persistent) rmSync(serverInfoPath(opts.dataDir), { force: true });
      await server.stop();
      await db.close();
    },
  };
}

/** The embedded server a live process announced for this data folder, if any. */
export function readRunningServer(dataDir: string): EmbeddedServerInfo | undefined {
  let info: EmbeddedServerInfo;
  try {
    info = JSON.parse(readFileSync(serverInfoPath(dataDir), 'utf8')) as EmbeddedServerInfo;
  } catch {
    return undefined;
  }
  try {
    process.kill(info.pid, 0);
    return info;
  } catch {
    return undefined; // stale file of a process that died without cleaning up
  }
}
