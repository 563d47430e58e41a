import { customValidator } from '../common/validation/validator-schemas.js';
import { parseCuir } from './cuir-format.js';
import { CUIR_PATTERN } from './cuir-patterns.js';

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
