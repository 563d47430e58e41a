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
import { InjectSettings } from '../config/settings.js';
import { LABEL_HUELLA, requestFingerprint, type RequestFingerprint } from './canonical-hash.js';
import type { StoredOutcome } from './idempotency-claim.js';
import { IdempotencyKeyEntity } from './idempotency-key.entity.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { KEY_LEASE_SECONDS, KEY_TTL_HOURS } from './idempotency.sql.js';

const CLEANUP_INTERVAL_MS = 15 * 60_000;

/**
 * The Idempotency-Key rules of contract §3, for any POST: keyed by (client, key), compared by a
 * keyed fingerprint of the request (canonical-hash.ts), an in-flight marker with a lease (a crashed request frees its key
 * when the lease runs out), replay of stored 2xx/4xx answers byte for byte, 5xx never
 * stored, keys kept 24 h.
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

  /**
   * The fingerprint a key is stored with: method, actual path (ids included), canonical body,
   * under the server's key.
   */
  fingerprint(method: string, path: string, body: unknown): RequestFingerprint {
    return requestFingerprint(this.clave, method, path, body);
  }

  /**
   * Writes the key as in progress for this request: null when it is now this request's, the
   * stored outcome when the same request was answered already; 409 when the key is in use.
   */
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

  /**
   * The answer for a request whose write was refused because another request took its key:
   * that request's stored outcome, else 409 (it is still running, or it failed and freed the
   * key a moment ago: either way a retry is what the client should do).
   */
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
   * A live key's outcome for this request (null while in progress); 409 when the key answered
   * another request. A key stored before SPEC 11.2 holds the bare SHA-256: it matches the old
   * way, and is rewritten with the keyed fingerprint, so every later comparison (the
   * registration's gate, in SQL) is the keyed one.
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

  /** Stores the answer's exact bytes under the key. */
  finish(clientId: string, key: string, outcome: StoredOutcome): Promise<void> {
    return this.keys.complete(clientId, key, outcome.status, outcome.text);
  }

  /** A 5xx is not stored: the key is freed so a retry runs again. */
  abandon(clientId: string, key: string): Promise<void> {
    return this.keys.release(clientId, key);
  }

  /** Expired keys are deleted every 15 minutes (unref'd; the schedule module clears it at shutdown). */
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

/** A key's stored outcome, once its request is the same; null while it is in progress. */
function outcomeOf(existing: IdempotencyKeyEntity): StoredOutcome | null {
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
