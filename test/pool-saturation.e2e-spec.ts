import { randomUUID } from 'node:crypto';
import pg from 'pg';
import request from 'supertest';
import { createClient, TestClient } from './support/clients.js';
import { issueBodyCuir, registrationBody } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * A request that waits for a database connection longer than the pool's 5 s while every
 * connection is busy is answered 503 SERVICE_UNAVAILABLE with Retry-After (contract §1), not
 * 500: the service is saturated, not broken. The pool here has one connection, held by a
 * registration that waits on a row lock another session holds (its Idempotency-Key's row,
 * inserted and not committed): nothing else of the shared test database is locked.
 */
describe('database pool saturated', () => {
  let t: TestApp;
  let c: TestClient;
  let other: pg.Client;

  beforeAll(async () => {
    t = await startTestApp({ DATABASE_POOL_SIZE: '1', MINISTRY_DELIVERY_ENABLED: 'false' });
    c = await createClient(t);
    other = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await other.connect();
  });
  afterAll(async () => {
    await other.end();
    await t.stop();
  });

  /** A read that needs a connection of the pool. */
  const listar = () =>
    request(t.url)
      .get('/v1/recetas/listar')
      .query({ fecha_desde: '2026-01-01T00:00:00Z', fecha_hasta: '2026-12-31T00:00:00Z' })
      .set(c.headers);

  it('a request no connection came free for in 5 s: 503 with Retry-After; the held one then completes', async () => {
    const body = registrationBody();
    await issueBodyCuir(t, c, body);
    const key = randomUUID();
    await other.query('BEGIN');
    await other.query(
      `INSERT INTO idempotency_keys (client_id, key, request_hash, state, locked_until, expires_at)
       VALUES ($1, $2, 'x', 'in_progress', now(), now() + interval '1 day')`,
      [c.id, key],
    );
    // Takes the pool's one connection and waits on the uncommitted key row.
    const held = request(t.url)
      .post('/v1/recetas/registrar')
      .set(c.headers)
      .set('Idempotency-Key', key)
      .send(body)
      .then((r) => r);
    await waitForLockWait(other);

    const started = Date.now();
    const busy = await listar();
    expect({ status: busy.status, error: busy.body.error }).toEqual({
      status: 503,
      error: {
        code: 'SERVICE_UNAVAILABLE',
        message: 'The service is busy (no database connection came free in time); retry',
      },
    });
    expect(busy.headers['retry-after']).toBe('1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);

    // The other session gives the key up: the held registration takes it and registers.
    await other.query('ROLLBACK');
    const done = await held;
    expect(done.status).toBe(201);
    await listar().expect(200);
  }, 30_000);
});

/** Until a session waits on a lock `db`'s session holds (the held registration). */
async function waitForLockWait(db: pg.Client): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE pg_backend_pid() = ANY (pg_blocking_pids(pid))`,
    );
    if (rows[0].n > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the registration never waited on the key row');
}
