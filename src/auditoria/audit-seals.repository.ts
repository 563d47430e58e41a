import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { copyOut } from '../database/copy-out.js';
import { listarParticiones } from '../database/particiones/particiones.js';
import { SUFIJO_PARTICION } from '../database/particiones/periodos.js';
import { COPY_SETTINGS } from './audit-copy.js';
import type { SealFields } from './audit-hash.js';
import { AuditPurgeEntity } from './entities/audit-purge.entity.js';
import { AuditSealEntity } from './entities/audit-seal.entity.js';
import {
  copyEventsSql,
  COUNT_PENDING_SQL,
  COUNT_WRITTEN_IN_SQL,
  PURGE_EVENTS_SQL,
  STAYING_FROM_XID_SQL,
  PURGEABLE_SQL,
  SEAL_BY_ID_SQL,
  SEAL_SQL,
  SEALS_AFTER_SQL,
  STRANGERS_SQL,
} from './audit-seals.sql.js';

/** The advisory-lock key of the sealer (and a purge), per transaction; arbitrary. */
const AUDIT_LOCK = 724_231_301;

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

const DIGITS = /^[0-9]{1,20}$/;

/** Ids per COPY statement of verify (at most that many rows: about a second's worth). */
const COPY_IDS = 200_000n;

/** The seals: the next one written, and what verify and purge read and remove (audit-seals.sql.ts). */
@Injectable()
export class AuditSealsRepository {
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
    // xid_hasta is xid8, which the entity cannot map: read as text beside its columns.
    const head = await tx
      .getRepository(AuditSealEntity)
      .createQueryBuilder('s')
      .select('s.id::text', 'id')
      .addSelect('s.xid_hasta::text', 'xid_hasta')
      .addSelect('s.hash', 'hash')
      .orderBy('s.id', 'DESC')
      .limit(1)
      .getRawOne<{ id: string; xid_hasta: string; hash: Buffer }>();
    return head ?? null;
  }

  sealsAfter(tx: EntityManager, afterId: string, limit: number): Promise<SealRow[]> {
    return tx.query(SEALS_AFTER_SQL, [afterId, limit]);
  }

  async seal(tx: EntityManager, id: string): Promise<SealRow | null> {
    const rows: SealRow[] = await tx.query(SEAL_BY_ID_SQL, [id]);
    return rows[0] ?? null;
  }

  /**
   * Streams the events of a seal's id ranges ([from, to)) by id as COPY rows (audit-copy.ts),
   * one statement per COPY_IDS ids, each well inside the statement timeout. Needs copySettings.
   */
  async copyEventsOfSeal(
    tx: EntityManager,
    ranges: ReadonlyArray<readonly [bigint, bigint]>,
    onRow: (row: Buffer) => void,
  ): Promise<void> {
    for (const [from, to] of ranges) {
      for (let lo = from; lo < to; lo += COPY_IDS) {
        await copyOut(tx, copyEventsSql(lo, lo + COPY_IDS < to ? lo + COPY_IDS : to), onRow);
      }
    }
  }

  /** The session settings copyEventsOfSeal's rows are read under (COPY_SETTINGS). */
  async copySettings(tx: EntityManager): Promise<void> {
    for (const sql of COPY_SETTINGS) await tx.query(sql);
  }

  /** How many events transactions in [desde, hasta) wrote. */
  countWrittenIn(tx: EntityManager, desde: string, hasta: string): Promise<number> {
    return count(tx, COUNT_WRITTEN_IN_SQL, [desde, hasta]);
  }

  /** Events written by transactions in [desde, hasta) whose id is not in `ids`. */
  async strangers(
    tx: EntityManager,
    desde: string,
    hasta: string,
    ids: string,
    limit: number,
  ): Promise<string[]> {
    const rows: Array<{ id: string }> = await tx.query(STRANGERS_SQL, [desde, hasta, ids, limit]);
    return rows.map((r) => r.id);
  }

  /** Events written at or after `desde` (the last seal's boundary): not sealed yet. */
  countPending(tx: EntityManager, desde: string): Promise<number> {
    return count(tx, COUNT_PENDING_SQL, [desde]);
  }

  /** Seals not purged yet whose events are all older than `before` (see PURGEABLE_SQL). */
  async purgeable(
    tx: EntityManager,
    before: string,
  ): Promise<{ sellos: string; eventos: string; n: number }> {
    const [row] = await tx.query<Array<{ sellos: string; eventos: string; n: number }>>(
      PURGEABLE_SQL,
      [before],
    );
    return row;
  }

  /**
   * Records the purge and removes those seals' events in `tx`: months of the log holding only
   * purged events are dropped whole, the rest deleted by rows (the delete trigger wants the
   * purge flag, this record, and events older than five years). The drops come last: they lock
   * the log against new events until the commit, which follows at once.
   */
  async purge(
    tx: EntityManager,
    before: string,
    sellos: string,
    eventos: string,
  ): Promise<{ purga: string; deleted: number; particiones: string[] }> {
    const written = await tx
      .getRepository(AuditPurgeEntity)
      .insert({ antesDe: before, sellos, eventos });
    const id = String((written.identifiers[0] as { id: string | number }).id);
    await tx.query(`SET LOCAL auditoria.purga = 'on'`);
    // Years of events can outlast the usual statement timeout.
    await tx.query('SET LOCAL statement_timeout = 0');
    const months = await this.wholeMonths(tx);
    const floor = months.length > 0 ? months[months.length - 1].hasta : '0';
    const [, deleted] = await tx.query<[unknown, number]>(PURGE_EVENTS_SQL, [sellos, floor]);
    for (const m of months) {
      await tx.query(`ALTER TABLE auditoria_eventos DETACH PARTITION ${m.name}`);
      await tx.query(`DROP TABLE ${m.name}`);
    }
    return {
      purga: id,
      deleted: deleted + months.reduce((n, m) => n + m.n, 0),
      particiones: months.map((m) => m.name),
    };
  }

  /** The log's oldest months holding events, and only purged ones (below STAYING_FROM_XID_SQL). */
  private async wholeMonths(
    tx: EntityManager,
  ): Promise<Array<{ name: string; hasta: string; n: number }>> {
    const [{ xid }] = await tx.query<Array<{ xid: string }>>(STAYING_FROM_XID_SQL);
    const parts = (await listarParticiones(tx, [{ table: 'auditoria_eventos', range: 'id' }])).sort(
      (a, b) => (a.periodo ?? '').localeCompare(b.periodo ?? ''),
    );
    const out: Array<{ name: string; hasta: string; n: number }> = [];
    for (const p of parts) {
      const own = p.particion.replace(SUFIJO_PARTICION, '') === 'auditoria_eventos';
      if (!own || !SUFIJO_PARTICION.test(p.particion) || !DIGITS.test(p.hasta)) break;
      const [{ stays }] = await tx.query<Array<{ stays: boolean }>>(
        `SELECT EXISTS (SELECT 1 FROM ${p.particion} WHERE xid >= $1::xid8) AS stays`,
        [xid],
      );
      if (stays) break;
      const [{ n }] = await tx.query<Array<{ n: number }>>(
        `SELECT count(*)::int AS n FROM ${p.particion}`,
      );
      if (n === 0) break; // a month ahead, or a month without events: left to the next purge
      out.push({ name: p.particion, hasta: p.hasta, n });
    }
    return out;
  }
}

async function count(tx: EntityManager, sql: string, params: unknown[]): Promise<number> {
  const [{ n }] = await tx.query<Array<{ n: string }>>(sql, params);
  return Number(n);
}
