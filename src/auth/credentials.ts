import {
  createHmac,
  createSecretKey,
  type KeyObject,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

/** A public client key: prefixed, 128 random bits. */
export const newClientKey = () => 'rk_' + randomBytes(16).toString('base64url');

/** A client secret: prefixed, 256 random bits, shown once. */
export const newClientSecret = () => 'rs_' + randomBytes(32).toString('base64url');

/**
 * Secrets carry 256 bits of randomness, so a slow password hash buys nothing; a keyed hash
 * (HMAC-SHA-256 with a server-side pepper, bound to the client key) keeps a leaked table useless.
 */
export function hashSecret(pepper: string, key: string, secret: string): string {
  return createHmac('sha256', pepperKey(pepper)).update(`${key}\0${secret}`).digest('hex');
}

/** The pepper as a KeyObject, made once: building it on every request's HMAC cost each one. */
const peppers = new Map<string, KeyObject>();
function pepperKey(pepper: string): KeyObject {
  let k = peppers.get(pepper);
  if (!k) peppers.set(pepper, (k = createSecretKey(Buffer.from(pepper, 'utf8'))));
  return k;
}

/** Constant-time check of a presented secret against any of the stored hashes. */
export function secretMatches(
  pepper: string,
  key: string,
  secret: string,
  hashes: string[],
): boolean {
  const presented = Buffer.from(hashSecret(pepper, key, secret), 'hex');
  let ok = false;
  for (const h of hashes) {
    const stored = Buffer.from(h, 'hex');
    // Compare every hash (no early exit) so the answer time does not depend on which matched.
    if (stored.length === presented.length && timingSafeEqual(stored, presented)) ok = true;
  }
  return ok;
}
