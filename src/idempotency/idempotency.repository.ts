import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SqlParams } from '../common/sql/sql-params.js';

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

/**
 * Stores a key's answer. `body` is an SQL expression of the stored `jsonb`; with `from`, the
 * UPDATE reads that relation too (the CTE of the insert whose answer this is).
 */
export function completeKeySql(
  p: SqlParams,
  clientId: string,
  key: string,
  status: number,
  body: string,
  from?: string,
): string {
  return `UPDATE idempotency_keys SET state = 'completed', response_status = ${p.add(status)},
      response_body = ${body}${from ? ` FROM ${from}` : ''}
    WHERE client_id = ${p.add(clientId)} AND key = ${p.add(key)}`;
}
