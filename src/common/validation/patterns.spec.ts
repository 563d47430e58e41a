import fc from 'fast-check';
import { INDEC_JURISDICTION_CODES } from '../indec-jurisdictions.js';
import { parseIsoWithOffset } from './validators.js';
import {
  DATE_TIME_MAX_LENGTH,
  DATE_TIME_WITH_OFFSET_PATTERN,
  DNI_INPUT_PATTERN,
  INDEC_CODE_PATTERN,
} from './patterns.js';
// The CUIR's pattern is the cuir module's: see src/cuir/cuir-patterns.spec.ts.

// As a JSON Schema validator reads `pattern`: an ECMA-262 regular expression, unicode mode.
const re = (pattern: string) => new RegExp(pattern, 'u');

describe('the OpenAPI patterns agree with the validators', () => {
  it('INDEC_CODE_PATTERN is the 24 codes', () => {
    for (let i = 0; i < 100; i++) {
      const code = String(i).padStart(2, '0');
      expect(re(INDEC_CODE_PATTERN).test(code)).toBe(INDEC_JURISDICTION_CODES.includes(code));
    }
  });

  it('DNI_INPUT_PATTERN: 7–8 digits, or the same written with dots', () => {
    for (const ok of ['1234567', '30111222', '1.234.567', '30.111.222']) {
      expect(re(DNI_INPUT_PATTERN).test(ok)).toBe(true);
    }
    for (const bad of [
      '123456',
      '301112223',
      '30.111222',
      '301.112.22',
      '30 111 222',
      '３0111222',
    ]) {
      expect(re(DNI_INPUT_PATTERN).test(bad)).toBe(false);
    }
  });

  it('the date-time pattern is the validator’s; every date-time the validator accepts fits it', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1900-01-01Z'),
          max: new Date('2999-12-31Z'),
          noInvalidDate: true,
        }),
        fc.constantFrom('Z', '+00:00', '-03:00', '+0530'),
        fc.boolean(),
        (d, offset, millis) => {
          const s = (millis ? d.toISOString() : d.toISOString().replace(/\.\d{3}/, '')).replace(
            'Z',
            offset,
          );
          expect(parseIsoWithOffset(s)).toBeDefined();
          expect(re(DATE_TIME_WITH_OFFSET_PATTERN).test(s)).toBe(true);
          expect(s.length).toBeLessThanOrEqual(DATE_TIME_MAX_LENGTH);
        },
      ),
    );
    for (const bad of ['2026-11-22T10:30:00', '2026-11-22', '2026-11-22 10:30:00Z']) {
      expect(re(DATE_TIME_WITH_OFFSET_PATTERN).test(bad)).toBe(false);
      expect(parseIsoWithOffset(bad)).toBeUndefined();
    }
  });
});
