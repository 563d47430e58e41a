import fc from 'fast-check';
import { INDEC_JURISDICTION_CODES } from '../../src/common/indec-jurisdictions.js';
import {
  CUIR_LAYOUT,
  CuirComponents,
  CuirIssue,
  parseCuir,
  SUBTYPES_BY_TYPE,
} from '../../src/cuir/cuir-format.js';

/** Generators and helpers shared by the CUIR format's specs (src/cuir/cuir-format*.spec.ts). */

export const DIGIT = fc.constantFrom(...'0123456789'.split(''));
export const digits = (length: number) =>
  fc.string({ unit: DIGIT, minLength: length, maxLength: length });
export const twoDigits = digits(2);

export const TYPE_SUBTYPE_PAIRS: Array<[string, string]> = Object.entries(SUBTYPES_BY_TYPE).flatMap(
  ([type, subtypes]) => subtypes.map((s): [string, string] => [type, s]),
);

export const validItemId = fc.integer({ min: 1, max: 99 }).map((n) => String(n).padStart(2, '0'));

export const validComponents: fc.Arbitrary<CuirComponents> = fc
  .record({
    platform: digits(4),
    repository: digits(4),
    jurisdiction: fc.constantFrom(...INDEC_JURISDICTION_CODES),
    typeSubtype: fc.constantFrom(...TYPE_SUBTYPE_PAIRS),
    groupId: digits(25),
    itemId: validItemId,
  })
  .map(({ typeSubtype: [prescriptionType, medicationType], ...rest }) => ({
    platform: rest.platform,
    repository: rest.repository,
    jurisdiction: rest.jurisdiction,
    prescriptionType,
    medicationType,
    groupId: rest.groupId,
    itemId: rest.itemId,
  }));

/** Characters that are not ASCII 0-9 but are easy to confuse with digits or sneak in. */
export const TRICKY_NON_DIGITS = [
  '٣', // ARABIC-INDIC DIGIT THREE
  '۳', // EXTENDED ARABIC-INDIC DIGIT THREE
  '३', // DEVANAGARI DIGIT THREE
  '３', // FULLWIDTH DIGIT THREE
  '𝟑', // MATHEMATICAL BOLD DIGIT THREE (astral, two code units)
  '¹',
  '½',
  ' ',
  '\t',
  '\n',
  '\u00a0',
  '\u200b',
  '+',
  '-',
  '.',
  ',',
  'e',
  'x',
  'O',
  'l',
  '\u0000',
];
export const nonDigitChar = fc.oneof(
  fc.constantFrom(...TRICKY_NON_DIGITS),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((ch) => !/^[0-9]$/.test(ch)),
);

export const fieldsOf = (issues: CuirIssue[]) => issues.map((i) => i.field);

export function expectRejected(s: string, field: string): void {
  const result = parseCuir(s);
  expect(result.ok).toBe(false);
  if (!result.ok) expect(fieldsOf(result.issues)).toContain(field);
}

/** Replaces one component inside an otherwise valid CUIR string. */
export function withComponent(
  c: CuirComponents,
  field: keyof CuirComponents,
  value: string,
): string {
  return CUIR_LAYOUT.map((p) => (p.field === field ? value : c[p.field])).join('');
}

export const EXAMPLE: CuirComponents = {
  platform: '0001',
  repository: '0002',
  jurisdiction: '02',
  prescriptionType: '01',
  medicationType: '02',
  groupId: '0000000000000000000000001',
  itemId: '01',
};
// Written out by hand, not computed, so the test pins the layout.
export const EXAMPLE_CUIR =
  '0001' + '0002' + '02' + '01' + '02' + '0000000000000000000000001' + '01';
