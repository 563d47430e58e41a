/**
 * CUIL / CUIT: 11 digits, a 2-digit type prefix, the 8-digit document number and a mod-11
 * check digit (weights 5,4,3,2,7,6,5,4,3,2; r = 11 − sum mod 11; 11 → 0). When r = 10 the issuer
 * changes the prefix instead (20/27 → 23, 30 → 33, or 24/34), so the strict rule accepts every
 * number issued; the lax "10 → 9" variant would accept numbers nobody holds.
 */

/** Prefixes of natural persons (CUIL and a person's CUIT). */
export const PERSON_PREFIXES: readonly string[] = ['20', '23', '24', '27'];
/** Prefixes of legal entities (companies, associations, the state). */
export const ENTITY_PREFIXES: readonly string[] = ['30', '33', '34'];

const WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2] as const;

/** The check digit of 10 ASCII digits, or undefined when the rule yields 10 (see above). */
export function cuitCheckDigit(first10: string): number | undefined {
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += WEIGHTS[i] * (first10.charCodeAt(i) - 48);
  const r = 11 - (sum % 11);
  return r === 11 ? 0 : r === 10 ? undefined : r;
}

/** A person's or an entity's CUIT: 11 ASCII digits, a known prefix, a valid check digit. */
export function isValidCuit(s: unknown): s is string {
  if (typeof s !== 'string' || !/^\d{11}$/.test(s)) return false;
  const prefix = s.slice(0, 2);
  if (!PERSON_PREFIXES.includes(prefix) && !ENTITY_PREFIXES.includes(prefix)) return false;
  return cuitCheckDigit(s.slice(0, 10)) === s.charCodeAt(10) - 48;
}

/** A CUIL: a valid CUIT whose prefix is a natural person's (20, 23, 24, 27). */
export function isValidCuil(s: unknown): s is string {
  return isValidCuit(s) && PERSON_PREFIXES.includes(s.slice(0, 2));
}

/** The DNI inside a valid CUIL: its middle 8 digits (contract §8), zero-padded. */
export function dniFromCuil(cuil: string): string | undefined {
  return isValidCuil(cuil) ? cuil.slice(2, 10) : undefined;
}

/** Whether a stored document (7 or 8 digits) is the DNI in `cuil`, compared as numbers. */
export function cuilMatchesDocumento(cuil: string, documento: string): boolean {
  const dni = dniFromCuil(cuil);
  if (dni === undefined || !/^\d{7,8}$/.test(documento)) return false;
  return dni.replace(/^0+/, '') === documento.replace(/^0+/, '');
}
