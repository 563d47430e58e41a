import type { SqlParams } from '../common/sql/sql-params.js';

/**
 * pg-boss 10.4's `insertJob` (src/plans.js) for a job sent with no per-job options and no
 * constructor defaults (how this service sends its jobs), written so it can run as a CTE of a
 * larger statement: the job is inserted in the same statement as the row it is about, with
 * no BEGIN/COMMIT round trips. The queue's policy (retries, expiry, retention, dead letter) is
 * read from pg-boss's queue table as pg-boss does. pg-boss is pinned to an exact version, and
 * test/job-insert-sql.e2e-spec.ts compares the row this writes with the one `boss.send` writes,
 * so an upgrade that changes the job table fails there first.
 *
 * A missing queue inserts a NULL name, which the job table refuses, so the whole statement
 * fails rather than commit a row whose job was silently dropped.
 */
export function insertJobSql(
  schema: string,
  p: SqlParams,
  job: { queue: string; data: string; from: string },
): string {
  return `INSERT INTO ${schema}.job (name, data, priority, start_after, dead_letter, expire_in,
      keep_until, retry_limit, retry_delay, retry_backoff, policy)
    SELECT q.name, ${job.data}, 0, now(), q.dead_letter,
      COALESCE(q.expire_seconds * interval '1s', interval '15 minutes'),
      now() + CAST(COALESCE((q.retention_minutes * 60)::text, '14 days') AS interval),
      COALESCE(q.retry_limit, 2),
      CASE WHEN COALESCE(q.retry_backoff, false) THEN GREATEST(q.retry_delay, 1)
           ELSE COALESCE(q.retry_delay, 0) END,
      COALESCE(q.retry_backoff, false), q.policy
    FROM ${job.from} LEFT JOIN ${schema}.queue q ON q.name = ${p.add(job.queue)}`;
}
