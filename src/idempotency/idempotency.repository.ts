import { Injectable } from '@nestjs/common';
import { Raw } from 'typeorm';
import { Transactions } from '../database/transactions.js';
import { IdempotencyKeyEntity } from './idempotency-key.entity.js';

/** The Idempotency-Key store; the primary key (client, key) arbitrates races. */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly transactions: Transactions) {}

  private get keys() {
    return this.transactions.repository(IdempotencyKeyEntity);
  }

  /** Writes the key as in progress; false when another request holds or answered it (expired: free). */
  async claim(
    clientId: string,
    key: string,
    hash: string,
    leaseSeconds: number,
    ttlHours: number,
  ): Promise<boolean> {
    const rows: unknown[] = await this.transactions.manager.query(
      `INSERT INTO idempotency_keys (client_id, key, request_hash, state, locked_until, expires_at)
       VALUES ($1, $2, $3, 'in_progress', now() + make_interval(secs => $4), now() + make_interval(hours => $5))
       ON CONFLICT (client_id, key) DO UPDATE SET
         request_hash = EXCLUDED.request_hash, state = 'in_progress', response_status = NULL,
         response_body = NULL, response_text = NULL, locked_until = EXCLUDED.locked_until,
         created_at = now(), expires_at = EXCLUDED.expires_at
       WHERE idempotency_keys.expires_at < now()
       RETURNING 1`,
      [clientId, key, hash, leaseSeconds, ttlHours],
    );
    return rows.length === 1;
  }

  /** The key's live record (not expired), with whether its holder's lease ran out. */
  async find(
    clientId: string,
    key: string,
  ): Promise<(IdempotencyKeyEntity & { leaseExpired: boolean }) | null> {
    // By the database's clock, as written.
    const { entities, raw } = await this.keys
      .createQueryBuilder('k')
      .addSelect('k.locked_until < now()', 'lease_expired')
      .where('k.client_id = :clientId AND k.key = :key AND k.expires_at > now()', {
        clientId,
        key,
      })
      .getRawAndEntities<{ lease_expired: boolean }>();
    return entities[0] ? { ...entities[0], leaseExpired: raw[0].lease_expired } : null;
  }

  /** Takes over an in-progress key whose holder's lease ran out (it crashed); one taker wins. */
  async takeOver(clientId: string, key: string, leaseSeconds: number): Promise<boolean> {
    const result = await this.keys.update(
      { clientId, key, state: 'in_progress', lockedUntil: Raw((at) => `${at} < now()`) },
      { lockedUntil: () => `now() + make_interval(secs => ${Number(leaseSeconds)})` },
    );
    return result.affected === 1;
  }

  /** Rewrites a key's fingerprint stored before SPEC 11.2 (the bare SHA-256) with the keyed one. */
  async rehash(clientId: string, key: string, legacy: string, hash: string): Promise<void> {
    await this.keys.update({ clientId, key, requestHash: legacy }, { requestHash: hash });
  }

  async complete(clientId: string, key: string, status: number, text: string): Promise<void> {
    await this.keys.update(
      { clientId, key },
      { state: 'completed', responseStatus: status, responseText: text },
    );
  }

  async release(clientId: string, key: string): Promise<void> {
    await this.keys.delete({ clientId, key, state: 'in_progress' });
  }

  async deleteExpired(): Promise<number> {
    const result = await this.keys.delete({ expiresAt: Raw((at) => `${at} < now()`) });
    return result.affected ?? 0;
  }
}
