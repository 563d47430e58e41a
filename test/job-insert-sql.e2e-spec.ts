import PgBoss from 'pg-boss';
import { DataSource } from 'typeorm';
import { SqlParams } from '../src/common/sql/sql-params.js';
import { insertJobSql } from '../src/queue/job.sql.js';
import { JobQueue } from '../src/queue/job-queue.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * Registration enqueues its ministry job with our copy of pg-boss's insertJob, in the same
 * statement as the prescription. This holds the copy to pg-boss: for queues with and without
 * a retry/expiry/retention policy, the row it writes must equal the row `boss.send` writes in
 * every column but the id, the data and the timestamps' instant.
 */
describe('job insert in a statement (insertJobSql) vs pg-boss send', () => {
  let t: TestApp;
  let db: DataSource;
  let boss: PgBoss;

  beforeAll(async () => {
    t = await startTestApp({ MINISTRY_DELIVERY_ENABLED: 'false' });
    db = t.app.get(DataSource);
    // pg-boss itself, on the app's queue schema, to write the reference rows: as the migration
    // role, which alone may create queues.
    boss = new PgBoss({
      connectionString: process.env.TEST_DATABASE_URL,
      schema: t.config.queue.schema,
      supervise: false,
      schedule: false,
      max: 1,
    });
    await boss.start();
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, wait: true });
    await t?.stop();
  });

  const policies: Array<[string, Record<string, unknown>]> = [
    ['no policy', {}],
    [
      'backoff, expiry, retention',
      {
        retryLimit: 7,
        retryDelay: 3,
        retryBackoff: true,
        expireInSeconds: 42,
        retentionMinutes: 90,
      },
    ],
    ['backoff without delay', { retryLimit: 1, retryBackoff: true }],
    ['fixed delay', { retryLimit: 4, retryDelay: 9, retryBackoff: false }],
  ];

  it.each(policies)('writes the row boss.send writes (%s)', async (label, options) => {
    const name = `compare-${label.replace(/\W+/g, '-')}`;
    await boss.createQueue(name, { name, ...options });
    const sentId = await boss.send(name, { via: 'send' });

    const p = new SqlParams();
    const companion = insertJobSql(t.config.queue.schema, p, {
      queue: name,
      data: `jsonb_build_object('via', s.id)`,
      from: 's',
    });
    await db.query(
      `WITH s AS (SELECT 'statement'::text AS id), j AS (${companion}) SELECT 1`,
      p.values,
    );

    const rows: Array<Record<string, unknown>> = await db.query(
      `SELECT id, data, name, priority, state, retry_limit, retry_count, retry_delay, retry_backoff,
              singleton_key, singleton_on, expire_in::text, dead_letter, policy, started_on, completed_on, output,
              extract(epoch FROM keep_until - start_after)::int AS keep_for_s,
              extract(epoch FROM start_after - created_on)::int AS delay_s
         FROM ${t.config.queue.schema}.job WHERE name = $1 ORDER BY created_on, data->>'via' DESC`,
      [name],
    );
    expect(rows).toHaveLength(2);
    const viaSend = rows.find((r) => r.id === sentId)!;
    const viaStatement = rows.find((r) => r.id !== sentId)!;
    expect(viaStatement.data).toEqual({ via: 'statement' });
    const strip = ({ id: _id, data: _data, ...rest }: Record<string, unknown>) => rest;
    expect(strip(viaStatement)).toEqual(strip(viaSend));
  });

  it('fails the whole statement for a queue that does not exist (never drops the job silently)', async () => {
    await db.query(`CREATE TEMP TABLE IF NOT EXISTS probe (id text)`);
    const p = new SqlParams();
    const sql = `WITH s AS (INSERT INTO probe VALUES ('x') RETURNING id), j AS (${insertJobSql(
      t.config.queue.schema,
      p,
      { queue: 'missing-queue', data: `'{}'::jsonb`, from: 's' },
    )}) SELECT 1`;
    await expect(db.query(sql, p.values)).rejects.toThrow();
    // And a job class no module provides cannot be enqueued at all.
    class NotAJob {}
    expect(() => t.app.get(JobQueue).jobInStatement(NotAJob as never, () => `'{}'::jsonb`)).toThrow(
      /is not a provider/,
    );
  });
});
