import { createRequire } from 'node:module';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { SqlParams } from '../src/common/sql/sql-params.js';
import { insertJobSql } from '../src/queue/job.sql.js';
import { MINISTERIO_QUEUE } from '../src/recetas/notificacion/ministerio-delivery.sql.js';
import { startTestApp, TestApp } from './support/test-app.js';

const require = createRequire(import.meta.url);
const plans = require('pg-boss/src/plans.js') as {
  fetchNextJob(schema: string): (o: { includeMetadata: boolean }) => string;
};

/**
 * pg-boss's fetch orders the queued jobs by (priority DESC, created_on, id); without an index
 * in that order every fetch sorts the whole backlog. The queue creates one (job_fetch_order):
 * a fetch from a large backlog must walk it instead of sorting.
 */
describe('job queue fetch on a large backlog', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await startTestApp({ MINISTRY_DELIVERY_ENABLED: 'false' });
    db = t.app.get(DataSource);
  });
  afterAll(() => t?.stop());

  it('walks the fetch-order index instead of sorting the backlog', async () => {
    // The ministry delivery queue exists (declared by its job); its deliveries are paused.
    const name = MINISTERIO_QUEUE;
    const p = new SqlParams();
    const insert = insertJobSql(t.config.queue.schema, p, {
      queue: name,
      data: `jsonb_build_object('n', s.id)`,
      from: 's',
    });
    await db.query(
      `WITH s AS (SELECT g AS id FROM generate_series(1, 20000) g), j AS (${insert}) SELECT 1`,
      p.values,
    );
    // ANALYZE is the owner's: the migration role's (the service's own role owns nothing).
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`ANALYZE ${t.config.queue.schema}.job`).finally(() => admin.end());

    const fetch = plans.fetchNextJob(t.config.queue.schema)({ includeMetadata: true });
    const plan = (
      await db.query<Array<{ 'QUERY PLAN': string }>>(`EXPLAIN (COSTS OFF) ${fetch}`, [name, 4])
    )
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    expect(plan).toMatch(/Index Scan using \S*name_priority_created_on_id\S* on /);
    expect(plan).not.toMatch(/Sort Key: \S*priority DESC/);
    // And the fetch itself takes its batch.
    const [fetched] = await db.query<[Array<{ state: string }>, number]>(fetch, [name, 4]);
    expect(fetched.map((j) => j.state)).toEqual(Array(4).fill('active'));
  });
});
