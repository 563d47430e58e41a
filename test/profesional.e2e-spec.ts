import request from 'supertest';
import { createClient, TestClient } from './support/clients.js';
import { sandboxControl } from './support/sandbox-control.js';
import { startTestApp, TestApp } from './support/test-app.js';

const PATH = '/v1/profesional/verificar';

describe('POST /v1/profesional/verificar', () => {
  let t: TestApp;
  let client: TestClient;
  const sandbox = sandboxControl(() => t);
  const verify = (body: unknown, headers = client.headers) =>
    request(t.url)
      .post(PATH)
      .set(headers)
      .send(body as object);
  const refepsCalls = () => sandbox.calls('refeps');

  beforeAll(async () => {
    t = await startTestApp();
    client = await createClient(t, { scopes: ['profesional:read'] });
  });
  afterEach(async () => {
    await sandbox.clearFaults();
  });
  afterAll(async () => {
    await t.stop();
  });

  it('25111222 without jurisdiccion: the first enabled licence (02), all refeps ids', async () => {
    const res = await verify({ documento: '25111222' }).expect(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        documento: '25111222',
        nombre: 'LAURA',
        apellido: 'GÓMEZ',
        matricula: '123456',
        refeps_id: '8123456,8654321',
        jurisdiccion: '02',
        especialidad: 'Clínica médica',
        activo: true,
      },
    });
  });

  it('25111222 with jurisdiccion 06 and 02: the licence held there', async () => {
    const in06 = await verify({ documento: '25111222', jurisdiccion: '06' }).expect(200);
    expect(in06.body.data).toMatchObject({
      matricula: '654321',
      jurisdiccion: '06',
      especialidad: '',
      activo: true,
      refeps_id: '8123456,8654321',
    });
    const in02 = await verify({ documento: '25111222', jurisdiccion: '02' }).expect(200);
    expect(in02.body.data).toMatchObject({ matricula: '123456', jurisdiccion: '02' });
  });

  it('25111222 in a jurisdiction where it holds no licence → 404', async () => {
    const res = await verify({ documento: '25111222', jurisdiccion: '14' }).expect(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('27333444: Carlos Pérez, licence 222333 in 14, activo false', async () => {
    const res = await verify({ documento: '27333444' }).expect(200);
    expect(res.body.data).toEqual({
      documento: '27333444',
      nombre: 'CARLOS',
      apellido: 'PÉREZ',
      matricula: '222333',
      refeps_id: '8222333',
      jurisdiccion: '14',
      especialidad: 'Pediatría',
      activo: false,
    });
  });

  it('99999999 → 404 NOT_FOUND, and the miss is cached', async () => {
    const before = await refepsCalls();
    const res = await verify({ documento: '99999999' }).expect(404);
    expect(res.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    await verify({ documento: '99999999' }).expect(404);
    expect((await refepsCalls()) - before).toBe(1);
  });

  it.each([
    ['documento missing', {}, 'documento'],
    ['documento of 6 digits', { documento: '123456' }, 'documento'],
    ['documento of 9 digits', { documento: '123456789' }, 'documento'],
    ['documento with dots', { documento: '25.111.222' }, 'documento'],
    ['documento with a letter', { documento: '2511122A' }, 'documento'],
    ['documento as a number', { documento: 25111222 }, 'documento'],
    [
      'jurisdiccion not an INDEC code',
      { documento: '25111222', jurisdiccion: '03' },
      'jurisdiccion',
    ],
    ['jurisdiccion of 1 digit', { documento: '25111222', jurisdiccion: '2' }, 'jurisdiccion'],
    ['jurisdiccion null', { documento: '25111222', jurisdiccion: null }, 'jurisdiccion'],
    ['jurisdiccion as a number', { documento: '25111222', jurisdiccion: 6 }, 'jurisdiccion'],
  ])('400 VALIDATION_FAILED for %s', async (_label, body, field) => {
    const res = await verify(body).expect(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
  });

  it('400 UNKNOWN_FIELD for a field the endpoint does not define', async () => {
    const res = await verify({ documento: '25111222', matricula: '123456' }).expect(400);
    expect(res.body.error).toMatchObject({
      code: 'UNKNOWN_FIELD',
      details: [{ field: 'matricula' }],
    });
  });

  it('403 FORBIDDEN without the profesional:read scope; 401 without credentials', async () => {
    const other = await createClient(t, { scopes: ['persona:read'] });
    const res = await verify({ documento: '25111222' }, other.headers).expect(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    await verify({ documento: '25111222' }, {}).expect(401);
  });

  it('50 concurrent verifications of one uncached document make exactly one upstream call', async () => {
    await sandbox.resetCalls();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => verify({ documento: '28444555' })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(new Set(answers.map((r) => JSON.stringify(r.body.data))).size).toBe(1);
    expect(answers[0].body.data).toMatchObject({ jurisdiccion: '82', especialidad: 'Cardiología' });
    expect(await refepsCalls()).toBe(1);
  });

  it.each([
    ['quota', 'NO_TIENE_QUOTA_DISPONIBLE', '20777888'],
    ['auth', 'ERROR_AUTENTICACION', '31666777'],
  ])(
    'a %s refusal → 500 UPSTREAM_UNAVAILABLE; the code is logged, not answered',
    async (mode, code, documento) => {
      await sandbox.fault('refeps', mode);
      const before = await refepsCalls();
      const res = await verify({ documento }).expect(500);
      expect(res.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(JSON.stringify(res.body)).not.toContain(code);
      expect((await refepsCalls()) - before).toBe(1); // a refusal is not retried
      const line = t.logs.find((l) => l.upstream_code === code);
      expect(line).toMatchObject({ system: 'refeps', upstream_code: code });
    },
  );

  it('logs never carry document numbers, names or SISA credentials', () => {
    const raw = t.rawLogs();
    expect(raw.length).toBeGreaterThan(0);
    for (const secret of ['25111222', '27333444', '28444555', '20777888', '31666777']) {
      expect(raw).not.toContain(secret);
    }
    for (const name of ['LAURA', 'GÓMEZ', 'CARLOS', 'PÉREZ', 'MARTÍNEZ', 'SOFÍA']) {
      expect(raw).not.toContain(name);
    }
    expect(raw).not.toMatch(/clave|usuario=|nrodoc/i);
  });
});
