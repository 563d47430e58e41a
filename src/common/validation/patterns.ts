// The patterns the OpenAPI document states, built from what the server validates with
// (patterns.spec.ts checks each against its validator).
import { INDEC_JURISDICTION_CODES } from '../indec-jurisdictions.js';
import { REFUSED_BMP_RANGES } from './request-text.js';
import { DATE_TIME_MAX_LENGTH, ISO_WITH_OFFSET } from './validators.js';

/** An alternation of the given literals, as a non-capturing group. */
export const anyOf = (values: readonly string[]) => `(?:${values.join('|')})`;

/** One of the 24 INDEC jurisdiction codes. */
export const INDEC_CODE_PATTERN = `^${anyOf(INDEC_JURISDICTION_CODES)}$`;

/** An Argentine DNI as stored: 7 or 8 digits. */
const DNI_PATTERN = '^[0-9]{7,8}$';

/** A DNI as accepted on input: 7 or 8 digits, or written with dots (30.111.222). */
export const DNI_INPUT_PATTERN = '^(?:[0-9]{7,8}|[0-9]{1,2}\\.[0-9]{3}\\.[0-9]{3})$';

/** A licence number: 1–20 letters or digits. */
const MATRICULA_PATTERN = '^[A-Za-z0-9]{1,20}$';

/** An id_transaccion: a decimal string of up to 18 digits (anything else answers 404). */
export const ID_TRANSACCION_PATTERN = '^[0-9]{1,18}$';

/** A UUID of any version, either case (`format: uuid` alone also admits a `urn:uuid:` prefix). */
export const UUID_PATTERN =
  '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$';

/** ISO 8601 date-time with an explicit offset (`Z` or ±hh:mm). */
export const DATE_TIME_WITH_OFFSET_PATTERN = ISO_WITH_OFFSET.source;

export { DATE_TIME_MAX_LENGTH };

/** Free text: no refused character of the BMP (request-text.ts), for strings without a pattern. */
export const TEXT_PATTERN = `^[^${REFUSED_BMP_RANGES}]*$`;

export const DNI = new RegExp(DNI_PATTERN);
export const MATRICULA = new RegExp(MATRICULA_PATTERN);
export const ID_TRANSACCION = new RegExp(ID_TRANSACCION_PATTERN);
export const UUID = new RegExp(UUID_PATTERN);
