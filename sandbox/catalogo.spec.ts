import { MEDICAMENTOS } from './fixtures/medicamentos.js';
import { startSandbox, type RunningSandbox } from './server.js';

// Bodies are checked by the assertions themselves, so the tests read them untyped.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type TestResponse = Omit<Response, 'json'> & { json(): Promise<any> };
const fetch = (url: string, init?: RequestInit) =>
  globalThis.fetch(url, init) as Promise<TestResponse>;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(() => sandbox.close());

const get = (path: string) => fetch(sandbox.url + path);
const put = (codigo: string, body: unknown) =>
  fetch(`${sandbox.url}/__sandbox/catalogo/items/${codigo}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const ITEM = {
  nombre_comercial: 'IBUPIRAC FLEX',
  ifa: 'IBUPROFENO',
  concentracion: '400 mg',
  forma_farmaceutica: 'CÁPSULA BLANDA',
  via: 'ORAL',
  presentacion: 'envase x 10 cápsulas blandas',
  laboratorio: 'PFIZER',
  condicion_expendio: 'VENTA LIBRE',
  coberturas: [],
  actualizado: '2026-11-20',
};

afterEach(() => fetch(`${sandbox.url}/__sandbox/reset`, { method: 'POST' }));

describe('catalogue listing', () => {
  it('pages through every item in codigo order', async () => {
    const seen: string[] = [];
    for (let page = 1; ; page++) {
      const res = await get(`/catalogo/v1/medicamentos?page=${page}&per_page=100`);
      const body = await res.json();
      expect(body).toMatchObject({ page, per_page: 100, total: MEDICAMENTOS.length });
      if (body.items.length === 0) break;
      seen.push(...body.items.map((i: { codigo: string }) => i.codigo));
    }
    expect(seen).toHaveLength(MEDICAMENTOS.length);
    expect(seen).toEqual([...seen].sort());
  });

  it('defaults to page 1 of 100 and refuses bad paging', async () => {
    const body = await (await get('/catalogo/v1/medicamentos')).json();
    expect(body.items).toHaveLength(100);
    for (const q of ['per_page=1001', 'per_page=0', 'page=0', 'page=x']) {
      expect((await get(`/catalogo/v1/medicamentos?${q}`)).status).toBe(400);
    }
    expect((await get('/catalogo/v1/medicamentos?per_page=1000')).status).toBe(200);
  });

  it('serves one item by code, or 404', async () => {
    const first = MEDICAMENTOS[0];
    expect(await (await get(`/catalogo/v1/medicamentos/${first.codigo}`)).json()).toEqual(first);
    const missing = await get('/catalogo/v1/medicamentos/0000000');
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.codigo).toBe('NO_ENCONTRADO');
  });
});

describe('catalogue mutation', () => {
  it('adds, replaces and deletes items, and reset restores the fixture', async () => {
    const created = await put('9999999', ITEM);
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ codigo: '9999999', ...ITEM });
    expect(
      (await put('9999999', { ...ITEM, presentacion: 'envase x 20 cápsulas blandas' })).status,
    ).toBe(200);
    const item = await (await get('/catalogo/v1/medicamentos/9999999')).json();
    expect(item.presentacion).toBe('envase x 20 cápsulas blandas');
    expect((await (await get('/catalogo/v1/medicamentos?per_page=1')).json()).total).toBe(
      MEDICAMENTOS.length + 1,
    );

    const victim = MEDICAMENTOS[5].codigo;
    const del = (c: string) =>
      fetch(`${sandbox.url}/__sandbox/catalogo/items/${c}`, { method: 'DELETE' });
    expect((await del(victim)).status).toBe(204);
    expect((await del(victim)).status).toBe(404);
    expect((await get(`/catalogo/v1/medicamentos/${victim}`)).status).toBe(404);

    await fetch(`${sandbox.url}/__sandbox/reset`, { method: 'POST' });
    expect((await get(`/catalogo/v1/medicamentos/${victim}`)).status).toBe(200);
    expect((await get('/catalogo/v1/medicamentos/9999999')).status).toBe(404);
  });

  it('refuses an invalid item or a mismatched code', async () => {
    expect((await put('9999999', { ...ITEM, ifa: '' })).status).toBe(400);
    expect((await put('9999999', { ...ITEM, codigo: '1' })).status).toBe(400);
    expect((await put('9999999', { ...ITEM, coberturas: 'pami' })).status).toBe(400);
  });

  it('does not count or fault the mutation endpoints', async () => {
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ service: 'catalogo', mode: 'error' }),
    });
    expect((await put('9999999', ITEM)).status).toBe(201);
    expect((await get('/catalogo/v1/medicamentos/9999999')).status).toBe(503);
    expect((await (await get('/__sandbox/calls')).json()).catalogo).toBe(1);
  });
});

describe('large catalogue', () => {
  it('serves catalogSize items', async () => {
    const big = await startSandbox({ port: 0, quiet: true, catalogSize: 50_000 });
    try {
      const res = await fetch(`${big.url}/catalogo/v1/medicamentos?page=50&per_page=1000`);
      const body = await res.json();
      expect(body.total).toBe(50_000);
      expect(body.items).toHaveLength(1000);
    } finally {
      await big.close();
    }
  });
});
