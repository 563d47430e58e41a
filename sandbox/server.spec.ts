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
afterEach(() => fetch(`${sandbox.url}/__sandbox/reset`, { method: 'POST' }));

const REFEPS =
  '/sisa/services/rest/profesional/obtener?usuario=sandbox&clave=sandbox&nrodoc=25111222';
const RENAPER = '/sisa/services/rest/cmdb/obtener?usuario=sandbox&clave=sandbox&nrodoc=30111222';

const control = (method: string, path: string, body?: unknown) =>
  fetch(`${sandbox.url}/__sandbox/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const refeps = async () => {
  const res = await fetch(sandbox.url + REFEPS, { headers: { accept: 'application/json' } });
  return { status: res.status, body: await res.text() };
};

describe('startSandbox', () => {
  it('listens on a random loopback port', () => {
    expect(sandbox.port).toBeGreaterThan(0);
    expect(sandbox.url).toBe(`http://127.0.0.1:${sandbox.port}`);
  });

  it('answers 404 JSON for unknown paths and 405 for a wrong method', async () => {
    const res = await fetch(`${sandbox.url}/nowhere`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    const wrong = await fetch(sandbox.url + REFEPS, { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
  });
});

describe('fault switch', () => {
  it('sets, lists and clears faults', async () => {
    const set = await control('POST', 'faults', { service: 'refeps', mode: 'error', rate: 0.5 });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ service: 'refeps', mode: 'error', rate: 0.5 });
    await control('POST', 'faults', { service: 'catalogo', mode: 'slow', delay_ms: 10 });
    expect((await (await control('GET', 'faults')).json()).faults).toEqual([
      { service: 'refeps', mode: 'error', rate: 0.5, delay_ms: 1500 },
      { service: 'catalogo', mode: 'slow', rate: 1, delay_ms: 10 },
    ]);
    expect((await control('DELETE', 'faults')).status).toBe(204);
    expect((await (await control('GET', 'faults')).json()).faults).toEqual([]);
  });

  it('answers 400 to a bad body', async () => {
    expect((await control('POST', 'faults', { service: 'refeps', mode: 'nope' })).status).toBe(400);
    const notJson = await fetch(`${sandbox.url}/__sandbox/faults`, { method: 'POST', body: '{' });
    expect(notJson.status).toBe(400);
  });

  it('error: SISA answers 503 with an HTML page', async () => {
    await control('POST', 'faults', { service: 'refeps', mode: 'error' });
    const res = await fetch(sandbox.url + REFEPS);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toContain('text/html');
    // other systems are unaffected
    expect((await fetch(sandbox.url + RENAPER)).status).toBe(200);
  });

  it('rate 0.5 alternates ok and fault, starting with ok', async () => {
    await control('POST', 'faults', { service: 'refeps', mode: 'error', rate: 0.5 });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await refeps()).status);
    expect(statuses).toEqual([200, 503, 200, 503, 200, 503]);
  });

  it('quota and auth: HTTP 200 with the SISA resultado', async () => {
    await control('POST', 'faults', { service: 'refeps', mode: 'quota' });
    expect(JSON.parse((await refeps()).body)).toEqual({ resultado: 'NO_TIENE_QUOTA_DISPONIBLE' });
    await control('POST', 'faults', { service: 'refeps', mode: 'auth' });
    expect(JSON.parse((await refeps()).body)).toEqual({ resultado: 'ERROR_AUTENTICACION' });
    await control('POST', 'faults', { service: 'refeps', mode: 'ok' });
    expect(JSON.parse((await refeps()).body).resultado).toBe('OK');
  });

  it('slow: answers normally after delay_ms', async () => {
    await control('POST', 'faults', { service: 'renaper', mode: 'slow', delay_ms: 300 });
    const started = Date.now();
    const res = await fetch(sandbox.url + RENAPER);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<resultado>OK</resultado>');
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });

  it('timeout: holds the request until the client gives up', async () => {
    await control('POST', 'faults', { service: 'catalogo', mode: 'timeout' });
    const started = Date.now();
    await expect(
      fetch(`${sandbox.url}/catalogo/v1/medicamentos`, { signal: AbortSignal.timeout(300) }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });
});

describe('call counters and reset', () => {
  it('counts calls per system, not control calls, and resets', async () => {
    await refeps();
    await refeps();
    await fetch(sandbox.url + RENAPER);
    await fetch(`${sandbox.url}/catalogo/v1/medicamentos/1`);
    await fetch(`${sandbox.url}/nowhere`);
    expect(await (await control('GET', 'calls')).json()).toEqual({
      refeps: 2,
      renaper: 1,
      catalogo: 1,
      ministerio: 0,
    });
    expect(await (await control('GET', 'calls/routes')).json()).toEqual({
      'refeps GET /sisa/services/rest/profesional/obtener': 2,
      'renaper GET /sisa/services/rest/cmdb/obtener': 1,
      'catalogo GET /catalogo/v1/medicamentos/1': 1,
    });
    expect((await control('DELETE', 'calls')).status).toBe(204);
    expect((await (await control('GET', 'calls')).json()).refeps).toBe(0);
  });

  it('reset clears faults and counters', async () => {
    await control('POST', 'faults', { service: 'refeps', mode: 'error' });
    await refeps();
    expect((await control('POST', 'reset')).status).toBe(204);
    expect((await (await control('GET', 'faults')).json()).faults).toEqual([]);
    expect((await (await control('GET', 'calls')).json()).refeps).toBe(0);
    expect((await refeps()).status).toBe(200);
  });
});

describe('close', () => {
  it('ends held requests instead of waiting for them', async () => {
    const own = await startSandbox({ port: 0, quiet: true });
    await fetch(`${own.url}/__sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ service: 'refeps', mode: 'timeout' }),
    });
    const held = fetch(own.url + REFEPS);
    held.catch(() => undefined);
    while ((await (await fetch(`${own.url}/__sandbox/calls`)).json()).refeps === 0) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(1000);
    await expect(held).rejects.toThrow();
    await own.close(); // idempotent
  });

  it('clears pending slow answers', async () => {
    const own = await startSandbox({ port: 0, quiet: true });
    await fetch(`${own.url}/__sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ service: 'renaper', mode: 'slow', delay_ms: 60_000 }),
    });
    const slow = fetch(own.url + RENAPER);
    slow.catch(() => undefined);
    while ((await (await fetch(`${own.url}/__sandbox/calls`)).json()).renaper === 0) {
      await new Promise((r) => setTimeout(r, 10));
    }
    await own.close();
    await expect(slow).rejects.toThrow();
  });
});
