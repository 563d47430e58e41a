import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { copyOut } from '../database/copy-out.js';
import { COPY_COLUMNS, COPY_SETTINGS } from './audit-copy.js';
import type { SealFields } from './audit-hash.js';

/** Arbitrary constant: the advisory-lock key held by the sealer (and a purge), per transaction. */
export const AUDIT_LOCK = 724_231_301;

/** A seal as verify reads it: the hashed fields as text, the hashes as bytes. */
export interface SealRow extends SealFields {
  digest: Buffer;
  hash_anterior: Buffer;
  hash: Buffer;
  /** A purge removed its events (auditoria_purgas). */
  purgado: boolean;
}

export interface WrittenSeal {
  id: string;
  eventos: number;
  /** The seal stopped at the size cap: more finished events are waiting for the next one. */
  partial: boolean;
}

// to_char itself, not auditoria_instante(): verify must not lean on the log's own functions.
const instante = (col: string) =>
  `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const SEAL_COLUMNS = `s.id::text, ${instante('s.at')} AS at, s.xid_desde::text, s.xid_hasta::text,
  s.eventos::text, s.ids::text, ${instante('s.ultimo_at')} AS ultimo_at,
  s.digest, s.hash_anterior, s.hash,
  EXISTS (SELECT 1 FROM auditoria_purgas p WHERE p.sellos @> s.id) AS purgado`;

const DIGITS = /^[0-9]{1,20}$/;
/** Ids per COPY statement of verify (at most that many rows: about a second's worth). */
const COPY_IDS = 200_000n;

/**
 * The next seal in ONE statement: its boundary is this statement's snapshot xmin (every
 * transaction below it has ended, so the events below it are final); it covers the events
 * written by transactions in [previous boundary, boundary), at most $1 of them (a sealer off
 * for a day must not build one huge seal): when capped, the boundary is the xid of the first
 * event left out, or, when the first transaction alone holds more, the next one's (it is
 * sealed whole: a transaction is never split across seals).
 * Nothing is written when there is nothing new. The insert trigger chains it to the previous seal.
 */
const SEAL_SQL = `
  WITH prev AS (
    SELECT id, xid_hasta FROM auditoria_sellos ORDER BY id DESC LIMIT 1
  ), b AS (
    SELECT COALESCE((SELECT id FROM prev), 0) + 1 AS id,
           COALESCE((SELECT xid_hasta FROM prev), '0'::xid8) AS desde,
           pg_snapshot_xmin(pg_current_snapshot()) AS xmin
  ), cap AS (
    SELECT e.xid FROM auditoria_eventos e, b
     WHERE e.xid >= b.desde AND e.xid < b.xmin ORDER BY e.xid OFFSET $1 LIMIT 1
  ), lo AS (
    SELECT min(e.xid) AS xid FROM auditoria_eventos e, b WHERE e.xid >= b.desde AND e.xid < b.xmin
  ), h AS (
    SELECT b.id, b.desde, b.xmin, CASE
        WHEN NOT EXISTS (SELECT 1 FROM cap) THEN b.xmin
        WHEN (SELECT xid FROM cap) > (SELECT xid FROM lo) THEN (SELECT xid FROM cap)
        ELSE COALESCE((SELECT min(e.xid) FROM auditoria_eventos e, lo
                        WHERE e.xid > lo.xid AND e.xid < b.xmin), b.xmin)
      END AS hasta
    FROM b
  ), ev AS (
    SELECT count(*) AS n, range_agg(int8range(e.id, e.id, '[]')) AS ids,
           sha256(string_agg(e.hash, ''::bytea ORDER BY e.id)) AS digest, max(e.at) AS ultimo_at
      FROM auditoria_eventos e, h WHERE e.xid >= h.desde AND e.xid < h.hasta
  )
  INSERT INTO auditoria_sellos (id, xid_desde, xid_hasta, eventos, ids, ultimo_at, digest, hash_anterior, hash)
  SELECT h.id, h.desde, h.hasta, ev.n, ev.ids, ev.ultimo_at, ev.digest, ''::bytea, ''::bytea
    FROM h, ev WHERE ev.n > 0
  RETURNING id::text, eventos::int, xid_hasta < (SELECT xmin FROM h) AS partial`;

/** SQL of the seals: writing the next one, and what verify and purge read and remove. */
@Injectable()
export class SellosRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** The sealer's lock for the rest of `tx`; false when another instance holds it. */
  async tryLock(tx: EntityManager): Promise<boolean> {
    const [{ got }] = await tx.query<Array<{ got: boolean }>>(
      'SELECT pg_try_advisory_xact_lock($1) AS got',
      [AUDIT_LOCK],
    );
    return got;
  }

  /** Waits for the sealer's lock for the rest of `tx`. */
  async lock(tx: EntityManager): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [AUDIT_LOCK]);
  }

  /** Writes the next seal (see SEAL_SQL); null when no finished event awaits one. */
  async sealNext(tx: EntityManager, maxEvents: number): Promise<WrittenSeal | null> {
    const rows: WrittenSeal[] = await tx.query(SEAL_SQL, [maxEvents]);
    return rows[0] ?? null;
  }

  /** The chain's head: the newest seal's number, boundary and hash. */
  async lastSeal(
    tx: EntityManager,
  ): Promise<{ id: string; xid_hasta: string; hash: Buffer } | null> {
    const rows: Array<{ id: string; xid_hasta: string; hash: Buffer }> = await tx.query(
      `SELECT s.id::text, s.xid_hasta::text, s.hash FROM auditoria_sellos s ORDER BY s.id DESC LIMIT 1`,
    );
    return rows[0] ?? null;
  }

  /** Seals after `afterId`, in order, `limit` at a time. */
  sealsAfter(tx: EntityManager, afterId: string, limit: number): Promise<SealRow[]> {
    return tx.query(
      `SELECT ${SEAL_COLUMNS} FROM auditoria_sellos s WHERE s.id > $1 ORDER BY s.id LIMIT $2`,
      [afterId, limit],
    );
  }

  /** One seal, or null. */
  async seal(tx: EntityManager, id: string): Promise<SealRow | null> {
    const rows: SealRow[] = await tx.query(
      `SELECT ${SEAL_COLUMNS} FROM auditoria_sellos s WHERE s.id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  /**
   * Streams the events of seal `sealId` whose ids are in [from, to) (its id set's bounds), by
   * id, as COPY rows of COPY_COLUMNS (see audit-copy.ts); one statement per COPY_IDS ids, so each
   * stays well inside the statement timeout. The transaction must have run COPY_SETTINGS
   * (copySettings). Returns how many rows were sent.
   */
  async copyEventsOfSeal(
    tx: EntityManager,
    sealId: string,
    from: string,
    to: string,
    onRow: (row: Buffer) => void,
    /** The id set is the one range [from, to): every id in it is the seal's, no filter needed. */
    contiguous = false,
  ): Promise<number> {
    // COPY takes no parameters: the values are checked digits.
    for (const v of [sealId, from, to]) {
      if (!DIGITS.test(v)) throw new Error(`not a number: ${v}`);
    }
    let total = 0;
    for (let lo = BigInt(from); lo < BigInt(to); lo += COPY_IDS) {
      const hi = lo + COPY_IDS < BigInt(to) ? lo + COPY_IDS : BigInt(to);
      // The bounds let the primary key serve the walk; the containment test filters the holes.
      const holes = contiguous
        ? ''
        : `AND e.id <@ (SELECT s.ids FROM auditoria_sellos s WHERE s.id = ${sealId})`;
      total += await copyOut(
        tx,
        `COPY (SELECT ${COPY_COLUMNS} FROM auditoria_eventos e
                WHERE e.id >= ${lo} AND e.id < ${hi} ${holes} ORDER BY e.id) TO STDOUT`,
        onRow,
      );
    }
    return total;
  }

  /** The session settings copyEventsOfSeal's rows are read under, for the rest of `tx`. */
  async copySettings(tx: EntityManager): Promise<void> {
    for (const sql of COPY_SETTINGS) await tx.query(sql);
  }

  /** How many events transactions in [desde, hasta) wrote (the xid index alone answers). */
  async countWrittenIn(tx: EntityManager, desde: string, hasta: string): Promise<number> {
    const [{ n }] = await tx.query<Array<{ n: string }>>(
      `SELECT count(*)::text AS n FROM auditoria_eventos e WHERE e.xid >= $1::xid8 AND e.xid < $2::xid8`,
      [desde, hasta],
    );
    return Number(n);
  }

  /** Events written by transactions in [desde, hasta) whose id is not in `ids`: never sealed. */
  async strangers(
    tx: EntityManager,
    desde: string,
    hasta: string,
    ids: string,
    limit: number,
  ): Promise<string[]> {
    const rows: Array<{ id: string }> = await tx.query(
      `SELECT e.id::text FROM auditoria_eventos e
        WHERE e.xid >= $1::xid8 AND e.xid < $2::xid8 AND NOT (e.id <@ $3::int8multirange)
        ORDER BY e.id LIMIT $4`,
      [desde, hasta, ids, limit],
    );
    return rows.map((r) => r.id);
  }

  /** Events written at or after `desde` (the last seal's boundary): not sealed yet. */
  async countPending(tx: EntityManager, desde: string): Promise<number> {
    const [{ n }] = await tx.query<Array<{ n: string }>>(
      `SELECT count(*)::text AS n FROM auditoria_eventos WHERE xid >= $1::xid8`,
      [desde],
    );
    return Number(n);
  }

  /** Seals not purged yet whose events are all older than `before` (UTC midnight of a date). */
  async purgeable(
    tx: EntityManager,
    before: string,
  ): Promise<{ sellos: string; eventos: string; n: number }> {
    const [row] = await tx.query<Array<{ sellos: string; eventos: string; n: number }>>(
      `SELECT COALESCE(range_agg(int8range(s.id, s.id, '[]')), '{}')::text AS sellos,
              COALESCE(sum(s.eventos), 0)::text AS eventos, count(*)::int AS n
         FROM auditoria_sellos s
        WHERE s.ultimo_at < ($1::date)::timestamp AT TIME ZONE 'UTC'
          AND NOT EXISTS (SELECT 1 FROM auditoria_purgas p WHERE p.sellos @> s.id)`,
      [before],
    );
    return row;
  }

  /**
   * Records the purge and deletes the events of those seals, in `tx`. The delete trigger lets
   * them go only with the purge flag, this record, and each event older than five years.
   */
  async purge(
    tx: EntityManager,
    before: string,
    sellos: string,
    eventos: string,
  ): Promise<{ purga: string; deleted: number }> {
    const [{ id }] = await tx.query<Array<{ id: string }>>(
      `INSERT INTO auditoria_purgas (antes_de, sellos, eventos) VALUES ($1, $2, $3) RETURNING id::text`,
      [before, sellos, eventos],
    );
    await tx.query(`SET LOCAL auditoria.purga = 'on'`);
    // Years of events can outlast the usual statement timeout.
    await tx.query('SET LOCAL statement_timeout = 0');
    const [, deleted] = await tx.query<[unknown, number]>(
      `DELETE FROM auditoria_eventos e USING auditoria_sellos s
        WHERE s.id <@ $1::int8multirange AND e.xid >= s.xid_desde AND e.xid < s.xid_hasta`,
      [sellos],
    );
    return { purga: id, deleted };
  }
}
