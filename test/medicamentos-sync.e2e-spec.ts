import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { MEDICAMENTOS, type Medicamento } from '../sandbox/fixtures/medicamentos.js';
import { CatalogoSyncService, SyncResult } from '../src/medicamentos/catalogo-sync.service.js';
import { SYNC_LOCK } from '../src/medicamentos/mirror-sync.repository.js';
import { createClient, TestClient } from './support/clients.js';
import { startTestApp, TestApp } from './support/test-app.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A sync that ran; retried while another instance holds the lock (e.g. a suite's start-up). */
async function syncNow(t: TestApp): Promise<SyncResult> {
  for (let attempt = 1; ; attempt++) {
    const result = await t.app.get(CatalogoSyncService).run('manual');
    if (result.outcome === 'success' || attempt >= 50) return result;
    await sleep(200);
  }
}

// Items the search suite never looks for (it runs at the same time, on the same mirror).
const clonazepam = MEDICAMENTOS.filter((m) => m.ifa === 'CLONAZEPAM');
const enalapril = MEDICAMENTOS.find((m) => m.ifa === 'ENALAPRIL') as Medicamento;
const invented = (codigo: string, nombre: string): Medicamento => ({
  ...enalapril,
  codigo,
  nombre_comercial: nombre,
  ifa: 'SINCROTESTINA',
  coberturas: ['pami'],
});

describe('catalogue sync', () => {
  let t: TestApp;
  let reader: TestClient;
  const sandbox = () => request(t.sandboxUrl as string);
  const buscar = (query: Record<string, string>) =>
    request(t.url).get('/v1/medicamentos/buscar').query(query).set(reader.headers).expect(200);
  const byCode = async (code: string) => (await buscar({ code })).body.data.items[0];
  const snapshot = () =>
    t.app
      .get(DataSource)
      .query(
        'SELECT code, nombre, principio_activo, dosis, coberturas, updated_at FROM medicamentos ORDER BY code',
      );
  const fault = (mode: string, rate: number) =>
    sandbox().post('/__sandbox/faults').send({ service: 'catalogo', mode, rate }).expect(200);

  beforeAll(async () => {
    // One attempt per page and small pages, so a fault on the 2nd call fails page 2 of 4.
    t = await startTestApp({
      REGISTRY_MAX_ATTEMPTS: '1',
      REGISTRY_TIMEOUT_MS: '1000',
      CATALOG_SYNC_PAGE_SIZE: '100',
    });
    reader = await createClient(t, { scopes: ['medicamentos:read'] });
    expect(await syncNow(t)).toMatchObject({ outcome: 'success', items: MEDICAMENTOS.length });
  });
  afterAll(async () => {
    // Put the shared mirror back to the fixture for whoever runs next.
    await sandbox().post('/__sandbox/reset').expect(204);
    await syncNow(t);
    await t?.stop();
  });

  it('applies an added, a removed and a renamed item', async () => {
    await sandbox()
      .put('/__sandbox/catalogo/items/0999901')
      .send(invented('0999901', 'SINCROTEST'))
      .expect(201);
    await sandbox().delete(`/__sandbox/catalogo/items/${clonazepam[0].codigo}`).expect(204);
    const renamed = { ...enalapril, nombre_comercial: 'ENALAPRIL RENOMBRADO' };
    await sandbox().put(`/__sandbox/catalogo/items/${enalapril.codigo}`).send(renamed).expect(200);

    expect(await syncNow(t)).toMatchObject({
      outcome: 'success',
      items: MEDICAMENTOS.length,
      inserted: 1,
      updated: 1,
      deleted: 1,
    });
    expect(await byCode('0999901')).toMatchObject({ nombre: 'SINCROTEST', pami_descuento: true });
    expect((await buscar({ code: clonazepam[0].codigo })).body.data.total).toBe(0);
    expect(await byCode(enalapril.codigo)).toMatchObject({ nombre: 'ENALAPRIL RENOMBRADO' });
    const found = (await buscar({ q: 'renombrado' })).body.data.items;
    expect(found.map((i: { code: string }) => i.code)).toEqual([enalapril.codigo]);
    // Nothing changed upstream since: a second sync rewrites nothing.
    expect(await syncNow(t)).toMatchObject({ inserted: 0, updated: 0, deleted: 0 });
  });

  it.each([
    ['an error', 'error'],
    ['a timeout', 'timeout'],
  ])(
    'a sync interrupted by %s on page 2 leaves the previous mirror searchable and unchanged',
    async (_name, mode) => {
      await sandbox()
        .put('/__sandbox/catalogo/items/0999902')
        .send(invented('0999902', 'SINCROFALLA'));
      await sandbox().delete(`/__sandbox/catalogo/items/${clonazepam[1].codigo}`);
      const before = await snapshot();
      await sandbox().delete('/__sandbox/calls').expect(204);
      await fault(mode, 0.5); // call 1 (page 1) answers, call 2 (page 2) fails
      try {
        await expect(t.app.get(CatalogoSyncService).run('manual')).rejects.toMatchObject({
          code: 'UPSTREAM_UNAVAILABLE',
        });
      } finally {
        await sandbox().delete('/__sandbox/faults').expect(204);
      }
      const calls = (await sandbox().get('/__sandbox/calls/routes').expect(200)).body;
      expect(calls['catalogo GET /catalogo/v1/medicamentos']).toBe(2);
      expect(await snapshot()).toEqual(before);
      expect(await byCode(clonazepam[1].codigo)).toMatchObject({ principio_activo: 'CLONAZEPAM' });
      expect((await buscar({ code: '0999902' })).body.data.total).toBe(0);
      expect(t.logs.some((l) => l.msg === 'catalogue sync failed; mirror unchanged')).toBe(true);
    },
  );

  it('the CLI `catalogo sync` syncs the database of DATABASE_URL', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['dist/src/cli/main.js', 'catalogo', 'sync', '--json'],
      {
        env: {
          ...process.env,
          NODE_ENV: 'test',
          LOG_LEVEL: 'warn',
          DATABASE_URL: process.env.TEST_DATABASE_URL,
          CATALOGO_BASE_URL: t.sandboxUrl as string,
        },
        timeout: 60_000,
      },
    );
    // The changes left pending by the interrupted syncs land now.
    expect(JSON.parse(stdout)).toMatchObject({ outcome: 'success', inserted: 1, deleted: 1 });
    expect(await byCode('0999902')).toMatchObject({ nombre: 'SINCROFALLA' });
    expect((await buscar({ code: clonazepam[1].codigo })).body.data.total).toBe(0);
  });

  it('reports runs, outcome, duration, last success and mirror size in /metrics', async () => {
    const text = (await request(t.url).get('/metrics').expect(200)).text;
    const [{ n }] = await t.app
      .get(DataSource)
      .query('SELECT count(*)::int AS n FROM medicamentos');
    expect(text).toMatch(/catalogo_sync_runs_total\{outcome="success"\} [1-9]/);
    expect(text).toMatch(/catalogo_sync_runs_total\{outcome="failure"\} [1-9]/);
    expect(text).toMatch(/catalogo_sync_duration_seconds_count\{outcome="success"\} [1-9]/);
    expect(text).toContain(`catalogo_mirror_items ${n}`);
    const last = Number(/^catalogo_sync_last_success_timestamp_seconds (\S+)$/m.exec(text)?.[1]);
    expect(Date.now() / 1000 - last).toBeLessThan(60);
    expect(t.logs.some((l) => l.msg === 'catalogue sync progress' && l.pages === 4)).toBe(true);
  });

  it('runs one sync at a time: in-process callers share it', async () => {
    const sync = t.app.get(CatalogoSyncService);
    const [a, b] = [sync.run('manual'), sync.run('manual')];
    expect(a).toBe(b);
    await a;
  });

  it('skips while another instance holds the sync lock', async () => {
    const other = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1)', [SYNC_LOCK]);
      const result = await t.app.get(CatalogoSyncService).run('manual');
      expect(result).toMatchObject({ outcome: 'skipped', reason: 'locked' });
    } finally {
      await other.end();
    }
  });
});
