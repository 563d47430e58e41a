/**
 * CUIL / CUIT (Argentina's tax and labour identification numbers): 11 digits, a 2-digit type
 * prefix, the 8-digit document number (DNI for persons) and a mod-11 check digit. Pure
 * functions, no Nest, no I/O: the patient's access uses `isValidCuil` and `dniFromCuil`,
 * dispensation checks a pharmacy's `cuit` with `isValidCuit`.
 *
 * Check digit: the first 10 digits weighted 5,4,3,2,7,6,5,4,3,2 and summed; r = 11 − sum mod 11;
 * r = 11 → 0; r = 10 → no valid check digit exists for that prefix. The issuer (AFIP/ANSES)
 * never hands out such a number: it changes the prefix instead (20 or 27 → 23, 30 → 33, and 24
 * or 34 where that collides too), and the plain computation over the new number gives the
 * check digit it assigns (9 for a 20 moved to 23, 4 for a 27 moved to 23). So the strict rule
 * accepts every number actually issued. The lax variant seen in many snippets ("10 → 9" with
 * the prefix unchanged) would accept numbers nobody holds; we do not use it.
 */

/** Prefixes of natural persons (CUIL and a person's CUIT). */
export const PERSON_PREFIXES: readonly string[] = ['20', '23', '24', '27'];
/** Prefixes of legal entities (companies, associations, the state). */
export const ENTITY_PREFIXES: readonly string[] = ['30', '33', '34'];

const WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2] as const;
const ELEVEN_DIGITS = /^\d{11}$/;

/**
 * The check digit for the first 10 digits, or undefined when the mod-11 rule yields 10 (the
 * issuer changes the prefix instead, see above). `first10` must be 10 ASCII digits.
 */
export function cuitCheckDigit(first10: string): number | undefined {
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += WEIGHTS[i] * (first10.charCodeAt(i) - 48);
  const r = 11 - (sum % 11);
  if (r === 11) return 0;
  if (r === 10) return undefined;
  return r;
}

function hasValidCheckDigit(s: string): boolean {
  return cuitCheckDigit(s.slice(0, 10)) === s.charCodeAt(10) - 48;
}

/**
 * A CUIT of a person or of an entity: exactly 11 ASCII digits (no dashes or spaces: callers
 * normalise first if they accept them), a known prefix, a valid check digit.
 */
export function isValidCuit(s: unknown): s is string {
  if (typeof s !== 'string' || !ELEVEN_DIGITS.test(s)) return false;
  const prefix = s.slice(0, 2);
  if (!PERSON_PREFIXES.includes(prefix) && !ENTITY_PREFIXES.includes(prefix)) return false;
  return hasValidCheckDigit(s);
}

/** A CUIL: a valid CUIT whose prefix is a natural person's (20, 23, 24, 27). */
export function isValidCuil(s: unknown): s is string {
  return isValidCuit(s) && PERSON_PREFIXES.includes(s.slice(0, 2));
}

/**
 * The DNI inside a CUIL: its middle 8 digits, as contract §8 says (zero-padded: 20-05123456-x holds
 * "05123456"). Undefined when `cuil` is not a valid CUIL.
 */
export function dniFromCuil(cuil: string): string | undefined {
  return isValidCuil(cuil) ? cuil.slice(2, 10) : undefined;
}

/**
 * Whether a stored patient document (7 or 8 digits, as registration keeps it) is the DNI inside
 * `cuil`. Compared as numbers, because a 7-digit DNI sits zero-padded in the CUIL.
 */
export function cuilMatchesDocumento(cuil: string, documento: string): boolean {
  const dni = dniFromCuil(cuil);
  if (dni === undefined || !/^\d{7,8}$/.test(documento)) return false;
  return dni.replace(/^0+/, '') === documento.replace(/^0+/, '');
}
