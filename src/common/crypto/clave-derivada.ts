import { createHmac } from 'node:crypto';

/**
 * A key derived from the pepper (API_SECRET_PEPPER) under `label`: HMAC-SHA256(pepper, label),
 * one key per label, so no derived key reveals the pepper or another label's key. Used where a
 * key needs no setting of its own (the blind index, the Idempotency-Key's fingerprint, the
 * patient data key outside production). Never change it: every key derived so far would change.
 */
export function claveDerivada(pepper: string, label: string): Buffer {
  return createHmac('sha256', pepper).update(label).digest();
}
