import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { createSecretKey, type KeyObject } from 'node:crypto';
import { UUID } from '../common/validation/patterns.js';
import type { Logger } from 'pino';
import { authSettings, type AuthSettings } from '../auth/auth.public.js';
import { claveDerivada } from '../common/crypto/clave-derivada.js';
import { DomainError } from '../common/errors/domain-error.js';
import { errorEnvelope } from '../common/errors/error-envelope.js';
import type { ErrorCode, ErrorDetail } from '../common/errors/error-codes.js';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import { InjectSettings } from '../config/inject-settings.js';
import { LABEL_HUELLA, requestFingerprint, type RequestFingerprint } from './canonical-hash.js';
import type { StoredOutcome } from './idempotency-claim.js';
import { IdempotencyKeyEntity } from './idempotency-key.entity.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { KEY_LEASE_SECONDS, KEY_TTL_HOURS } from './idempotency.sql.js';

const CLEANUP_INTERVAL_MS = 15 * 60_000;

/**
 * The Idempotency-Key rules of contract §3: keyed by (client, key), compared by the request's
 * keyed fingerprint, in progress under a lease (a crashed request's key frees when it runs out),
 * 2xx/4xx answers replayed byte for byte, 5xx never stored, keys kept 24 h.
 */
@Injectable()
export class IdempotencyService implements OnModuleInit {
  private readonly log: Logger;
  private readonly clave: KeyObject;

  constructor(
    private readonly keys: IdempotencyRepository,
    @Inject(ROOT_LOGGER) logger: Logger,
    @InjectSettings(authSettings) auth: AuthSettings,
    private readonly schedule: SchedulerRegistry,
  ) {
    this.log = logger.child({ component: 'idempotency' });
    this.clave = createSecretKey(claveDerivada(auth.secretPepper, LABEL_HUELLA));
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

  fingerprint(method: string, path: string, body: unknown): RequestFingerprint {
    return requestFingerprint(this.clave, method, path, body);
  }

  /** Writes the key as in progress: null when it is now this request's, else the stored outcome; 409 when in use. */
  async begin(
    clientId: string,
    key: string,
    fp: RequestFingerprint,
  ): Promise<StoredOutcome | null> {
    const claim = () => this.keys.claim(clientId, key, fp.hash, KEY_LEASE_SECONDS, KEY_TTL_HOURS);
    if (await claim()) return null;
    const existing = await this.keys.find(clientId, key);
    if (!existing) {
      // Expired or released between our claim and this read: claim once more.
      if (await claim()) return null;
      throw inProgress();
    }
    const stored = await this.outcomeFor(existing, fp);
    if (stored) return stored;
    if (existing.leaseExpired && (await this.keys.takeOver(clientId, key, KEY_LEASE_SECONDS)))
      return null;
    throw inProgress();
  }

  /** For a request whose write lost its key: the winner's stored outcome, else 409 (retry). */
  async afterRefusal(
    clientId: string,
    key: string,
    fp: RequestFingerprint,
  ): Promise<StoredOutcome> {
    const existing = await this.keys.find(clientId, key);
    const stored = existing && (await this.outcomeFor(existing, fp));
    if (stored) return stored;
    throw inProgress();
  }

  /**
   * A live key's outcome for this request (null while in progress); 409 when it answered another
   * request. A key holding the bare SHA-256 (before SPEC 11.2) is rewritten with the keyed one.
   */
  private async outcomeFor(
    existing: IdempotencyKeyEntity,
    fp: RequestFingerprint,
  ): Promise<StoredOutcome | null> {
    if (existing.requestHash !== fp.hash) {
      if (existing.requestHash !== fp.legacy()) throw reused();
      await this.keys.rehash(existing.clientId, existing.key, existing.requestHash, fp.hash);
    }
    return outcomeOf(existing);
  }

  finish(clientId: string, key: string, outcome: StoredOutcome): Promise<void> {
    return this.keys.complete(clientId, key, outcome.status, outcome.text);
  }

  /** A 5xx is not stored: the key is freed so a retry runs again. */
  abandon(clientId: string, key: string): Promise<void> {
    return this.keys.release(clientId, key);
  }

  /** Expired keys are deleted every 15 minutes (the schedule module clears the timer at shutdown). */
  onModuleInit(): void {
    const timer = setInterval(() => {
      this.keys
        .deleteExpired()
        .then((n) => n > 0 && this.log.info({ deleted: n }, 'expired idempotency keys removed'))
        .catch((err: unknown) => this.log.warn({ err }, 'idempotency cleanup failed'));
    }, CLEANUP_INTERVAL_MS).unref();
    this.schedule.addInterval('idempotency-cleanup', timer);
  }
}

/** A key's stored outcome; null while in progress. */
function outcomeOf(existing: IdempotencyKeyEntity): StoredOutcome | null {
  if (existing.state !== 'completed') return null;
  const status = existing.responseStatus ?? 200;
  if (existing.responseText !== null) return { status, text: existing.responseText };
  // Stored before the bytes were kept: `{data}` or `{error}`, in today's envelope.
  const b = existing.responseBody as
    { data: unknown } | { error: { code: ErrorCode; message: string; details?: ErrorDetail[] } };
  if ('data' in b) return { status, text: JSON.stringify({ success: true, data: b.data }) };
  const { code, message, details } = b.error;
  return { status, text: JSON.stringify(errorEnvelope(code, message, details, 'replay')) };
}

const reused = () =>
  new DomainError(
    'IDEMPOTENCY_KEY_REUSED',
    'This Idempotency-Key was used with a different request',
  );

const inProgress = () =>
  new DomainError(
    'IDEMPOTENCY_KEY_IN_PROGRESS',
    'A request with this Idempotency-Key is still being processed; retry later',
  );
