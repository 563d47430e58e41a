import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createClient, TestClient } from './support/clients.js';
import { dispensaBody, dispensasApi, PHARMACY_SCOPES } from './support/dispensas.js';
import { newCuir, register, registrationBody } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

const LIMIT = 3;

/**
 * SPEC 11.5: every route that names a CUIR counts its misses. Dispensation, reservation and
 * their reversal count a 404 in the same per-client budget as verification by CUIR
 * (VERIFICACION_FALLOS_POR_MINUTO); past it they answer 429 as verification does, found CUIRs
 * too. The date checks answering 400 run only once the CUIR is found.
 */
describe('dispensation routes: CUIRs cannot be walked through them', () => {
  let t: TestApp;
  let owner: TestClient;
  let otherOwner: TestClient;
  const api = dispensasApi(() => t);

  beforeAll(async () => {
    t = await startTestApp({
      MINISTRY_DELIVERY_ENABLED: 'false',
      VERIFICACION_FALLOS_POR_MINUTO: String(LIMIT),
    });
    owner = await createClient(t, { scopes: ['cuir:write', 'recetas:write', 'recetas:read'] });
    otherOwner = await createClient(t, {
      scopes: ['cuir:write', 'recetas:write', 'recetas:read'],
    });
  });
  afterAll(async () => {
    await t.stop();
  });

  const pharmacy = () => createClient(t, { scopes: [...PHARMACY_SCOPES] });
  const registered = async (by = owner) => {
    const body = registrationBody({ items: [{ nombre: 'Ibuprofeno 400 mg', cantidad: 2 }] });
    await register(t, by, body).expect(201);
    return body.cuir as string;
  };
  const limited = (res: request.Response) => {
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('RATE_LIMITED');
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  };
  const resultados = async (actor: string): Promise<string[][]> =>
    (
      await t.app
        .get(DataSource)
        .query(`SELECT tipo, resultado FROM auditoria_eventos WHERE actor = $1 ORDER BY id`, [
          actor,
        ])
    ).map((r: { tipo: string; resultado: string }) => [r.tipo, r.resultado]);

  it(`unknown CUIRs on dispensation and reservation count with verification's: past ${LIMIT}, 429 everywhere, found CUIRs too`, async () => {
    const found = await registered();
    const walker = await pharmacy();
    const honest = await pharmacy();
    await api.dispensar(walker, dispensaBody(newCuir(), [[1, 1]])).expect(404);
    await api.reservar(walker, newCuir()).expect(404);
    await api.verificar(walker, newCuir()).expect(404);
    // The budget is spent: every route naming a CUIR refuses, whatever the CUIR.
    limited(await api.dispensar(walker, dispensaBody(newCuir(), [[1, 1]])));
    limited(await api.reservar(walker, newCuir()));
    limited(await api.reservar(walker, found));
    limited(await api.dispensar(walker, dispensaBody(found, [[1, 1]])));
    limited(await api.verificar(walker, found));
    // Other clients are not affected.
    await api.reservar(honest, found).expect(201);
    expect(await resultados(walker.id)).toEqual([
      ['dispensa', 'NOT_FOUND'],
      ['reserva', 'NOT_FOUND'],
      ['verificacion', 'NOT_FOUND'],
      ['dispensa', 'RATE_LIMITED'],
      ['reserva', 'RATE_LIMITED'],
      ['reserva', 'RATE_LIMITED'],
      ['dispensa', 'RATE_LIMITED'],
      ['verificacion', 'RATE_LIMITED'],
    ]);
  });

  it('verification misses spend the budget of dispensation too', async () => {
    const walker = await pharmacy();
    for (let i = 0; i < LIMIT; i++) await api.verificar(walker, newCuir()).expect(404);
    limited(await api.dispensar(walker, dispensaBody(newCuir(), [[1, 1]])));
    limited(await api.reservar(walker, newCuir()));
  });

  it('the refusal comes before the Idempotency-Key: a 429 is never a stored outcome a retry replays', async () => {
    const found = await registered();
    const walker = await pharmacy();
    for (let i = 0; i < LIMIT; i++) await api.verificar(walker, newCuir()).expect(404);
    const key = randomUUID();
    for (let i = 0; i < 2; i++) {
      const res = await api.dispensar(walker, dispensaBody(found, [[1, 1]]), {
        'Idempotency-Key': key,
      });
      limited(res);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
    const stored = await t.app
      .get(DataSource)
      .query(`SELECT 1 FROM idempotency_keys WHERE client_id = $1 AND key = $2`, [walker.id, key]);
    expect(stored).toEqual([]);
  });

  it('a reversal or a release of an unknown id counts as a miss', async () => {
    const walker = await pharmacy();
    await api.revertir(walker, randomUUID()).expect(404);
    await api.liberar(walker, randomUUID()).expect(404);
    await api.revertir(walker, 'not-an-id').expect(404);
    limited(await api.reservar(walker, newCuir()));
    limited(await api.revertir(walker, randomUUID()));
  });

  it('a date refused with 400 is checked only once the CUIR is found, the same whoever owns it', async () => {
    const walker = await pharmacy();
    const ahead = new Date(Date.now() + 10 * 60_000).toISOString();
    const mine = await registered(owner);
    const theirs = await registered(otherOwner);
    const bodies = new Set<string>();
    for (const cuir of [mine, theirs]) {
      const res = await api
        .dispensar(walker, dispensaBody(cuir, [[1, 1]], { fecha_dispensa: ahead }))
        .expect(400);
      expect(res.body.error.details).toEqual([
        { field: 'fecha_dispensa', issue: 'must not be more than 5 minutes in the future' },
      ]);
      bodies.add(JSON.stringify({ ...res.body, request_id: undefined }));
    }
    expect(bodies.size).toBe(1);
    // An unknown CUIR with that date is a miss (404, counted), not a 400.
    for (let i = 0; i < LIMIT; i++)
      await api
        .dispensar(walker, dispensaBody(newCuir(), [[1, 1]], { fecha_dispensa: ahead }))
        .expect(404);
    limited(await api.dispensar(walker, dispensaBody(mine, [[1, 1]], { fecha_dispensa: ahead })));
  });

  it('documents the 429 of the miss budget on each route', async () => {
    const doc = (await request(t.url).get('/openapi.json')).body;
    for (const [path, method] of [
      ['/v1/dispensas', 'post'],
      ['/v1/dispensas/reservas', 'post'],
      ['/v1/dispensas/{id_dispensa}/revertir', 'post'],
      ['/v1/dispensas/reservas/{reserva_id}', 'delete'],
    ]) {
      const op = doc.paths[path][method];
      expect(op.responses['404'].description).toContain('VERIFICACION_FALLOS_POR_MINUTO');
      expect(op.responses['429'].description).toContain('VERIFICACION_FALLOS_POR_MINUTO');
    }
  });
});
