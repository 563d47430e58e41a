import request from 'supertest';
import { DataSource } from 'typeorm';
import { createClient, TestClient } from './support/clients.js';
import { newCuir, register, registrationBody } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

const LIMIT = 3;
const METRIC = 'verificacion_enumeration_blocked_total';

/**
 * CUIRs cannot be walked (contract §3): past VERIFICACION_FALLOS_POR_MINUTO unknown CUIRs in a
 * minute, a client's verifications by CUIR answer 429 until the minute ends, found ones
 * included; other clients are not affected. Counted where the general rate limit counts
 * (RATE_LIMIT_STORE), so two instances on one database share the count.
 */
describe('verification by CUIR: enumeration is refused', () => {
  let t: TestApp;
  let t2: TestApp;
  let owner: TestClient;
  let walker: TestClient;
  let honest: TestClient;
  let found: string;

  beforeAll(async () => {
    const env = {
      MINISTRY_DELIVERY_ENABLED: 'false',
      VERIFICACION_FALLOS_POR_MINUTO: String(LIMIT),
      RATE_LIMIT_STORE: 'postgres',
    };
    t = await startTestApp(env);
    t2 = await startTestApp(env);
    owner = await createClient(t, { scopes: ['cuir:write', 'recetas:write', 'recetas:read'] });
    walker = await createClient(t, { scopes: ['recetas:verify'] });
    honest = await createClient(t, { scopes: ['recetas:verify'] });
    const body = registrationBody();
    await register(t, owner, body).expect(201);
    found = body.cuir as string;
  });
  afterAll(async () => {
    await t2?.stop();
    await t?.stop();
  });

  const verify = (app: TestApp, c: TestClient, cuir: string) =>
    request(app.url).get(`/v1/recetas/verificar/${cuir}`).set(c.headers);
  const refused = async (app: TestApp, c: TestClient, cuir: string) => {
    const res = await verify(app, c, cuir).expect(429);
    expect(res.body.error.code).toBe('RATE_LIMITED');
    const retry = Number(res.headers['retry-after']);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    return res;
  };

  /** The verification events of `actor` in the event log, their `resultado`s in order. */
  const resultados = async (actor: string): Promise<string[]> =>
    (
      await t.app
        .get(DataSource)
        .query(
          `SELECT resultado FROM auditoria_eventos WHERE tipo = 'verificacion' AND actor = $1 ORDER BY id`,
          [actor],
        )
    ).map((r: { resultado: string }) => r.resultado);
  /** Both instances' warnings naming `clientId`. */
  const warningsNaming = (clientId: string) =>
    [...t.logs, ...t2.logs].filter(
      (l) => l.level === 'warn' && JSON.stringify(l).includes(clientId),
    );

  it(`past ${LIMIT} unknown CUIRs in a minute: 429 with Retry-After, found CUIRs too; other clients unaffected`, async () => {
    await verify(t, walker, found).expect(200); // a found CUIR does not count
    const misses = Array.from({ length: LIMIT + 2 }, () => newCuir());
    // Misses on both instances count together (RATE_LIMIT_STORE=postgres).
    for (const [n, cuir] of misses.slice(0, LIMIT).entries())
      await verify(n % 2 ? t2 : t, walker, cuir).expect(404);
    await refused(t, walker, misses[LIMIT]);
    await refused(t2, walker, misses[LIMIT + 1]);
    await refused(t, walker, found);
    await refused(t2, walker, found);

    await verify(t, honest, found).expect(200);
    await verify(t2, honest, newCuir()).expect(404);
    await verify(t, honest, found).expect(200);

    // One warning naming the client, once for the minute whichever instance refused, no CUIR.
    const warnings = warningsNaming(walker.id);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].msg).toMatch(/enumeration/);
    const line = JSON.stringify(warnings[0]);
    for (const cuir of [found, ...misses]) expect(line).not.toContain(cuir);
    expect(line).not.toMatch(/\d{41}/);

    // Counted in Prometheus by the instance that refused first, with no client label.
    const scraped = [
      (await request(t.url).get('/metrics').expect(200)).text,
      (await request(t2.url).get('/metrics').expect(200)).text,
    ];
    const count = (text: string) =>
      Number(new RegExp(`^${METRIC} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);
    expect(scraped.map(count).reduce((a, b) => a + b)).toBe(1);
    for (const text of scraped) expect(text).not.toContain(walker.id);
  });

  it('the refusals are in the event log (resultado RATE_LIMITED), after the misses', async () => {
    expect(await resultados(walker.id)).toEqual([
      'ok',
      ...Array(LIMIT).fill('NOT_FOUND'),
      ...Array(4).fill('RATE_LIMITED'),
    ]);
  });

  it(`a burst of unknown CUIRs at once, on both instances: exactly ${LIMIT} answer 404, the rest 429`, async () => {
    const burster = await createClient(t, { scopes: ['recetas:verify'] });
    const BURST = LIMIT * 6;
    // Every request is in flight before any is answered: each passes the check made before
    // the lookup, so only the count taken after it can hold the limit.
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, n) => verify(n % 2 ? t2 : t, burster, newCuir())),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array(LIMIT).fill(404), ...Array(BURST - LIMIT).fill(429)]);
    for (const a of answers.filter((x) => x.status === 429))
      expect(a.body.error.code).toBe('RATE_LIMITED');
    expect((await resultados(burster.id)).sort()).toEqual([
      ...Array(LIMIT).fill('NOT_FOUND'),
      ...Array(BURST - LIMIT).fill('RATE_LIMITED'),
    ]);
    expect(warningsNaming(burster.id)).toHaveLength(1);
  });

  it('documents the 429 on the operation', async () => {
    const doc = (await request(t.url).get('/openapi.json')).body;
    const op = doc.paths['/v1/recetas/verificar/{cuir}'].get;
    expect(op.description).toContain('VERIFICACION_FALLOS_POR_MINUTO');
    expect(op.responses['429'].description).toContain('VERIFICACION_FALLOS_POR_MINUTO');
  });
});
