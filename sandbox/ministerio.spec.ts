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

const cuir = (n: number) => `00010002020102${String(n).padStart(25, '0')}01`;
const pointer = (n: number) => ({
  cuir: cuir(n),
  documento_paciente: '30111222',
  fecha_creacion: '2026-11-20T10:15:00-03:00',
  refeps_id: '8123456',
  matricula_profesional: '123456',
  id_transaccion: String(n),
  url_verificacion: `https://recetas.example.com/verificar/${cuir(n)}`,
});

async function token(): Promise<string> {
  const res = await fetch(`${sandbox.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&client_id=sandbox&client_secret=sandbox',
  });
  expect(res.status).toBe(200);
  return (await res.json()).access_token;
}

const send = (bearer: string | undefined, body: unknown, signal?: AbortSignal) =>
  fetch(`${sandbox.url}/v1/punteros`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
    body: JSON.stringify(body),
    signal,
  });

const fault = (body: object) =>
  fetch(`${sandbox.url}/__sandbox/faults`, {
    method: 'POST',
    body: JSON.stringify({ service: 'ministerio', ...body }),
  });

const punteros = async (query = '') =>
  (await (await fetch(`${sandbox.url}/__sandbox/ministerio/punteros${query}`)).json()).punteros;

describe('ministry token', () => {
  it('issues bearer tokens for form or Basic credentials', async () => {
    const res = await fetch(`${sandbox.url}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('sandbox:sandbox').toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 300,
    });
    expect(await token()).toEqual(expect.any(String));
  });

  it('refuses wrong credentials and other grants', async () => {
    const post = (body: string) =>
      fetch(`${sandbox.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
    const wrong = await post('grant_type=client_credentials&client_id=sandbox&client_secret=no');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: 'invalid_client' });
    expect((await post('grant_type=password')).status).toBe(400);
  });

  it('expires tokens', async () => {
    const shortLived = await startSandbox({ port: 0, quiet: true, ministryTokenTtlSeconds: 0 });
    try {
      const res = await fetch(`${shortLived.url}/oauth/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: 'sandbox',
          client_secret: 'sandbox',
        }),
      });
      const { access_token } = await res.json();
      const delivery = await fetch(`${shortLived.url}/v1/punteros`, {
        method: 'POST',
        headers: { authorization: `Bearer ${access_token}` },
        body: JSON.stringify(pointer(1)),
      });
      expect(delivery.status).toBe(401);
    } finally {
      await shortLived.close();
    }
  });
});

describe('ministry pointers', () => {
  it('creates one pointer per CUIR and counts every delivery', async () => {
    const t = await token();
    const first = await send(t, pointer(1));
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ id: 'PTR-000001', cuir: cuir(1), estado: 'RECIBIDO' });

    const again = await send(t, { ...pointer(1), id_transaccion: '99' });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({
      id: 'PTR-000001',
      cuir: cuir(1),
      estado: 'RECIBIDO',
      duplicado: true,
    });
    expect((await send(t, pointer(2))).status).toBe(201);

    const [held] = await punteros(`?cuir=${cuir(1)}`);
    expect(held).toMatchObject({
      id: 'PTR-000001',
      recepciones: 2,
      payload: { id_transaccion: '99' },
    });
    expect(Date.parse(held.ultima_recepcion_at)).toBeGreaterThanOrEqual(
      Date.parse(held.primera_recepcion_at),
    );
    expect(await punteros()).toHaveLength(2);
  });

  it('refuses missing or unknown tokens', async () => {
    expect((await send(undefined, pointer(1))).status).toBe(401);
    expect((await send('nope', pointer(1))).status).toBe(401);
    expect(await punteros()).toEqual([]);
  });

  it.each([
    ['no cuir', { ...pointer(1), cuir: undefined }],
    ['short cuir', { ...pointer(1), cuir: '123' }],
    ['bad document', { ...pointer(1), documento_paciente: '30.111.222' }],
    ['date without offset', { ...pointer(1), fecha_creacion: '2026-11-20T10:15:00' }],
    ['numeric id_transaccion', { ...pointer(1), id_transaccion: 1 }],
    ['bad url', { ...pointer(1), url_verificacion: 'not a url' }],
  ])('answers 400 DATOS_INVALIDOS for %s', async (_name, body) => {
    const res = await send(await token(), body);
    expect(res.status).toBe(400);
    expect((await res.json()).error.codigo).toBe('DATOS_INVALIDOS');
  });

  it('accepts a pointer without refeps_id', async () => {
    expect((await send(await token(), { ...pointer(3), refeps_id: undefined })).status).toBe(201);
  });
});

describe('ministry faults', () => {
  it('error: 503 and nothing stored', async () => {
    const t = await token();
    await fault({ mode: 'error' });
    expect((await send(t, pointer(1))).status).toBe(503);
    expect(await punteros()).toEqual([]);
  });

  it('reject: 422 RECHAZADO and nothing stored', async () => {
    const t = await token();
    await fault({ mode: 'reject' });
    const res = await send(t, pointer(1));
    expect(res.status).toBe(422);
    expect((await res.json()).error.codigo).toBe('RECHAZADO');
    expect(await punteros()).toEqual([]);
  });

  it('timeout: stores the pointer but never answers', async () => {
    const t = await token();
    await fault({ mode: 'timeout' });
    await expect(send(t, pointer(1), AbortSignal.timeout(300))).rejects.toThrow();
    expect(await punteros()).toMatchObject([{ cuir: cuir(1), recepciones: 1 }]);

    await fetch(`${sandbox.url}/__sandbox/faults`, { method: 'DELETE' });
    const retry = await send(t, pointer(1));
    expect(retry.status).toBe(200);
    expect((await retry.json()).duplicado).toBe(true);
    expect((await punteros())[0].recepciones).toBe(2);
  });

  it('slow: answers after delay_ms', async () => {
    const t = await token();
    await fault({ mode: 'slow', delay_ms: 300 });
    const started = Date.now();
    expect((await send(t, pointer(1))).status).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });

  it('leaves the token endpoint alone, so a rate counts deliveries only', async () => {
    await fault({ mode: 'error', rate: 0.5 });
    const statuses: number[] = [];
    for (let n = 1; n <= 4; n++) statuses.push((await send(await token(), pointer(n))).status);
    expect(statuses).toEqual([201, 503, 201, 503]);
  });
});

const cancel = (bearer: string | undefined, n: number, body: object = {}, signal?: AbortSignal) =>
  fetch(`${sandbox.url}/v1/punteros/${cuir(n)}/anulacion`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
    body: JSON.stringify({
      id_transaccion: String(n),
      motivo: 'Error en la dosis',
      fecha_anulacion: '2026-11-21T09:00:00-03:00',
      ...body,
    }),
    signal,
  });

describe('ministry cancellations', () => {
  it('marks the pointer cancelled once, idempotently on the CUIR; recepciones stay as they were', async () => {
    const t = await token();
    await send(t, pointer(1));
    const first = await cancel(t, 1);
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ id: 'PTR-000001', cuir: cuir(1), estado: 'ANULADO' });
    const again = await cancel(t, 1, { motivo: 'otro motivo' });
    expect(again.status).toBe(200);
    expect((await again.json()).duplicado).toBe(true);
    const [p] = await punteros(`?cuir=${cuir(1)}`);
    expect(p).toMatchObject({
      recepciones: 1,
      anulada: true,
      motivo_anulacion: 'Error en la dosis',
      anulaciones: 2,
    });
    expect(Date.parse(p.anulada_at)).not.toBeNaN();
  });

  it('a pointer never cancelled says so', async () => {
    await send(await token(), pointer(2));
    expect((await punteros())[0]).toMatchObject({
      anulada: false,
      motivo_anulacion: null,
      anulada_at: null,
      anulaciones: 0,
    });
  });

  it('404 NO_ENCONTRADO for a CUIR it holds no pointer of; 401 without a token; 400 for bad bodies', async () => {
    const t = await token();
    const res = await cancel(t, 9);
    expect(res.status).toBe(404);
    expect((await res.json()).error.codigo).toBe('NO_ENCONTRADO');
    expect((await cancel(undefined, 9)).status).toBe(401);
    await send(t, pointer(3));
    for (const body of [{ motivo: '' }, { id_transaccion: 3 }, { fecha_anulacion: '2026-11-21' }]) {
      const bad = await cancel(t, 3, body);
      expect(bad.status).toBe(400);
    }
    expect((await punteros())[0].anulada).toBe(false);
  });

  it('has the usual faults: error and reject store nothing; timeout stores it and loses the answer', async () => {
    const t = await token();
    await send(t, pointer(4));
    await fault({ mode: 'error' });
    expect((await cancel(t, 4)).status).toBe(503);
    await fault({ mode: 'reject' });
    expect((await cancel(t, 4)).status).toBe(422);
    expect((await punteros())[0].anulada).toBe(false);
    await fault({ mode: 'timeout' });
    await expect(cancel(t, 4, {}, AbortSignal.timeout(300))).rejects.toThrow();
    await fetch(`${sandbox.url}/__sandbox/faults`, { method: 'DELETE' });
    expect((await cancel(t, 4)).status).toBe(200);
    expect((await punteros())[0]).toMatchObject({ anulada: true, anulaciones: 2, recepciones: 1 });
  });
});
