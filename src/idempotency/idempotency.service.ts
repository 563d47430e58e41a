import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { UUID } from '../common/validation/patterns.js';
import type { Logger } from 'pino';
import { DomainError } from '../common/errors/domain-error.js';
import { errorEnvelope } from '../common/errors/error-envelope.js';
import type { ErrorCode, ErrorDetail } from '../common/errors/error-codes.js';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import { requestHash } from './canonical-hash.js';
import type { StoredOutcome } from './idempotency-claim.js';
import { IdempotencyKeyEntity } from './idempotency-key.entity.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { KEY_LEASE_SECONDS, KEY_TTL_HOURS } from './idempotency.sql.js';

const CLEANUP_INTERVAL_MS = 15 * 60_000;

/**
 * The Idempotency-Key rules of contract §3, for any POST: keyed by (client, key), compared by a
 * canonical request hash, an in-flight marker with a lease (a crashed request frees its key
 * when the lease runs out), replay of stored 2xx/4xx answers byte for byte, 5xx never
 * stored, keys kept 24 h.
 */
@Injectable()
export class IdempotencyService implements OnModuleInit, OnApplicationShutdown {
  private cleanupTimer?: NodeJS.Timeout;
  private readonly log: Logger;

  constructor(
    private readonly keys: IdempotencyRepository,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.log = logger.child({ component: 'idempotency' });
  }

  /** The key, lower-cased; anything but a UUID → 400. */
  parseKey(rawKey: unknown): string {
    if (typeof rawKey !== 'string' || !UUID.test(rawKey)) {
      throw new DomainError('VALIDATION_FAILED', 'Idempotency-Key must be a UUID', [
        { field: 'Idempotency-Key', issue: 'must be a UUID' },
      ]);
    }
    return rawKey.toLowerCase();
  }

  /** The fingerprint a key is stored with: method, actual path (ids included), canonical body. */
  hash(method: string, path: string, body: unknown): string {
    return requestHash(method, path, body);
  }

  /**
   * Writes the key as in progress for this request: null when it is now this request's, the
   * stored outcome when the same request was answered already; 409 when the key is in use.
   */
  async begin(clientId: string, key: string, hash: string): Promise<StoredOutcome | null> {
    if (await this.keys.claim(clientId, key, hash, KEY_LEASE_SECONDS, KEY_TTL_HOURS)) return null;
    const existing = await this.keys.find(clientId, key);
    if (!existing) {
      // Expired or released between our claim and this read: claim once more.
      if (await this.keys.claim(clientId, key, hash, KEY_LEASE_SECONDS, KEY_TTL_HOURS)) return null;
      throw inProgress();
    }
    const stored = outcomeOf(existing, hash);
    if (stored) return stored;
    if (existing.leaseExpired && (await this.keys.takeOver(clientId, key, KEY_LEASE_SECONDS)))
      return null;
    throw inProgress();
  }

  /**
   * The answer for a request whose write was refused because another request took its key:
   * that request's stored outcome, else 409 (it is still running, or it failed and freed the
   * key a moment ago: either way a retry is what the client should do).
   */
  async afterRefusal(clientId: string, key: string, hash: string): Promise<StoredOutcome> {
    const existing = await this.keys.find(clientId, key);
    const stored = existing && outcomeOf(existing, hash);
    if (stored) return stored;
    throw inProgress();
  }

  /** Stores the answer's exact bytes under the key. */
  finish(clientId: string, key: string, outcome: StoredOutcome): Promise<void> {
    return this.keys.complete(clientId, key, outcome.status, outcome.text);
  }

  /** A 5xx is not stored: the key is freed so a retry runs again. */
  abandon(clientId: string, key: string): Promise<void> {
    return this.keys.release(clientId, key);
  }

  onModuleInit(): void {
    this.cleanupTimer = setInterval(() => {
      this.keys
        .deleteExpired()
        .then((n) => n > 0 && this.log.info({ deleted: n }, 'expired idempotency keys removed'))
        .catch((err: unknown) => this.log.warn({ err }, 'idempotency cleanup failed'));
    }, CLEANUP_INTERVAL_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.cleanupTimer);
  }
}

/** A completed key's outcome for a request with `hash`; 409 when the key answered another body. */
function outcomeOf(existing: IdempotencyKeyEntity, hash: string): StoredOutcome | null {
  if (existing.requestHash !== hash) {
    throw new DomainError(
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was used with a different request',
    );
  }
  if (existing.state !== 'completed') return null;
  const status = existing.responseStatus ?? 200;
  if (existing.responseText !== null) return { status, text: existing.responseText };
  return { status, text: legacyText(existing.responseBody) };
}

/** Answers stored before their bytes were kept (`{data}` or `{error}`), in today's envelope. */
function legacyText(body: unknown): string {
  const b = body as
    { data: unknown } | { error: { code: ErrorCode; message: string; details?: ErrorDetail[] } };
  if ('data' in b) return JSON.stringify({ success: true, data: b.data });
  return JSON.stringify(errorEnvelope(b.error.code, b.error.message, b.error.details, 'replay'));
}

const inProgress = () =>
  new DomainError(
    'IDEMPOTENCY_KEY_IN_PROGRESS',
    'A request with this Idempotency-Key is still being processed; retry later',
  );
