import { COPY_COLUMNS } from './audit-copy.js';

/**
 * The seals' SQL. SQL because verify hashes the exact texts the database gives (`::text`, xid8,
 * multiranges), which entities would lose, and the sealer and verify are measured paths.
 */

// to_char itself, not auditoria_instante(): verify must not lean on the log's own functions.
const instante = (col: string) =>
  `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const SEAL_COLUMNS = `s.id::text, ${instante('s.at')} AS at, s.xid_desde::text, s.xid_hasta::text,
  s.eventos::text, s.ids::text, ${instante('s.ultimo_at')} AS ultimo_at,
  s.digest, s.hash_anterior, s.hash,
  EXISTS (SELECT 1 FROM auditoria_purgas p WHERE p.sellos @> s.id) AS purgado`;

/**
 * The next seal in ONE statement: it covers the events of transactions in [previous boundary,
 * this snapshot's xmin) (all ended, so final), at most $1 of them: when capped, the boundary is
 * the first left-out event's xid, or the next transaction's when the first alone holds more (a
 * transaction is never split). Nothing new: nothing written. The insert trigger chains it. The
 * bounds are scalar subqueries so each partition's xid index is entered at the boundary (joined,
 * the planner walked each index from its start).
 */
export const SEAL_SQL = `
  WITH prev AS (
    SELECT id, xid_hasta FROM auditoria_sellos ORDER BY id DESC LIMIT 1
  ), b AS (
    SELECT COALESCE((SELECT id FROM prev), 0) + 1 AS id,
           COALESCE((SELECT xid_hasta FROM prev), '0'::xid8) AS desde,
           pg_snapshot_xmin(pg_current_snapshot()) AS xmin
  ), cap AS (
    SELECT e.xid FROM auditoria_eventos e
     WHERE e.xid >= (SELECT desde FROM b) AND e.xid < (SELECT xmin FROM b)
     ORDER BY e.xid OFFSET $1 LIMIT 1
  ), lo AS (
    SELECT min(e.xid) AS xid FROM auditoria_eventos e
     WHERE e.xid >= (SELECT desde FROM b) AND e.xid < (SELECT xmin FROM b)
  ), h AS (
    SELECT b.id, b.desde, b.xmin, CASE
        WHEN NOT EXISTS (SELECT 1 FROM cap) THEN b.xmin
        WHEN (SELECT xid FROM cap) > (SELECT xid FROM lo) THEN (SELECT xid FROM cap)
        ELSE COALESCE((SELECT min(e.xid) FROM auditoria_eventos e
                        WHERE e.xid > (SELECT xid FROM lo) AND e.xid < (SELECT xmin FROM b)), b.xmin)
      END AS hasta
    FROM b
  ), ev AS (
    SELECT count(*) AS n, range_agg(int8range(e.id, e.id, '[]')) AS ids,
           sha256(string_agg(e.hash, ''::bytea ORDER BY e.id)) AS digest, max(e.at) AS ultimo_at
      FROM auditoria_eventos e
     WHERE e.xid >= (SELECT desde FROM h) AND e.xid < (SELECT hasta FROM h)
  )
  INSERT INTO auditoria_sellos (id, xid_desde, xid_hasta, eventos, ids, ultimo_at, digest, hash_anterior, hash)
  SELECT h.id, h.desde, h.hasta, ev.n, ev.ids, ev.ultimo_at, ev.digest, ''::bytea, ''::bytea
    FROM h, ev WHERE ev.n > 0
  RETURNING id::text, eventos::int, xid_hasta < (SELECT xmin FROM h) AS partial`;

/** Seals after `$1`, in order, `$2` at a time, as verify reads them. */
export const SEALS_AFTER_SQL = `SELECT ${SEAL_COLUMNS} FROM auditoria_sellos s WHERE s.id > $1 ORDER BY s.id LIMIT $2`;

/** Seal `$1`, as verify reads it. */
export const SEAL_BY_ID_SQL = `SELECT ${SEAL_COLUMNS} FROM auditoria_sellos s WHERE s.id = $1`;

/** How many events transactions in [$1, $2) wrote (the xid index alone answers). */
export const COUNT_WRITTEN_IN_SQL = `SELECT count(*)::text AS n FROM auditoria_eventos e WHERE e.xid >= $1::xid8 AND e.xid < $2::xid8`;

/** Events written by transactions in [$1, $2) whose id is not in $3: never sealed; $4 at most. */
export const STRANGERS_SQL = `SELECT e.id::text FROM auditoria_eventos e
  WHERE e.xid >= $1::xid8 AND e.xid < $2::xid8 AND NOT (e.id <@ $3::int8multirange)
  ORDER BY e.id LIMIT $4`;

/** Events written at or after `$1` (the last seal's boundary): not sealed yet. */
export const COUNT_PENDING_SQL = `SELECT count(*)::text AS n FROM auditoria_eventos WHERE xid >= $1::xid8`;

/** Seals not purged yet whose events are all older than `$1` (UTC midnight of a date). */
export const PURGEABLE_SQL = `SELECT COALESCE(range_agg(int8range(s.id, s.id, '[]')), '{}')::text AS sellos,
         COALESCE(sum(s.eventos), 0)::text AS eventos, count(*)::int AS n
    FROM auditoria_sellos s
   WHERE s.ultimo_at < ($1::date)::timestamp AT TIME ZONE 'UTC'
     AND NOT EXISTS (SELECT 1 FROM auditoria_purgas p WHERE p.sellos @> s.id)`;

/** The events of the seals in `$1` with ids from `$2` (the months below are dropped whole). */
export const PURGE_EVENTS_SQL = `DELETE FROM auditoria_eventos e USING auditoria_sellos s
  WHERE s.id <@ $1::int8multirange AND e.xid >= s.xid_desde AND e.xid < s.xid_hasta
    AND e.id >= $2::bigint`;

/**
 * The writing transaction from which events stay after the purges so far: the first seal no
 * purge covers, else the last seal's end, else 0 (seals cover the xids from 0 without gaps).
 */
export const STAYING_FROM_XID_SQL = `SELECT coalesce(
    (SELECT min(s.xid_desde) FROM auditoria_sellos s
      WHERE NOT EXISTS (SELECT 1 FROM auditoria_purgas p WHERE p.sellos @> s.id)),
    (SELECT max(s.xid_hasta) FROM auditoria_sellos s),
    '0'::xid8)::text AS xid`;

/** The age of the first event no seal covers yet (one row of the xid index), the last seal's time. */
export const SEALING_STATE_SQL = `
  WITH head AS (SELECT xid_hasta, at FROM auditoria_sellos ORDER BY id DESC LIMIT 1)
  SELECT extract(epoch FROM (SELECT at FROM head))::float8 AS last_seal,
         extract(epoch FROM now() - (
           SELECT e.at FROM auditoria_eventos e
            WHERE e.xid >= COALESCE((SELECT xid_hasta FROM head), '0'::xid8)
            ORDER BY e.xid LIMIT 1))::float8 AS oldest_unsealed_age`;

/**
 * The COPY of the events with ids in [lo, hi), by id (COPY takes no parameters: bigints only).
 * Walked range by range of a seal's id set, so ids between its ranges (a month's jump of the
 * sequence spans 10⁹) are never walked.
 */
export function copyEventsSql(lo: bigint, hi: bigint): string {
  return `COPY (SELECT ${COPY_COLUMNS} FROM auditoria_eventos e
                WHERE e.id >= ${lo} AND e.id < ${hi} ORDER BY e.id) TO STDOUT`;
}
