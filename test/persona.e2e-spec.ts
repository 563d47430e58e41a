import request from 'supertest';
import { createClient, TestClient } from './support/clients.js';
import { sandboxControl } from './support/sandbox-control.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * Age from a yyyy-mm-dd birth date on Argentina's calendar, written independently of the
 * service's helper (Argentina has no DST: UTC-3 all year).
 */
function expectedAge(birth: string): number {
  const today = new Date(Date.now() - 3 * 3600 * 1000).toISOString().slice(0, 10);
  const years = Number(today.slice(0, 4)) - Number(birth.slice(0, 4));
  return today.slice(5) >= birth.slice(5) ? years : years - 1;
}

describe('POST /v1/persona/verificar', () => {
  let t: TestApp;
  let client: TestClient;
  const sandbox = sandboxControl(() => t);

  beforeAll(async () => {
    t = await startTestApp();
    client = await createClient(t, { scopes: ['persona:read'] });
  });
  afterEach(async () => {
    await sandbox.clearFaults();
  });
  afterAll(async () => {
    await t.stop();
  });

  const verify = (body: unknown, headers = client.headers) =>
    request(t.url)
      .post('/v1/persona/verificar')
      .set(headers)
      .send(body as object);
  const renaperCalls = async () =>
    (
      await request(t.sandboxUrl as string)
        .get('/__sandbox/calls')
        .expect(200)
    ).body.renaper as number;

  it('30111222: Ana María Fernández, age computed, address on one line', async () => {
    const res = await verify({ documento: '30111222' }).expect(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        nombre: 'ANA MARÍA',
        apellido: 'FERNÁNDEZ',
        edad: expectedAge('1985-03-14'),
        domicilio: 'AV. CORRIENTES 1234, 5 B, CIUDAD AUTÓNOMA DE BUENOS AIRES',
        documento: '30111222',
      },
    });
    expect(res.body.data.edad).toBeGreaterThanOrEqual(40);
  });

  it('an empty floor/flat is left out of the address', async () => {
    const res = await verify({ documento: '27333444' }).expect(200);
    expect(res.body.data).toMatchObject({
      domicilio: 'BV. SAN JUAN 820, CÓRDOBA',
      edad: expectedAge('1979-11-05'),
    });
  });

  it('99999999 → 404 NOT_FOUND', async () => {
    const res = await verify({ documento: '99999999' }).expect(404);
    expect(res.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
  });

  it('keeps citizen data in a short cache: a repeat within it does not call RENAPER', async () => {
    await verify({ documento: '42555666' }).expect(200);
    const before = await renaperCalls();
    await verify({ documento: '42555666' }).expect(200);
    expect(await renaperCalls()).toBe(before);
  });

  it("keeps that cache per client: B's first lookup of a citizen A verified calls RENAPER", async () => {
    // Contract §3: one tenant must not learn from timing which citizens another looked up.
    const other = await createClient(t, { scopes: ['persona:read'] });
    await verify({ documento: '30111222' }).expect(200);
    const before = await renaperCalls();
    const res = await verify({ documento: '30111222' }, other.headers).expect(200);
    expect(await renaperCalls()).toBe(before + 1);
    expect(res.body.data.documento).toBe('30111222');
    // Each client's own repeat is still answered from its cache.
    await verify({ documento: '30111222' }, other.headers).expect(200);
    await verify({ documento: '30111222' }).expect(200);
    expect(await renaperCalls()).toBe(before + 1);
  });

  it.each([
    ['missing', {}],
    ['6 digits', { documento: '123456' }],
    ['9 digits', { documento: '123456789' }],
    ['dots', { documento: '30.111.222' }],
    ['a letter', { documento: '3011122x' }],
    ['spaces', { documento: ' 30111222' }],
    ['a number', { documento: 30111222 }],
    ['null', { documento: null }],
  ])('400 VALIDATION_FAILED for documento %s', async (_label, body) => {
    const res = await verify(body).expect(400);
    expect(res.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'documento' }],
    });
  });

  it('400 UNKNOWN_FIELD for a field the endpoint does not define', async () => {
    const res = await verify({ documento: '30111222', sexo: 'F' }).expect(400);
    expect(res.body.error).toMatchObject({ code: 'UNKNOWN_FIELD', details: [{ field: 'sexo' }] });
  });

  it('403 FORBIDDEN without the persona:read scope', async () => {
    const other = await createClient(t, { scopes: ['profesional:read'] });
    const res = await verify({ documento: '30111222' }, other.headers).expect(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });

  it.each([
    ['quota', 'QUOTA_DIARIA_EXCEDIDA', '35222111'],
    ['auth', 'ERROR_AUTENTICACION', '12345678'],
  ])('a %s refusal → 500 UPSTREAM_UNAVAILABLE; code in the log only', async (mode, code, doc) => {
    await sandbox.fault('renaper', mode);
    const res = await verify({ documento: doc }).expect(500);
    expect(res.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(JSON.stringify(res.body)).not.toContain(code);
    expect(t.logs.find((l) => l.upstream_code === code)).toMatchObject({ system: 'renaper' });
  });

  it('logs never carry document numbers, names or addresses', () => {
    const raw = t.rawLogs();
    expect(raw.length).toBeGreaterThan(0);
    for (const doc of ['30111222', '27333444', '42555666', '35222111', '12345678', '25111222']) {
      expect(raw).not.toContain(doc);
    }
    for (const word of ['ANA MARÍA', 'FERNÁNDEZ', 'CORRIENTES', 'SAN JUAN', 'BENÍTEZ']) {
      expect(raw).not.toContain(word);
    }
    expect(raw).not.toMatch(/clave|usuario=|nrodoc/i);
  });
});

describe('POST /v1/persona/verificar: citizen data expires with the short cache', () => {
  let t: TestApp;
  let client: TestClient;
  const sandbox = sandboxControl(() => t);

  beforeAll(async () => {
    t = await startTestApp({ PERSONA_CACHE_TTL_SECONDS: '1' });
    client = await createClient(t, { scopes: ['persona:read'] });
  });
  afterEach(async () => {
    await sandbox.clearFaults();
  });
  afterAll(async () => {
    await t.stop();
  });

  it('once expired, a cached citizen is not served while RENAPER is down', async () => {
    const verify = () =>
      request(t.url)
        .post('/v1/persona/verificar')
        .set(client.headers)
        .send({ documento: '30111222' });
    await verify().expect(200);
    await new Promise((r) => setTimeout(r, 1100));
    await sandbox.fault('renaper', 'error');
    const res = await verify().expect(500);
    expect(res.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
  });
});
