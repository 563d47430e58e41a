import request from 'supertest';
import { createClient, TestClient } from './support/clients.js';
import { issueBodyCuir, registrationBody } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

/** Bad input at the edges of the rules: small, clear 400s, never a 500 or a huge answer. */
describe('validation limits', () => {
  let t: TestApp;
  let c: TestClient;

  beforeAll(async () => {
    t = await startTestApp();
    c = await createClient(t, { rateLimitPerMinute: 100_000 });
  });
  afterAll(async () => {
    await t.stop();
  });

  const post = (path: string, body: unknown) =>
    request(t.url)
      .post(path)
      .set(c.headers)
      .set('Content-Type', 'application/json')
      .send(typeof body === 'string' ? body : JSON.stringify(body));

  describe('many unknown fields get a small UNKNOWN_FIELD answer', () => {
    const manyKeys = (n: number) =>
      `{${Array.from({ length: n }, (_, i) => `"k${i}":0`).join(',')}}`;

    it('9,000 unknown keys in a body: the first 20 named, then a count', async () => {
      const body = manyKeys(9000);
      expect(Buffer.byteLength(body)).toBeLessThan(100_000);
      const res = await post('/v1/cuir/generar', body).expect(400);
      expect(res.body.error.code).toBe('UNKNOWN_FIELD');
      const details = res.body.error.details as Array<{ field: string; issue: string }>;
      expect(details).toHaveLength(21);
      expect(details.slice(0, 20).map((d) => d.field)).toEqual(
        Array.from({ length: 20 }, (_, i) => `k${i}`),
      );
      expect(details[20]).toEqual({ field: '…', issue: 'and 8980 more unknown fields' });
      expect(res.text.length).toBeLessThan(4000);
    });

    it('9,000 unknown keys in an item: capped the same way', async () => {
      const body = `{"items":[${manyKeys(9000)}]}`;
      const res = await post('/v1/recetas/registrar', body).expect(400);
      expect(res.body.error.code).toBe('UNKNOWN_FIELD');
      expect(res.body.error.details).toHaveLength(21);
      expect(res.body.error.details[0].field).toBe('items[0].k0');
      expect(res.body.error.details[20].issue).toMatch(/^and \d+ more unknown fields$/);
      expect(res.text.length).toBeLessThan(4000);
    });

    it('hundreds of unknown query parameters: capped the same way', async () => {
      const query = Array.from({ length: 500 }, (_, i) => `p${i}=1`).join('&');
      for (const path of ['/v1/recetas/listar', '/v1/verificaciones', '/v1/transacciones/1']) {
        const res = await request(t.url).get(`${path}?${query}`).set(c.headers).expect(400);
        expect(res.body.error.code).toBe('UNKNOWN_FIELD');
        expect(res.body.error.details).toHaveLength(21);
        expect(res.text.length).toBeLessThan(4000);
      }
    });

    it('a few unknown fields are all named, as before', async () => {
      const res = await post('/v1/recetas/registrar', registrationBody({ x: 1, y: 2 })).expect(400);
      expect(res.body.error).toEqual({
        code: 'UNKNOWN_FIELD',
        message: 'Unknown fields: x, y',
        details: [
          { field: 'x', issue: 'is not a known field' },
          { field: 'y', issue: 'is not a known field' },
        ],
      });
    });
  });

  describe('a body naming a member twice is refused, not read as its last value', () => {
    /** `body` as JSON with `extra` (already JSON: `"name":value`) written into its object. */
    const withMember = (body: Record<string, unknown>, extra: string) =>
      `${JSON.stringify(body).slice(0, -1)},${extra}}`;
    const refused = (res: Pick<request.Response, 'body'>, field: string) =>
      expect(res.body.error).toEqual({
        code: 'VALIDATION_FAILED',
        message: 'Request body names a member twice',
        details: [{ field, issue: 'appears more than once in the same object' }],
      });

    it('registrar: a second documento_paciente → 400 naming it, nothing registered', async () => {
      const body = registrationBody();
      await issueBodyCuir(t, c, body);
      const res = await post(
        '/v1/recetas/registrar',
        withMember(body, '"documento_paciente":"27333444"'),
      ).expect(400);
      refused(res, 'documento_paciente');
      await request(t.url)
        .get(`/v1/recetas/verificar/${body.cuir as string}`)
        .set(c.headers)
        .expect(404);
      // The same body without the second member registers: the CUIR was free.
      await post('/v1/recetas/registrar', body).expect(201);
    });

    it('inside an item, and written with escapes: named at its path', async () => {
      const body = registrationBody();
      const item = JSON.stringify((body.items as object[])[0]).slice(0, -1);
      const text = JSON.stringify({ ...body, items: [] }).replace(
        '"items":[]',
        `"items":[${item},"\u0063antidad":9}]`,
      );
      refused(await post('/v1/recetas/registrar', text).expect(400), 'items[0].cantidad');
    });

    it.each([
      ['utf-16le', (text: string) => Buffer.from(text, 'utf16le')],
      // Big-endian with its byte-order mark, under the charset that leaves the order to it.
      ['utf-16', (text: string) => Buffer.from(`\ufeff${text}`, 'utf16le').swap16()],
      [
        'utf-32le',
        (text: string) =>
          Buffer.from(Uint32Array.from([...text].map((ch) => ch.codePointAt(0)!)).buffer),
      ],
    ])('in %s as in UTF-8: the body read as the parser read it', async (charset, encode) => {
      // fetch, not supertest: it sends a Buffer as it is (supertest writes it out as JSON).
      const res = await fetch(`${t.url}/v1/recetas/registrar`, {
        method: 'POST',
        headers: { ...c.headers, 'Content-Type': `application/json; charset=${charset}` },
        body: encode(withMember(registrationBody(), '"cuir":"x"')),
      });
      expect(res.status).toBe(400);
      refused({ body: (await res.json()) as request.Response['body'] }, 'cuir');
    });

    it('the same name in two objects is no duplicate', async () => {
      const res = await post('/v1/cuir/generar', '{"state":{"state":1}}').expect(400);
      expect(res.body.error.message).not.toMatch(/twice/);
    });
  });

  describe('dates PostgreSQL cannot store, or before 1900, are refused at validation', () => {
    const range = (desde: string, hasta: string) =>
      request(t.url)
        .get('/v1/recetas/listar')
        .query({ fecha_desde: desde, fecha_hasta: hasta })
        .set(c.headers);

    it.each(['0000-01-01T00:00:00Z', '0001-01-01T00:00:00Z', '1899-12-31T23:59:59-03:00'])(
      'registrar: fecha_creacion %s → 400 VALIDATION_FAILED, the value kept out of the logs',
      async (fecha) => {
        const res = await post(
          '/v1/recetas/registrar',
          registrationBody({ fecha_creacion: fecha }),
        ).expect(400);
        expect(res.body.error).toMatchObject({
          code: 'VALIDATION_FAILED',
          details: [{ field: 'fecha_creacion' }],
        });
        expect(res.body.error.details[0].issue).toMatch(/1900/);
        expect(t.rawLogs()).not.toContain(fecha.slice(0, 10));
      },
    );

    it.each([
      ['0000-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'fecha_desde'],
      ['1899-12-31T23:59:59Z', '2026-01-01T00:00:00Z', 'fecha_desde'],
      ['2026-01-01T00:00:00Z', '0000-12-31T00:00:00Z', 'fecha_hasta'],
    ])('listar: %s … %s → 400 INVALID_DATE_RANGE naming %s', async (desde, hasta, field) => {
      const res = await range(desde, hasta).expect(400);
      expect(res.body.error.code).toBe('INVALID_DATE_RANGE');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    it('the widest range allowed is answered: 1900-01-01 to 9999-12-31', async () => {
      await range('1900-01-01T00:00:00Z', '9999-12-31T23:59:59-03:00').expect(200);
      await request(t.url)
        .get('/v1/verificaciones')
        .query({ fecha_desde: '1900-01-01T00:00:00+14:00', fecha_hasta: '9999-12-31T23:59:59Z' })
        .set(c.headers)
        .expect(200);
    });
  });

  describe('page and per_page accept decimal integers only', () => {
    const range = 'fecha_desde=2026-01-01T00:00:00Z&fecha_hasta=2026-01-02T00:00:00Z';
    const endpoints: Array<[string, string]> = [
      ['listar', `/v1/recetas/listar?${range}`],
      ['verificaciones', `/v1/verificaciones?${range}`],
      ['buscar', '/v1/medicamentos/buscar?q=ibuprofeno'],
    ];
    const bad = ['0x10', '1e2', '%2B5', '%205', '5.0', '5%20', '-1', '0', ''];

    it.each(endpoints)(
      '%s: 0x10, 1e2, +5, " 5", 5.0… → 400 naming the parameter',
      async (_n, path) => {
        for (const param of ['page', 'per_page']) {
          for (const value of bad) {
            const res = await request(t.url).get(`${path}&${param}=${value}`).set(c.headers);
            expect({ param, value, status: res.status }).toEqual({ param, value, status: 400 });
            expect(res.body.error.code).toBe('VALIDATION_FAILED');
            expect(res.body.error.details).toEqual([expect.objectContaining({ field: param })]);
          }
        }
      },
    );

    it.each(endpoints)('%s: plain digits are accepted', async (_n, path) => {
      const res = await request(t.url).get(`${path}&page=1&per_page=05`).set(c.headers);
      expect(res.status).toBe(200);
      expect(res.body.data.per_page).toBe(5);
    });
  });
});
