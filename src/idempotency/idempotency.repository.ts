import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SqlParams } from '../common/sql/sql-params.js';

/** Longer than any request may run (REQUEST_TIMEOUT_MS), so a live request keeps its key. */
export const KEY_LEASE_SECONDS = 60;
/** How long a key and its answer are kept (SPEC 3). */
export const KEY_TTL_HOURS = 24;

export interface IdempotencyRecord {
  requestHash: string;
  state: 'in_progress' | 'completed';
  responseStatus: number | null;
  responseBody: unknown;
  leaseExpired: boolean;
}

interface Row {
  request_hash: string;
  state: 'in_progress' | 'completed';
  response_status: number | null;
  response_body: unknown;
  lease_expired: boolean;
}

/** SQL of the Idempotency-Key store; the primary key (client, key) arbitrates races. */
@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Claims the key for this request; false when another request holds or held it. */
  async claim(
    clientId: string,
    key: string,
    hash: string,
    leaseSeconds: number,
    ttlHours: number,
  ): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `INSERT INTO idempotency_keys (client_id, key, request_hash, state, locked_until, expires_at)
       VALUES ($1, $2, $3, 'in_progress', now() + make_interval(secs => $4), now() + make_interval(hours => $5))
       ON CONFLICT (client_id, key) DO UPDATE SET
         request_hash = EXCLUDED.request_hash, state = 'in_progress', response_status = NULL,
         response_body = NULL, locked_until = EXCLUDED.locked_until, created_at = now(),
         expires_at = EXCLUDED.expires_at
       WHERE idempotency_keys.expires_at < now()  -- an expired key is free again
       RETURNING 1`,
      [clientId, key, hash, leaseSeconds, ttlHours],
    );
    return rows.length === 1;
  }

  async find(clientId: string, key: string): Promise<IdempotencyRecord | null> {
    const rows: Row[] = await this.db.query(
      `SELECT request_hash, state, response_status, response_body, locked_until < now() AS lease_expired
         FROM idempotency_keys WHERE client_id = $1 AND key = $2 AND expires_at > now()`,
      [clientId, key],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      requestHash: r.request_hash,
      state: r.state,
      responseStatus: r.response_status,
      responseBody: r.response_body,
      leaseExpired: r.lease_expired,
    };
  }

  /** Takes over an in-progress key whose holder's lease ran out (it crashed); one taker wins. */
  async takeOver(clientId: string, key: string, leaseSeconds: number): Promise<boolean> {
    const [, count] = await this.db.query<[unknown, number]>(
      `UPDATE idempotency_keys SET locked_until = now() + make_interval(secs => $3)
        WHERE client_id = $1 AND key = $2 AND state = 'in_progress' AND locked_until < now()`,
      [clientId, key, leaseSeconds],
    );
    return count === 1;
  }

  async complete(clientId: string, key: string, status: number, body: unknown): Promise<void> {
    const p = new SqlParams();
    const sql = completeKeySql(p, clientId, key, status, `${p.add(JSON.stringify(body))}::jsonb`);
    await this.db.query(sql, p.values);
  }

  async release(clientId: string, key: string): Promise<void> {
    await this.db.query(
      `DELETE FROM idempotency_keys WHERE client_id = $1 AND key = $2 AND state = 'in_progress'`,
      [clientId, key],
    );
  }

  /** Drops expired keys (the cleanup job). */
  async deleteExpired(): Promise<number> {
    const [, count] = await this.db.query<[unknown, number]>(
      `DELETE FROM idempotency_keys WHERE expires_at < now()`,
    );
    return count;
  }
}

/** Stores a key's answer; `body` is an SQL expression of the stored `jsonb`. */
export function completeKeySql(
  p: SqlParams,
  clientId: string,
  key: string,
  status: number,
  body: string,
): string {
  return `UPDATE idempotency_keys SET state = 'completed', response_status = ${p.add(status)},
      response_body = ${body}
    WHERE client_id = ${p.add(clientId)} AND key = ${p.add(key)}`;
}

/** What a gate needs to know of the key it settles. */
export interface KeyToSettle {
  clientId: string;
  key: string;
  requestHash: string;
  successStatus: number;
}

/**
 * Takes a key nobody holds and stores its answer, inside the statement that writes the answer's
 * row (which reads `source`); returns a row only if it took the key. A key another transaction
 * is inserting makes it wait for that transaction, then refuse. It also takes a key whose
 * answer expired, and one whose holder crashed (lease run out) while sending this same request.
 */
export function takeKeyGateSql(p: SqlParams, k: KeyToSettle, answer: string, source: string) {
  return `INSERT INTO idempotency_keys AS k (client_id, key, request_hash, state, response_status,
      response_body, locked_until, expires_at)
    SELECT ${p.add(k.clientId)}::uuid, ${p.add(k.key)}::uuid, ${p.add(k.requestHash)}, 'completed',
      ${p.add(k.successStatus)}::int, ${answer}, now(), now() + make_interval(hours => ${p.add(KEY_TTL_HOURS)})
      FROM ${source}
    ON CONFLICT (client_id, key) DO UPDATE SET
      request_hash = EXCLUDED.request_hash, state = EXCLUDED.state,
      response_status = EXCLUDED.response_status, response_body = EXCLUDED.response_body,
      locked_until = EXCLUDED.locked_until, created_at = now(), expires_at = EXCLUDED.expires_at
    WHERE k.expires_at < now()
       OR (k.state = 'in_progress' AND k.locked_until < now() AND k.request_hash = EXCLUDED.request_hash)
    RETURNING 1`;
}

/**
 * Stores the answer of a key this request holds (written in progress before its handler
 * waited on something slow); returns a row only if the key is still held.
 */
export function holdKeyGateSql(p: SqlParams, k: KeyToSettle, answer: string, source: string) {
  return `UPDATE idempotency_keys SET state = 'completed', response_status = ${p.add(k.successStatus)}::int,
      response_body = ${answer}
      FROM ${source}
    WHERE client_id = ${p.add(k.clientId)}::uuid AND key = ${p.add(k.key)}::uuid AND state = 'in_progress'
    RETURNING 1`;
}
