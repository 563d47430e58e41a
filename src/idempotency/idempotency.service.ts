import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { DomainError } from '../common/errors/domain-error.js';
import type { ErrorCode, ErrorDetail } from '../common/errors/error-codes.js';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import { requestHash } from './canonical-hash.js';
import { IdempotencyRepository } from './idempotency.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Longer than any request may run (REQUEST_TIMEOUT_MS), so a live request keeps its key. */
const LEASE_SECONDS = 60;
const TTL_HOURS = 24;
const CLEANUP_INTERVAL_MS = 15 * 60_000;

export type StoredBody =
  { data: unknown } | { error: { code: ErrorCode; message: string; details?: ErrorDetail[] } };

export interface StoredOutcome {
  status: number;
  body: StoredBody;
}

export type Begun = { key: string; replay?: undefined } | { key: string; replay: StoredOutcome };

/**
 * The Idempotency-Key rules of SPEC 3, for any POST: keyed by (client, key), compared by a
 * canonical request hash, an in-flight marker with a lease (a crashed request frees its key
 * when the lease runs out), replay of stored 2xx/4xx outcomes, 5xx never stored, keys kept 24 h.
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

  async begin(clientId: string, rawKey: unknown, route: string, body: unknown): Promise<Begun> {
    if (typeof rawKey !== 'string' || !UUID.test(rawKey)) {
      throw new DomainError('VALIDATION_FAILED', 'Idempotency-Key must be a UUID', [
        { field: 'Idempotency-Key', issue: 'must be a UUID' },
      ]);
    }
    const key = rawKey.toLowerCase();
    const hash = requestHash('POST', route, body);
    if (await this.keys.claim(clientId, key, hash, LEASE_SECONDS, TTL_HOURS)) return { key };

    const existing = await this.keys.find(clientId, key);
    if (!existing) {
      // Expired or released between our claim and this read: claim once more.
      if (await this.keys.claim(clientId, key, hash, LEASE_SECONDS, TTL_HOURS)) return { key };
      throw inProgress();
    }
    if (existing.requestHash !== hash) {
      throw new DomainError(
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was used with a different request',
      );
    }
    if (existing.state === 'completed') {
      return {
        key,
        replay: {
          status: existing.responseStatus ?? 200,
          body: existing.responseBody as StoredBody,
        },
      };
    }
    if (existing.leaseExpired && (await this.keys.takeOver(clientId, key, LEASE_SECONDS)))
      return { key };
    throw inProgress();
  }

  finish(clientId: string, key: string, status: number, body: StoredBody): Promise<void> {
    return this.keys.complete(clientId, key, status, body);
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

const inProgress = () =>
  new DomainError(
    'IDEMPOTENCY_KEY_IN_PROGRESS',
    'A request with this Idempotency-Key is still being processed; retry later',
  );
