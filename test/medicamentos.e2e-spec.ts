import request from 'supertest';
import { CatalogoSyncService } from '../src/medicamentos/catalogo-sync.service.js';
import { createClient, TestClient } from './support/clients.js';
import { startTestApp, TestApp } from './support/test-app.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The mirror is shared by every suite of the run: load it if nobody has (another instance may
 * hold the sync lock for a moment), never resync it, so a concurrent suite is not disturbed.
 * The mutation suite (medicamentos-sync) only touches items this suite never looks for.
 */
async function mirrorLoaded(t: TestApp): Promise<void> {
  const sync = t.app.get(CatalogoSyncService);
  for (let attempt = 1; ; attempt++) {
    try {
      return await sync.ensureLoaded('manual');
    } catch (err) {
      if (attempt >= 50) throw err;
      await sleep(200);
    }
  }
}

type Item = Record<string, unknown>;

describe('GET /v1/medicamentos/buscar', () => {
  let t: TestApp;
  let reader: TestClient;

  beforeAll(async () => {
    t = await startTestApp();
    reader = await createClient(t, { scopes: ['medicamentos:read'] });
    await mirrorLoaded(t);
  });
  afterAll(async () => {
    await t?.stop();
  });

  const buscar = (query: Record<string, string | number>, c: TestClient = reader) =>
    request(t.url).get('/v1/medicamentos/buscar').query(query).set(c.headers);

  it.each([
    ['ibuprofeno', 'IBUPROFENO'],
    ['IBUPROFENO', 'IBUPROFENO'],
    ['ibuprofen', 'IBUPROFENO'],
    ['amoxicilína', 'AMOXICILINA'],
    ['paracetmol', 'PARACETAMOL'],
    ['losartan', 'LOSARTÁN'],
  ])('q=%p finds %s first', async (q, drug) => {
    const res = await buscar({ q }).expect(200);
    expect(res.body.success).toBe(true);
    const { total, items } = res.body.data;
    expect(total).toBeGreaterThan(0);
    expect(items[0].principio_activo).toBe(drug);
    // Best match first: the whole first page is that drug (alone or combined).
    for (const item of items.slice(0, 5)) expect(item.principio_activo).toContain(drug);
  });

  it.each([
    ['IBUPROFENO', 'ibuprofeno'],
    ['amoxicilína', 'amoxicilina'],
    ['LOSARTÁN', 'losartan'],
    ['  Paracetamol ', 'PARACETAMOL'],
  ])('case and accents do not matter: %p answers exactly as %p', async (a, b) => {
    const [ra, rb] = [await buscar({ q: a }).expect(200), await buscar({ q: b }).expect(200)];
    expect(ra.body.data.total).toBeGreaterThan(0);
    expect(ra.body.data).toEqual(rb.body.data);
  });

  it('answers the documented shape, members in order, the insurer flag named pami by default', async () => {
    const res = await buscar({ q: 'cozaar' }).expect(200);
    const { data } = res.body;
    expect(Object.keys(data)).toEqual(['total', 'page', 'per_page', 'items']);
    expect(data).toMatchObject({ page: 1, per_page: 20 });
    expect(Object.keys(data.items[0])).toEqual([
      'code',
      'nombre',
      'principio_activo',
      'posologia',
      'dosis',
      'presentacion',
      'pami_descuento',
      'droga',
    ]);
    expect(data.items[0]).toMatchObject({
      nombre: 'COZAAR',
      principio_activo: 'LOSARTÁN',
      droga: 'LOSARTÁN',
      dosis: '50 mg',
      posologia: 'COMPRIMIDO RECUBIERTO, VÍA ORAL',
      presentacion: 'envase x 30 comprimidos recubiertos',
      pami_descuento: true,
    });
  });

  it('a code finds exactly its medicine, even with a q; an unknown code finds nothing', async () => {
    const losartan = (await buscar({ q: 'losartan' }).expect(200)).body.data.items as Item[];
    const target = losartan[losartan.length - 1];
    const res = await buscar({ code: target.code as string, q: 'ibuprofeno' }).expect(200);
    expect(res.body.data.total).toBe(1);
    expect(res.body.data.items).toEqual([target]);
    const none = await buscar({ code: '0000000' }).expect(200);
    expect(none.body.data).toEqual({ total: 0, page: 1, per_page: 20, items: [] });
  });

  it('no match → 200 with total 0', async () => {
    const res = await buscar({ q: 'xqzwvkj' }).expect(200);
    expect(res.body.data).toEqual({ total: 0, page: 1, per_page: 20, items: [] });
  });

  it.each([
    [{ q: 'ibuprofeno', per_page: 101 }, 'per_page'],
    [{ q: 'ibuprofeno', per_page: 0 }, 'per_page'],
    [{ q: 'ibuprofeno', per_page: 'diez' }, 'per_page'],
    [{ q: 'ibuprofeno', page: 0 }, 'page'],
    [{ q: 'i' }, 'q'],
    [{ q: 'x'.repeat(101) }, 'q'],
    [{ q: '   ' }, 'q'],
    [{}, 'q'],
    [{ page: 1 }, 'q'],
    [{ code: '12 34' }, 'code'],
    // q is validated whenever it is sent, code or not (code still wins the search).
    [{ code: '1234567', q: 'a' }, 'q'],
    [{ code: '1234567', q: 'x'.repeat(101) }, 'q'],
    [{ code: '1234567', q: '   ' }, 'q'],
  ])('answers 400 VALIDATION_FAILED for %j, naming %s', async (query, field) => {
    const res = await buscar(query).expect(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
  });

  it('refuses an unknown query parameter with UNKNOWN_FIELD', async () => {
    const res = await buscar({ q: 'ibuprofeno', sort: 'nombre' }).expect(400);
    expect(res.body.error).toMatchObject({ code: 'UNKNOWN_FIELD', details: [{ field: 'sort' }] });
  });

  it('pages are disjoint and together make the first 2·per_page results', async () => {
    const codes = async (page: number, per_page: number) => {
      const res = await buscar({ q: 'ibuprofeno', page, per_page }).expect(200);
      expect(res.body.data).toMatchObject({ page, per_page });
      return {
        total: res.body.data.total,
        codes: (res.body.data.items as Item[]).map((i) => i.code),
      };
    };
    const [p1, p2, both] = [await codes(1, 5), await codes(2, 5), await codes(1, 10)];
    expect(p1.total).toBeGreaterThan(10);
    expect([p2.total, both.total]).toEqual([p1.total, p1.total]);
    expect(p1.codes).toHaveLength(5);
    expect(p2.codes).toHaveLength(5);
    expect(p1.codes.filter((c) => p2.codes.includes(c))).toEqual([]);
    expect([...p1.codes, ...p2.codes]).toEqual(both.codes);
    const past = await buscar({ q: 'ibuprofeno', page: 1000 }).expect(200);
    expect(past.body.data).toMatchObject({ total: p1.total, items: [] });
  });

  it('ranks items holding the query before typo matches, and pages across that boundary', async () => {
    // ESOMEPRAZOL holds the query; OMEPRAZOL is only close to it by trigrams (the typo tier).
    const get = async (page: number, per_page: number) =>
      (await buscar({ q: 'esomeprazol', page, per_page }).expect(200)).body.data as {
        total: number;
        items: Item[];
      };
    const all = await get(1, 100);
    expect(all.items).toHaveLength(all.total);
    const drugs = all.items.map((i) => i.principio_activo);
    const exact = drugs.filter((d) => d === 'ESOMEPRAZOL').length;
    expect(exact).toBeGreaterThan(0);
    expect(drugs.slice(0, exact)).toEqual(Array(exact).fill('ESOMEPRAZOL'));
    expect(drugs.slice(exact)).toContain('OMEPRAZOL');
    // Small pages, one of them straddling the two tiers, make up the same sequence.
    const codes: unknown[] = [];
    for (let page = 1; codes.length < all.total; page++) {
      const { total, items } = await get(page, 3);
      expect(total).toBe(all.total);
      expect(items.length).toBeGreaterThan(0);
      codes.push(...items.map((i) => i.code));
    }
    expect(codes).toEqual(all.items.map((i) => i.code));
  });

  it('needs the medicamentos:read scope (403) and credentials (401)', async () => {
    const other = await createClient(t, { scopes: ['cuir:write', 'recetas:read'] });
    const res = await buscar({ q: 'ibuprofeno' }, other).expect(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    await request(t.url).get('/v1/medicamentos/buscar?q=ibuprofeno').expect(401);
  });

  it('keeps answering from the mirror while the catalogue is down, without calling it', async () => {
    await request(t.sandboxUrl as string)
      .delete('/__sandbox/calls')
      .expect(204);
    await request(t.sandboxUrl as string)
      .post('/__sandbox/faults')
      .send({ service: 'catalogo', mode: 'error', rate: 1 })
      .expect(200);
    try {
      const res = await buscar({ q: 'paracetamol' }).expect(200);
      expect(res.body.data.items[0].principio_activo).toBe('PARACETAMOL');
      await buscar({ q: 'xqzwvkj' }).expect(200);
      const calls = await request(t.sandboxUrl as string)
        .get('/__sandbox/calls')
        .expect(200);
      expect(calls.body.catalogo).toBe(0);
    } finally {
      await request(t.sandboxUrl as string)
        .delete('/__sandbox/faults')
        .expect(204);
    }
  });

  it('documents the endpoint and the configurable insurer field in OpenAPI', async () => {
    const doc = (await request(t.url).get('/openapi.json').expect(200)).body;
    const op = doc.paths['/v1/medicamentos/buscar'].get;
    expect(op.parameters.map((p: { name: string }) => p.name).sort()).toEqual(
      ['code', 'page', 'per_page', 'q'].sort(),
    );
    const schema = doc.components.schemas.MedicamentoDto;
    expect(schema.properties.pami_descuento.description).toContain('<INSURER_NAME>_descuento');
  });
});

describe('GET /v1/medicamentos/buscar with INSURER_NAME=ioma', () => {
  let t: TestApp;
  let reader: TestClient;

  beforeAll(async () => {
    t = await startTestApp({ INSURER_NAME: 'ioma' });
    reader = await createClient(t, { scopes: ['medicamentos:read'] });
    await mirrorLoaded(t);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('names the discount flag after the configured insurer and reads its coverage', async () => {
    const get = (q: string) =>
      request(t.url).get('/v1/medicamentos/buscar').query({ q }).set(reader.headers).expect(200);
    // COZAAR is covered by PAMI only; LOSARTÁN RICHET by PAMI and IOMA.
    const cozaar = (await get('cozaar')).body.data.items[0];
    expect(cozaar).toHaveProperty('ioma_descuento', false);
    expect(cozaar).not.toHaveProperty('pami_descuento');
    expect(Object.keys(cozaar)[6]).toBe('ioma_descuento');
    const richet = (await get('losartan richet')).body.data.items[0];
    expect(richet).toMatchObject({ nombre: 'LOSARTÁN RICHET', ioma_descuento: true });
  });
});
