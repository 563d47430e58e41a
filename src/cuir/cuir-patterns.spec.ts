import fc from 'fast-check';
import { INDEC_JURISDICTION_CODES } from '../common/indec-jurisdictions.js';
import { parseCuir } from './cuir-format.js';
import { CUIR_PATTERN } from './cuir-patterns.js';

// As a JSON Schema validator reads `pattern`: an ECMA-262 regular expression, unicode mode.
const re = (pattern: string) => new RegExp(pattern, 'u');
const digits = (n: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: n, maxLength: n });

describe('the CUIR pattern of the OpenAPI document agrees with parseCuir', () => {
  it('CUIR_PATTERN accepts exactly the structurally valid CUIRs', () => {
    const near = fc
      .tuple(
        digits(8),
        fc.oneof(fc.constantFrom(...INDEC_JURISDICTION_CODES), digits(2)),
        fc.oneof(fc.constantFrom('0101', '0102', '0103', '0104', '0200', '0300'), digits(4)),
        digits(25),
        fc.oneof(fc.constantFrom('00', '01', '99'), digits(2)),
      )
      .map((parts) => parts.join(''));
    const anything = fc.oneof(near, fc.string({ maxLength: 45 }), digits(41), digits(40));
    fc.assert(
      fc.property(anything, (s) => {
        expect(re(CUIR_PATTERN).test(s)).toBe(parseCuir(s).ok);
      }),
      { numRuns: 5000 },
    );
  });
});
