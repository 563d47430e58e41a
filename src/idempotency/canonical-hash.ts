import { createHmac, hash, type KeyObject } from 'node:crypto';
import { canonicalJson } from '../common/canonical-json.js';

/** The fingerprint key's label under the pepper (SPEC 11.2: a key of its own, claveDerivada). */
export const LABEL_HUELLA = 'prescription-registry/idempotency-fingerprint/v1';

/**
 * A request's fingerprint for its Idempotency-Key: what the key is stored with, and how a key
 * stored before the fingerprint had a key is still recognised.
 */
export interface RequestFingerprint {
  /** HMAC-SHA256 (hex) of the request under the server's key: stored, and compared in SQL. */
  readonly hash: string;
  /**
   * The bare SHA-256 (hex) of the same request, which keys stored before SPEC 11.2 hold
   * (compared the old way until they expire). Computed only when asked: only such a key needs it.
   */
  legacy(): string;
}

/**
 * What makes two requests "the same" for an Idempotency-Key: the method, the actual path (the
 * resource's ids included, the query string not) and the canonical body. The path, not the
 * route's pattern: a key is shared by every endpoint of its client, so one prescription's key
 * sent to another prescription must differ here (409), never replay the first one's answer.
 *
 * Keyed (SPEC 11.2): the body holds a DNI, and a bare hash of it in `idempotency_keys` would
 * let a dump's reader confirm a guessed DNI in seconds. The key is the server's own
 * (IdempotencyService derives it from the pepper).
 */
export function requestFingerprint(
  key: KeyObject | Buffer,
  method: string,
  path: string,
  body: unknown,
): RequestFingerprint {
  // The method twice, as the keys stored before have it, so `legacy` still matches them.
  const text = `${method} ${method} ${path}\n${canonicalJson(body)}`;
  return {
    hash: createHmac('sha256', key).update(text).digest('hex'),
    legacy: () => hash('sha256', text, 'hex'),
  };
}

/** The fingerprint a key is stored with (requestFingerprint's `hash`). */
export function requestHash(
  key: KeyObject | Buffer,
  method: string,
  path: string,
  body: unknown,
): string {
  return requestFingerprint(key, method, path, body).hash;
}
