import type { IdempotencyKeyEntity } from '../../../src/idempotency/idempotency-key.entity.js';
import type { IdempotencyRepository } from '../../../src/idempotency/idempotency.repository.js';

type Stored = IdempotencyKeyEntity;

/** The key store in memory, with the repository's rules and a clock the test moves. */
export class FakeIdempotencyRepository implements Pick<
  IdempotencyRepository,
  'claim' | 'find' | 'takeOver' | 'rehash' | 'complete' | 'release'
> {
  readonly keys = new Map<string, Stored>();
  now = Date.parse('2026-11-23T12:00:00Z');

  private id = (clientId: string, key: string) => `${clientId}/${key}`;

  claim(clientId: string, key: string, hash: string, leaseS: number, ttlH: number) {
    const existing = this.keys.get(this.id(clientId, key));
    if (existing && existing.expiresAt.getTime() >= this.now) return Promise.resolve(false);
    this.keys.set(this.id(clientId, key), {
      clientId,
      key,
      requestHash: hash,
      state: 'in_progress',
      responseStatus: null,
      responseText: null,
      responseBody: null,
      lockedUntil: new Date(this.now + leaseS * 1000),
      createdAt: new Date(this.now),
      expiresAt: new Date(this.now + ttlH * 3600_000),
    });
    return Promise.resolve(true);
  }

  find(clientId: string, key: string) {
    const k = this.keys.get(this.id(clientId, key));
    if (!k || k.expiresAt.getTime() <= this.now) return Promise.resolve(null);
    return Promise.resolve({ ...k, leaseExpired: k.lockedUntil.getTime() < this.now });
  }

  takeOver(clientId: string, key: string, leaseS: number) {
    const k = this.keys.get(this.id(clientId, key));
    if (!k || k.state !== 'in_progress' || k.lockedUntil.getTime() >= this.now)
      return Promise.resolve(false);
    k.lockedUntil = new Date(this.now + leaseS * 1000);
    return Promise.resolve(true);
  }

  rehash(clientId: string, key: string, legacy: string, hash: string) {
    const k = this.keys.get(this.id(clientId, key));
    if (k?.requestHash === legacy) k.requestHash = hash;
    return Promise.resolve();
  }

  complete(clientId: string, key: string, status: number, text: string) {
    const k = this.keys.get(this.id(clientId, key));
    if (k) Object.assign(k, { state: 'completed', responseStatus: status, responseText: text });
    return Promise.resolve();
  }

  release(clientId: string, key: string) {
    const k = this.keys.get(this.id(clientId, key));
    if (k?.state === 'in_progress') this.keys.delete(this.id(clientId, key));
    return Promise.resolve();
  }
}
