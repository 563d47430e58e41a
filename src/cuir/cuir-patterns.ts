import { INDEC_JURISDICTION_CODES } from '../common/indec-jurisdictions.js';
import { anyOf } from '../common/validation/patterns.js';
import { customValidator } from '../common/validation/validator-schemas.js';
import { parseCuir, PRESCRIPTION_TYPES } from './cuir-format.js';

/**
 * A structurally valid CUIR as the OpenAPI document states it, built from the tables parseCuir
 * checks with: an INDEC jurisdiction, a known prescription type, any 2-digit subtype, itemId 01–99.
 */
export const CUIR_PATTERN = `^[0-9]{8}${anyOf(INDEC_JURISDICTION_CODES)}${anyOf(
  Object.keys(PRESCRIPTION_TYPES),
)}[0-9]{27}(?:0[1-9]|[1-9][0-9])$`;

/** A structurally valid 41-digit CUIR (the CUIR module is the single source of truth). */
export const IsCuir = customValidator(
  'isCuir',
  { pattern: CUIR_PATTERN, minLength: 41, maxLength: 41 },
  () => ({
    validate: (value: unknown) => typeof value === 'string' && parseCuir(value).ok,
    defaultMessage: (args) => {
      const value: unknown = args?.value;
      if (typeof value !== 'string') return 'must be a string of 41 digits';
      const parsed = parseCuir(value);
      return parsed.ok
        ? ''
        : `must be a valid CUIR: ${parsed.issues.map((i) => (i.field === 'cuir' ? i.issue : `${i.field} ${i.issue}`)).join('; ')}`;
    },
  }),
);
