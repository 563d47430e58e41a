// Boots the built service the way the e2e tests do (startRuntime on a database of its own: a
// throwaway one created beside DATABASE_URL when it is set, else a throwaway embedded
// PostgreSQL cluster) and returns the OpenAPI document it serves at /openapi.json — the document
// integrators get, not one rebuilt from the sources.
// Run directly: `node scripts/served-openapi.mjs [out.json]` (after `npm run build`).
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { startRuntime } from '../dist/src/bootstrap.js';
import { createRootLogger } from '../dist/src/common/logging/logger.js';
import { loadAppConfig as loadConfig } from '../dist/src/slices.js';
import { startThrowawayPostgres } from '../dist/src/database/embedded/embedded-postgres.js';

/** The served document, parsed; `env` adds settings (e.g. INSURER_NAME) to the environment. */
export async function servedOpenApi(env = {}) {
  const merged = { ...process.env, ...env };
  const database = merged.DATABASE_URL
    ? await throwawayDatabase(merged.DATABASE_URL)
    : await startThrowawayPostgres();
  let runtime;
  try {
    const config = loadConfig({
      ...merged,
      HOST: '127.0.0.1',
      PORT: '0',
      SANDBOX_PORT: '0',
      LOG_LEVEL: 'silent',
      DEMO_CLIENT: 'false',
      CATALOG_SYNC_ON_START: 'false',
      MINISTRY_DELIVERY_ENABLED: 'false',
      DATABASE_URL: database.url,
    });
    runtime = await startRuntime(config, createRootLogger('silent'));
    const res = await fetch(`${runtime.url}/openapi.json`);
    if (!res.ok) throw new Error(`GET /openapi.json answered ${res.status}`);
    return await res.json();
  } finally {
    await runtime?.stop();
    await database.stop();
  }
}

/** A database created beside `base` (as the test setup does), dropped by `stop`. */
async function throwawayDatabase(base) {
  const name = `prs_openapi_${Date.now()}_${process.pid}`;
  const admin = async (sql) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), stop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const doc = await servedOpenApi();
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  if (process.argv[2]) writeFileSync(process.argv[2], text);
  else process.stdout.write(text);
  process.exit(0);
}
