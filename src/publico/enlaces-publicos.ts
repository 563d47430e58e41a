import { createHmac, timingSafeEqual } from 'node:crypto';

/** Bytes of the HMAC kept in the link: 128 bits, 22 base64url characters. */
const FIRMA_BYTES = 16;
const FIRMA_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/**
 * The public verification link of a prescription (contract §9.4): `{base}/r/{cuir}?f={firma}`,
 * where `firma` is an HMAC of the CUIR under a key only the service holds, so a link can be
 * printed (the QR) and handed to the ministry, and nobody can make one for a CUIR they walked
 * to. Pure: the key comes from EnlacesPublicos.
 */
export function firmaDe(clave: Buffer, cuir: string): string {
  return createHmac('sha256', clave)
    .update(`cuir:${cuir}`)
    .digest()
    .subarray(0, FIRMA_BYTES)
    .toString('base64url');
}

/** Whether `firma` is the CUIR's (constant time; anything malformed is simply not). */
export function firmaValida(clave: Buffer, cuir: string, firma: unknown): boolean {
  if (typeof firma !== 'string' || !FIRMA_PATTERN.test(firma)) return false;
  return timingSafeEqual(
    Buffer.from(firma, 'base64url'),
    Buffer.from(firmaDe(clave, cuir), 'base64url'),
  );
}

export function enlacePublico(baseUrl: string, clave: Buffer, cuir: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return `${base}/r/${encodeURIComponent(cuir)}?f=${firmaDe(clave, cuir)}`;
}

/**
 * The key: VERIFICACION_PUBLICA_CLAVE when set, else derived from API_SECRET_PEPPER under a
 * label of its own (the pepper itself never signs links). Changing either voids every printed
 * link.
 */
export function claveDeEnlaces(configured: string | undefined, pepper: string): Buffer {
  return configured !== undefined
    ? Buffer.from(configured, 'utf8')
    : createHmac('sha256', pepper).update('prescription-registry/verificacion-publica/v1').digest();
}
