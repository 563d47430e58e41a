import { INDEC_JURISDICTION_CODES } from '../common/indec-jurisdictions.js';
import { anyOf } from '../common/validation/patterns.js';
import { PRESCRIPTION_TYPES } from './cuir-format.js';

/** The CUIR as the OpenAPI document states it, built from the tables parseCuir checks with. */

/**
 * A structurally valid CUIR (what registration and verification require): platform(4),
 * repository(4), an INDEC jurisdiction, a known prescription type, any 2-digit subtype
 * (generation with local rules off issues subtypes outside the table), groupId(25), itemId 01–99.
 */
export const CUIR_PATTERN = `^[0-9]{8}${anyOf(INDEC_JURISDICTION_CODES)}${anyOf(
  Object.keys(PRESCRIPTION_TYPES),
)}[0-9]{27}(?:0[1-9]|[1-9][0-9])$`;

/** Exactly 41 digits (a filter: no structural check). */
export const CUIR_DIGITS_PATTERN = '^[0-9]{41}$';
