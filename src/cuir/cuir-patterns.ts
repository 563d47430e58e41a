import { INDEC_JURISDICTION_CODES } from '../common/indec-jurisdictions.js';
import { anyOf } from '../common/validation/patterns.js';
import { PRESCRIPTION_TYPES } from './cuir-format.js';

/**
 * A structurally valid CUIR as the OpenAPI document states it, built from the tables parseCuir
 * checks with: an INDEC jurisdiction, a known prescription type, any 2-digit subtype, itemId 01–99.
 */
export const CUIR_PATTERN = `^[0-9]{8}${anyOf(INDEC_JURISDICTION_CODES)}${anyOf(
  Object.keys(PRESCRIPTION_TYPES),
)}[0-9]{27}(?:0[1-9]|[1-9][0-9])$`;
