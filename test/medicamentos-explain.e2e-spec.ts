import pg from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { type RunningSandbox, startSandbox } from '../sandbox/server.js';
import { startEmbeddedPostgres } from '../src/database/embedded-postgres.js';
import { CatalogoSyncService } from '../src/medicamentos/catalogo-sync.service.js';
import { MedicamentosRepository } from '../src/medicamentos/medicamentos.repository.js';
import { normalizeSearchText } from '../src/medicamentos/search-text.js';
import { createClient, TestClient } from './support/clients.js';
import { startTestApp, TestApp } from './support/test-app.js';

const SIZE = 50_000;

/** A database of this suite's own: 50,000 rows must not land in the run's shared mirror. */
async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!process.env.DATABASE_URL) {
    const db = await startEmbeddedPostgres({ dataDir: 'memory://' });
    return { url: db.url, drop: () => db.stop() };
  }
  const base = process.env.TEST_DATABASE_URL as string;
  const name = `prs_test_explain_${Date.now()}_${process.pid}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(sql).finally(() => c.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

describe(`catalogue search on a ${SIZE}-item mirror`, () => {
  let db: { url: string; drop(): Promise<void> };
  let upstream: RunningSandbox;
  let t: TestApp;
  let reader: TestClient;

  beforeAll(async () => {
    db = await freshDatabase();
    upstream = await startSandbox({ quiet: true, catalogSize: SIZE });
    t = await startTestApp({
      DATABASE_URL: db.url,
      CATALOGO_BASE_URL: upstream.url,
      CATALOG_SYNC_PAGE_SIZE: '1000',
      CATALOG_SYNC_INTERVAL_MINUTES: '0',
    });
    reader = await createClient(t, { scopes: ['medicamentos:read'] });
    // Joins the start-up sync already running on the empty mirror.
    await t.app.get(CatalogoSyncService).ensureLoaded('manual');
    await t.app.get(DataSource).query('ANALYZE medicamentos');
  }, 180_000);
  afterAll(async () => {
    await t?.stop();
    await upstream?.close();
    await db?.drop();
  }, 60_000);

  const plan = (q: string) =>
    t.app.get(MedicamentosRepository).explainSearch(normalizeSearchText(q), 'ANALYZE, COSTS');

  it('holds every item', async () => {
    const [{ n }] = await t.app
      .get(DataSource)
      .query('SELECT count(*)::int AS n FROM medicamentos');
    expect(n).toBe(SIZE);
  });

  it.each(['ibuprofen', 'paracetmol', 'amoxicilína', 'losacor'])(
    'q=%p is answered through the trigram GIN index',
    async (q) => {
      const text = await plan(q);
      expect(text).toMatch(/Bitmap Index Scan on medicamentos_search_trgm/);
      expect(text).not.toMatch(/Seq Scan on medicamentos/);
    },
  );

  it('still finds the drug first, quickly', async () => {
    const started = Date.now();
    const res = await request(t.url)
      .get('/v1/medicamentos/buscar')
      .query({ q: 'paracetmol' })
      .set(reader.headers)
      .expect(200);
    expect(res.body.data.items[0].principio_activo).toBe('PARACETAMOL');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
