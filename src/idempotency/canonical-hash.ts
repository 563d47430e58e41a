import { createHmac, hash, type KeyObject } from 'node:crypto';
import { canonicalJson } from '../common/canonical-json.js';

/** The fingerprint key's label under the pepper (SPEC 11.2: a key of its own, claveDerivada). */
export const LABEL_HUELLA = 'prescription-registry/idempotency-fingerprint/v1';

export interface RequestFingerprint {
  /** HMAC-SHA256 (hex) of the request under the server's key: stored, and compared in SQL. */
  readonly hash: string;
  /** The bare SHA-256 (hex) that keys stored before SPEC 11.2 hold; computed only when asked. */
  legacy(): string;
}

/**
 * What makes two requests "the same" for an Idempotency-Key: method, actual path (ids included,
 * so one prescription's key sent to another is refused) and canonical body. Keyed (SPEC 11.2):
 * a bare hash of a body holding a DNI would let a dump's reader confirm a guessed DNI.
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
