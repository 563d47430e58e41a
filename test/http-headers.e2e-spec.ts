import request, { Response } from 'supertest';
import { createClient, TestClient } from './support/clients.js';
import { startTestApp, TestApp } from './support/test-app.js';

/** Contract §1's response headers, on every kind of answer, and methods no route takes. */
describe('response headers and methods', () => {
  let t: TestApp;
  let c: TestClient;

  beforeAll(async () => {
    t = await startTestApp();
    c = await createClient(t);
  });
  afterAll(async () => {
    await t.stop();
  });

  const listar =
    '/v1/recetas/listar?fecha_desde=2026-01-01T00:00:00Z&fecha_hasta=2026-01-02T00:00:00Z';
  const json = 'application/json';

  describe('X-Content-Type-Options: nosniff everywhere, Cache-Control: no-store on /v1', () => {
    const v1Answers: Array<[string, () => Promise<Response>, number]> = [
      ['a listing', () => request(t.url).get(listar).set(c.headers), 200],
      ['a detail (404)', () => request(t.url).get('/v1/recetas/1').set(c.headers), 404],
      ['no credentials (401)', () => request(t.url).get(listar), 401],
      ['an unknown /v1 route (404)', () => request(t.url).get('/v1/nope'), 404],
      ['a method no route takes (405)', () => request(t.url).delete('/v1/recetas/listar'), 405],
      [
        'malformed JSON (400)',
        () => request(t.url).post('/v1/cuir/generar').set('Content-Type', json).send('{"a":'),
        400,
      ],
      ['no JSON content type (415)', () => request(t.url).post('/v1/cuir/generar').send('x'), 415],
      [
        'a body over 100 kB (413)',
        () =>
          request(t.url)
            .post('/v1/cuir/generar')
            .set('Content-Type', json)
            .send(JSON.stringify({ x: 'y'.repeat(200_000) })),
        413,
      ],
      [
        'upper-case /V1 path',
        () => request(t.url).get(listar.replace('/v1', '/V1')).set(c.headers),
        200,
      ],
    ];

    it.each(v1Answers)('%s', async (_name, send, status) => {
      const res = await send();
      expect(res.status).toBe(status);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it.each([
      ['/health/live', 200],
      ['/openapi.json', 200],
      ['/nope', 404],
    ])('%s: nosniff', async (path, status) => {
      const res = await request(t.url).get(path).expect(status);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });
  });

  describe('PUT or PATCH without a body: 405 with Allow, not 415', () => {
    it.each(['PUT', 'PATCH'])('%s on a POST route', async (method) => {
      const res = await request(t.url)
        [method === 'PUT' ? 'put' : 'patch']('/v1/cuir/generar')
        .set(c.headers);
      expect(res.status).toBe(405);
      expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
      expect(res.headers.allow).toBe('POST');
    });

    it.each(['PUT', 'PATCH'])('%s on a GET route, with a non-JSON body too', async (method) => {
      const res = await request(t.url)
        [method === 'PUT' ? 'put' : 'patch']('/v1/recetas/listar')
        .set(c.headers)
        .set('Content-Type', 'text/plain')
        .send('hello');
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET');
    });

    it('PUT on an unknown path stays 404', async () => {
      const res = await request(t.url).put('/v1/nope').set(c.headers);
      expect(res.status).toBe(404);
    });
  });
});
