import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { TestClient } from '../support/clients.js';
import { issueBodyCuir, registrationBody } from '../support/recetas.js';
import type { TestApp } from '../support/test-app.js';
import { LogGuard } from './support/log-guard.js';
import { checkAnswer, rawRequest, RawResponse } from './support/raw-http.js';
import { startWatchedApp, watchedClient } from './support/setup.js';

/**
 * Races (contract §3): the database arbitrates, not the process. 100 requests at once, each on its
 * own connection, against the invariants the contract promises.
 */
describe('races', () => {
  const guard = new LogGuard();
  const N = 100;
  let t: TestApp;
  let c: TestClient;
  let db: DataSource;

  beforeAll(async () => {
    t = await startWatchedApp(guard, 'races-app', { MINISTRY_DELIVERY_ENABLED: 'false' });
    c = await watchedClient(t, guard);
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.stop();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    rawRequest(t.url, {
      method: 'POST',
      path,
      fresh: true,
      headers: { ...c.headers, 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const burst = async (one: () => Promise<RawResponse>): Promise<RawResponse[]> => {
    const answers = await Promise.all(Array.from({ length: N }, one));
    answers.forEach((a, i) =>
      checkAnswer(a, `request ${i} of the burst`, { serverLog: () => t.rawLogs() }),
    );
    return answers;
  };
  const byStatus = (answers: RawResponse[]) =>
    answers.reduce<Record<string, number>>((acc, a) => {
      const k = `${a.status} ${a.body?.error?.code ?? ''}`.trim();
      acc[k] = (acc[k] ?? 0) + 1;
      return acc;
    }, {});
  const count = async (sql: string, params: unknown[]) =>
    Number((await db.query(sql, params))[0].n);

  it(`${N} concurrent requests with one Idempotency-Key create one prescription`, async () => {
    const body = registrationBody();
    await issueBodyCuir(t, c, body);
    const key = randomUUID();
    const answers = await burst(() =>
      post('/v1/recetas/registrar', body, { 'Idempotency-Key': key }),
    );
    const statuses = byStatus(answers);
    // Each answer is the first one, its replay, or "the first is still running".
    for (const s of Object.keys(statuses))
      expect(['201', '409 IDEMPOTENCY_KEY_IN_PROGRESS']).toContain(s);
    const ids = new Set(
      answers.filter((a) => a.status === 201).map((a) => a.body.data.id_transaccion),
    );
    expect(ids.size).toBe(1);
    expect(await count('SELECT count(*)::int AS n FROM recetas WHERE cuir = $1', [body.cuir])).toBe(
      1,
    );
    expect(
      await count(
        'SELECT count(*)::int AS n FROM recetas WHERE client_id = $1 AND idempotency_key = $2',
        [c.id, key],
      ),
    ).toBe(1);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM ${t.config.queue.schema}.job WHERE data->>'id_transaccion' = $1`,
        [[...ids][0]],
      ),
    ).toBe(1);
    // Once settled, a retry is a replay of the same answer.
    const retry = await post('/v1/recetas/registrar', body, { 'Idempotency-Key': key });
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.data.id_transaccion).toBe([...ids][0]);
  });

  it(`${N} concurrent requests with one Idempotency-Key and different bodies: one prescription`, async () => {
    const key = randomUUID();
    const bodies = Array.from({ length: N }, () => registrationBody());
    for (const body of bodies) await issueBodyCuir(t, c, body);
    let i = 0;
    const answers = await burst(() =>
      post('/v1/recetas/registrar', bodies[i++], { 'Idempotency-Key': key }),
    );
    for (const s of Object.keys(byStatus(answers)))
      expect(['201', '409 IDEMPOTENCY_KEY_IN_PROGRESS', '409 IDEMPOTENCY_KEY_REUSED']).toContain(s);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(
      await count(
        'SELECT count(*)::int AS n FROM recetas WHERE client_id = $1 AND idempotency_key = $2',
        [c.id, key],
      ),
    ).toBe(1);
  });

  it(`${N} concurrent registrations of one CUIR without keys: one 201, the rest 409`, async () => {
    const body = registrationBody();
    await issueBodyCuir(t, c, body);
    const answers = await burst(() => post('/v1/recetas/registrar', body));
    expect(byStatus(answers)).toEqual({ '201': 1, '409 CUIR_ALREADY_REGISTERED': N - 1 });
    expect(await count('SELECT count(*)::int AS n FROM recetas WHERE cuir = $1', [body.cuir])).toBe(
      1,
    );
    const id = answers.find((a) => a.status === 201)?.body.data.id_transaccion as string;
    // The losers left nothing behind: one history row and one job, both the winner's.
    expect(
      await count(
        `SELECT count(*)::int AS n FROM receta_historial h JOIN recetas r USING (id_transaccion) WHERE r.cuir = $1`,
        [body.cuir],
      ),
    ).toBe(1);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM ${t.config.queue.schema}.job WHERE data->>'id_transaccion' = $1`,
        [id],
      ),
    ).toBe(1);
  });

  const cuirRequest = () => ({
    groupId: `${Date.now()}${Math.floor(Math.random() * 1e9)}`.padStart(25, '7').slice(-25),
    itemId: '07',
    state: '06',
    prescriptionType: '01',
    medicationType: '03',
  });

  it(`${N} concurrent CUIR generations under the uniqueness policy: one winner`, async () => {
    const body = cuirRequest();
    const answers = await burst(() => post('/v1/cuir/generar', body));
    expect(byStatus(answers)).toEqual({ '201': 1, '409 CUIR_ALREADY_ISSUED': N - 1 });
    expect(
      await count(
        'SELECT count(*)::int AS n FROM issued_cuirs WHERE client_id = $1 AND group_id = $2 AND item_id = $3',
        [c.id, body.groupId, body.itemId],
      ),
    ).toBe(1);
  });

  it(`${N} concurrent CUIR generations with the policy off: all 201, one CUIR, every issuance recorded`, async () => {
    const free = await watchedClient(t, guard, { cuirUniqueness: false });
    const body = cuirRequest();
    const answers = await Promise.all(
      Array.from({ length: N }, () =>
        rawRequest(t.url, {
          method: 'POST',
          path: '/v1/cuir/generar',
          fresh: true,
          headers: { ...free.headers, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        }),
      ),
    );
    expect(byStatus(answers)).toEqual({ '201': N });
    expect(new Set(answers.map((a) => a.body.data.cuir)).size).toBe(1);
    expect(
      await count(
        'SELECT count(*)::int AS n FROM issued_cuirs WHERE client_id = $1 AND group_id = $2',
        [free.id, body.groupId],
      ),
    ).toBe(N);
  });

  it('logs carry no document number, name or secret', () => {
    expect(guard.findings()).toEqual([]);
  });
});
