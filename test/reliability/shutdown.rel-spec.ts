import pg from 'pg';
import { issueBodyCuir, registrationBody } from '../support/recetas.js';
import { LogGuard } from './support/log-guard.js';
import { rawRequest, sleep } from './support/raw-http.js';
import { startWatchedApp, watchedClient } from './support/setup.js';

/**
 * A graceful stop while a ministry delivery is in flight: the delivery finishes and records
 * its outcome before the database pool closes (found when a suite stopped its app mid-delivery
 * on the embedded database: the outcome write met a closed pool).
 */
describe('graceful shutdown with a delivery in flight', () => {
  const guard = new LogGuard();
  let db: pg.Client;

  beforeAll(async () => {
    db = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
  });

  it('the in-flight delivery completes and is recorded', async () => {
    const t = await startWatchedApp(guard, 'shutdown-app', { QUEUE_POLL_INTERVAL_SECONDS: '1' });
    const c = await watchedClient(t, guard);
    await fetch(`${t.sandboxUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ service: 'ministerio', mode: 'slow', delay_ms: 2000 }),
    });
    const body = registrationBody();
    await issueBodyCuir(t, c, body);
    const res = await rawRequest(t.url, {
      method: 'POST',
      path: '/v1/recetas/registrar',
      headers: { ...c.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(201);
    const id = res.body.data.id_transaccion as string;
    // Wait until a worker holds the job (the ministry answers 2 s later).
    const schema = t.config.queue.schema;
    for (let i = 0; i < 50; i++) {
      const { rows } = await db.query(
        `SELECT state FROM ${schema}.job WHERE data->>'id_transaccion' = $1`,
        [id],
      );
      if (rows[0]?.state === 'active') break;
      await sleep(100);
    }
    await t.stop();
    const { rows } = await db.query('SELECT estado FROM recetas WHERE id_transaccion = $1', [id]);
    expect(rows[0].estado).toBe('COMPLETED');
  });

  it('logs carry no document number, name or secret', () => {
    expect(guard.findings()).toEqual([]);
  });
});
