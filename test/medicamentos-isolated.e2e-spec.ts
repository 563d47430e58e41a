import request from 'supertest';
import { DataSource } from 'typeorm';
import { type RunningSandbox, startSandbox } from '../sandbox/server.js';
import { CatalogoSyncService } from '../src/medicamentos/catalogo-sync.service.js';
import { MedicamentosRepository } from '../src/medicamentos/medicamentos.repository.js';
import { normalizeSearchText } from '../src/medicamentos/search-text.js';
import { createClient, TestClient } from './support/clients.js';
import { FreshDatabase, freshDatabase } from './support/fresh-database.js';
import { startTestApp, TestApp } from './support/test-app.js';

const SIZE = 50_000;

// Each suite here runs on a database of its own (freshDatabase): these tests need an empty
// mirror, or one of 50,000 items, and the run's database holds the shared, loaded mirror the
// other suites search.

describe(`catalogue search on a ${SIZE}-item mirror`, () => {
  let db: FreshDatabase;
  let upstream: RunningSandbox;
  let t: TestApp;
  let reader: TestClient;

  beforeAll(async () => {
    db = await freshDatabase('medicamentos');
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

describe('catalogue search with an empty mirror (a database of its own)', () => {
  let db: FreshDatabase;
  let upstream: RunningSandbox;
  let t: TestApp;
  let reader: TestClient;

  beforeAll(async () => {
    db = await freshDatabase('medicamentos');
    upstream = await startSandbox({ quiet: true });
    // Down before the app starts, so its start-up sync fails (logged, not fatal).
    await request(upstream.url)
      .post('/__sandbox/faults')
      .send({ service: 'catalogo', mode: 'error', rate: 1 })
      .expect(200);
    t = await startTestApp({
      DATABASE_URL: db.url,
      CATALOGO_BASE_URL: upstream.url,
      REGISTRY_MAX_ATTEMPTS: '1',
    });
    reader = await createClient(t, { scopes: ['medicamentos:read'] });
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
    await upstream?.close();
    await db?.drop();
  }, 60_000);

  it('answers 500 UPSTREAM_UNAVAILABLE while the catalogue is down, then loads on demand', async () => {
    const get = () =>
      request(t.url).get('/v1/medicamentos/buscar?q=ibuprofeno').set(reader.headers);
    const down = await get().expect(500);
    expect(down.body).toMatchObject({ success: false, error: { code: 'UPSTREAM_UNAVAILABLE' } });
    await request(upstream.url).delete('/__sandbox/faults').expect(204);
    const up = await get().expect(200);
    expect(up.body.data.items[0].principio_activo).toBe('IBUPROFENO');
  });
});
