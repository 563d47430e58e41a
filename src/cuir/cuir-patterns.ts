import { INDEC_JURISDICTION_CODES } from '../common/indec-jurisdictions.js';
import { anyOf } from '../common/validation/patterns.js';
import { SUBTYPES_BY_TYPE } from './cuir-format.js';

/** The CUIR as the OpenAPI document states it, built from the tables parseCuir checks with. */

/**
 * A structurally valid CUIR (what registration and verification require): platform(4),
 * repository(4), an INDEC jurisdiction, a prescription type with a subtype from its table,
 * groupId(25), itemId 01–99.
 */
export const CUIR_PATTERN = `^[0-9]{8}${anyOf(INDEC_JURISDICTION_CODES)}${anyOf(
  Object.entries(SUBTYPES_BY_TYPE).flatMap(([type, subtypes]) => subtypes.map((s) => type + s)),
)}[0-9]{25}(?:0[1-9]|[1-9][0-9])$`;

/** Exactly 41 digits (a filter: no structural check). */
export const CUIR_DIGITS_PATTERN = '^[0-9]{41}$';
