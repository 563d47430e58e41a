import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The Stripe-style signature: `X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "t.body")>`.
 * Signing the timestamp with the body lets receivers refuse replays of old deliveries.
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${hmac(secret, unixSeconds, body)}`;
}

/** What a receiver does: check the signature and that the timestamp is recent. */
export function verifySignature(
  secret: string,
  body: string,
  header: string,
  toleranceSeconds = 300,
  now = Date.now(),
): boolean {
  const parts = Object.fromEntries(
    header.split(',').map((p) => p.split('=', 2) as [string, string]),
  );
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(now / 1000 - t) > toleranceSeconds) return false;
  if (typeof parts.v1 !== 'string') return false;
  const expected = Buffer.from(hmac(secret, t, body), 'hex');
  const given = Buffer.from(parts.v1, 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const hmac = (secret: string, t: number, body: string) =>
  createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
