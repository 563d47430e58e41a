import fc from 'fast-check';
import { INDEC_JURISDICTION_CODES } from '../common/indec-jurisdictions.js';
import {
  buildCuir,
  CUIR_LAYOUT,
  CUIR_LENGTH,
  CuirComponents,
  CuirFormatError,
  CuirIssue,
  isStructurallyValidCuir,
  parseCuir,
  PRESCRIPTION_TYPES,
  SUBTYPES_BY_TYPE,
  typeSubtype,
  validateComponents,
} from './cuir-format.js';

const DIGIT = fc.constantFrom(...'0123456789'.split(''));
const digits = (length: number) => fc.string({ unit: DIGIT, minLength: length, maxLength: length });
const twoDigits = digits(2);

const TYPE_SUBTYPE_PAIRS: Array<[string, string]> = Object.entries(SUBTYPES_BY_TYPE).flatMap(
  ([type, subtypes]) => subtypes.map((s): [string, string] => [type, s]),
);

const validItemId = fc.integer({ min: 1, max: 99 }).map((n) => String(n).padStart(2, '0'));

const validComponents: fc.Arbitrary<CuirComponents> = fc
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
const TRICKY_NON_DIGITS = [
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
const nonDigitChar = fc.oneof(
  fc.constantFrom(...TRICKY_NON_DIGITS),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((ch) => !/^[0-9]$/.test(ch)),
);

const fieldsOf = (issues: CuirIssue[]) => issues.map((i) => i.field);

function expectRejected(s: string, field: string): void {
  const result = parseCuir(s);
  expect(result.ok).toBe(false);
  if (!result.ok) expect(fieldsOf(result.issues)).toContain(field);
}

/** Replaces one component inside an otherwise valid CUIR string. */
function withComponent(c: CuirComponents, field: keyof CuirComponents, value: string): string {
  return CUIR_LAYOUT.map((p) => (p.field === field ? value : c[p.field])).join('');
}

const EXAMPLE: CuirComponents = {
  platform: '0001',
  repository: '0002',
  jurisdiction: '02',
  prescriptionType: '01',
  medicationType: '02',
  groupId: '0000000000000000000000001',
  itemId: '01',
};
// Written out by hand, not computed, so the test pins the layout.
const EXAMPLE_CUIR = '0001' + '0002' + '02' + '01' + '02' + '0000000000000000000000001' + '01';

describe('CUIR tables', () => {
  it('has the Annex IV layout', () => {
    expect(CUIR_LENGTH).toBe(41);
    expect(CUIR_LAYOUT.reduce((n, p) => n + p.length, 0)).toBe(CUIR_LENGTH);
    expect(CUIR_LAYOUT.map((p) => p.field)).toEqual([
      'platform',
      'repository',
      'jurisdiction',
      'prescriptionType',
      'medicationType',
      'groupId',
      'itemId',
    ]);
  });

  it('has the type/subtype compatibility table', () => {
    expect(Object.keys(PRESCRIPTION_TYPES)).toEqual(['01', '02', '03']);
    expect(SUBTYPES_BY_TYPE).toEqual({
      '01': ['01', '02', '03', '04'],
      '02': ['00'],
      '03': ['00'],
    });
  });
});

describe('buildCuir / parseCuir — examples', () => {
  it('builds the hand-written example', () => {
    expect(EXAMPLE_CUIR).toHaveLength(41);
    expect(EXAMPLE_CUIR).toBe('00010002020102' + '0000000000000000000000001' + '01');
    expect(buildCuir(EXAMPLE)).toBe(EXAMPLE_CUIR);
  });

  it('parses the hand-written example', () => {
    expect(parseCuir('00010002020102000000000000000000000000101')).toEqual({
      ok: true,
      components: EXAMPLE,
    });
    expect(parseCuir(EXAMPLE_CUIR + '0')).toEqual({
      ok: false,
      issues: [{ field: 'cuir', issue: 'must be exactly 41 digits (got 42)' }],
    });
    expect(isStructurallyValidCuir(EXAMPLE_CUIR)).toBe(true);
  });

  it('parses a device and a study CUIR (subtype 00)', () => {
    const device = '1234' + '5678' + '94' + '02' + '00' + '9'.repeat(25) + '99';
    expect(parseCuir(device)).toEqual({
      ok: true,
      components: {
        platform: '1234',
        repository: '5678',
        jurisdiction: '94',
        prescriptionType: '02',
        medicationType: '00',
        groupId: '9'.repeat(25),
        itemId: '99',
      },
    });
    const study = '0000' + '0000' + '06' + '03' + '00' + '0'.repeat(25) + '10';
    expect(parseCuir(study).ok).toBe(true);
  });

  it('reports the unknown jurisdiction by code', () => {
    const s = withComponent(EXAMPLE, 'jurisdiction', '03');
    expect(parseCuir(s)).toEqual({
      ok: false,
      issues: [{ field: 'jurisdiction', issue: "unknown INDEC jurisdiction code '03'" }],
    });
  });

  it('reports a non-digit with its position and component', () => {
    const s = EXAMPLE_CUIR.slice(0, 20) + '٣' + EXAMPLE_CUIR.slice(21);
    expect(s).toHaveLength(41);
    expect(parseCuir(s)).toEqual({
      ok: false,
      issues: [
        {
          field: 'cuir',
          issue: "must contain only digits 0-9; found '٣' at position 21 (groupId)",
        },
      ],
    });
  });

  it('rejects the subtype of another type, and an unknown type', () => {
    expectRejected(withComponent(EXAMPLE, 'medicationType', '00'), 'medicationType');
    expectRejected(withComponent(EXAMPLE, 'medicationType', '05'), 'medicationType');
    const device = { ...EXAMPLE, prescriptionType: '02' };
    expectRejected(withComponent(device, 'medicationType', '01'), 'medicationType');
    expectRejected(withComponent(EXAMPLE, 'prescriptionType', '04'), 'prescriptionType');
    expectRejected(withComponent(EXAMPLE, 'prescriptionType', '00'), 'prescriptionType');
  });

  it('rejects itemId 00', () => {
    expectRejected(withComponent(EXAMPLE, 'itemId', '00'), 'itemId');
  });

  it('rejects non-strings at run time', () => {
    for (const v of [undefined, null, 1, 1e40, {}, []]) {
      expect(parseCuir(v as string)).toEqual({
        ok: false,
        issues: [{ field: 'cuir', issue: 'must be a string' }],
      });
    }
  });

  it('does not accept a trailing newline (JS `$` is end of input)', () => {
    expectRejected(EXAMPLE_CUIR + '\n', 'cuir');
    expectRejected(EXAMPLE_CUIR.slice(0, 40) + '\n', 'cuir');
  });

  it('buildCuir throws a CuirFormatError listing every reason', () => {
    let caught: unknown;
    try {
      buildCuir({ ...EXAMPLE, platform: '1', groupId: 'abc', itemId: '00' });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(CuirFormatError);
    expect(caught).toBeInstanceOf(Error);
    const err = caught as CuirFormatError;
    expect(err.name).toBe('CuirFormatError');
    expect(err.reasons).toEqual([
      { field: 'platform', issue: 'must be exactly 4 digits' },
      { field: 'groupId', issue: 'must be exactly 25 digits' },
      { field: 'itemId', issue: 'must be from 01 to 99' },
    ]);
  });

  it('buildCuir accepts any 2-digit subtype unless rules are enforced', () => {
    const odd = { ...EXAMPLE, prescriptionType: '02', medicationType: '07' };
    expect(buildCuir(odd)).toHaveLength(41);
    expect(() => buildCuir(odd, { enforceTypeSubtypeRules: true })).toThrow(CuirFormatError);
  });

  it('typeSubtype concatenates type and subtype', () => {
    expect(typeSubtype(EXAMPLE)).toBe('0102');
    expect(typeSubtype({ prescriptionType: '03', medicationType: '00' })).toBe('0300');
  });
});

describe('buildCuir / parseCuir — properties', () => {
  it('round-trips every valid component set into 41 ASCII digits', () => {
    fc.assert(
      fc.property(validComponents, (c) => {
        const s = buildCuir(c, { enforceTypeSubtypeRules: true });
        expect(s).toMatch(/^[0-9]{41}$/);
        expect(s).toHaveLength(CUIR_LENGTH);
        expect(parseCuir(s)).toEqual({ ok: true, components: c });
        expect(buildCuir(c)).toBe(s);
      }),
    );
  });

  it('rejects every wrong length, naming cuir', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }).filter((n) => n !== CUIR_LENGTH),
        fc.infiniteStream(DIGIT),
        (n, stream) => {
          const s = [...stream.take(n)].join('');
          const result = parseCuir(s);
          expect(result.ok).toBe(false);
          if (!result.ok) {
            expect(result.issues).toContainEqual({
              field: 'cuir',
              issue: `must be exactly 41 digits (got ${n})`,
            });
          }
        },
      ),
    );
  });

  it('rejects a non-digit at any position of a valid CUIR, replaced or inserted', () => {
    fc.assert(
      fc.property(
        validComponents,
        fc.integer({ min: 0, max: CUIR_LENGTH - 1 }),
        nonDigitChar,
        fc.boolean(),
        (c, pos, ch, replace) => {
          const valid = buildCuir(c);
          const s = valid.slice(0, pos) + ch + valid.slice(replace ? pos + 1 : pos);
          const result = parseCuir(s);
          expect(result.ok).toBe(false);
          if (!result.ok) {
            expect(result.issues.every((i) => i.field === 'cuir')).toBe(true);
            expect(result.issues.map((i) => i.issue).join(' ')).toContain(`at position ${pos + 1}`);
          }
        },
      ),
    );
  });

  it('rejects a leading sign or surrounding spaces', () => {
    fc.assert(
      fc.property(validComponents, fc.constantFrom('+', '-', ' '), (c, ch) => {
        const s = buildCuir(c);
        expectRejected(ch + s.slice(1), 'cuir');
        expectRejected(ch + s, 'cuir');
        expectRejected(s + ch, 'cuir');
      }),
    );
  });

  it('rejects every unknown jurisdiction', () => {
    fc.assert(
      fc.property(
        validComponents,
        twoDigits.filter((j) => !INDEC_JURISDICTION_CODES.includes(j)),
        (c, j) => {
          const result = parseCuir(withComponent(c, 'jurisdiction', j));
          expect(result).toEqual({
            ok: false,
            issues: [{ field: 'jurisdiction', issue: `unknown INDEC jurisdiction code '${j}'` }],
          });
        },
      ),
    );
  });

  it('rejects every unknown prescription type', () => {
    fc.assert(
      fc.property(
        validComponents,
        twoDigits.filter((t) => !Object.hasOwn(PRESCRIPTION_TYPES, t)),
        (c, t) => {
          expectRejected(withComponent(c, 'prescriptionType', t), 'prescriptionType');
        },
      ),
    );
  });

  it('rejects every subtype outside its type table', () => {
    const typeAndWrongSubtype = fc
      .tuple(fc.constantFrom(...Object.keys(SUBTYPES_BY_TYPE)), twoDigits)
      .filter(([t, s]) => !SUBTYPES_BY_TYPE[t].includes(s));
    fc.assert(
      fc.property(validComponents, typeAndWrongSubtype, (c, [t, s]) => {
        const result = parseCuir(withComponent({ ...c, prescriptionType: t }, 'medicationType', s));
        expect(result.ok).toBe(false);
        if (!result.ok) expect(fieldsOf(result.issues)).toEqual(['medicationType']);
      }),
    );
  });

  it('never throws and only accepts 41 ASCII digits, whatever the input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: 'grapheme' })), (s) => {
        const result = parseCuir(s);
        if (result.ok) expect(s).toMatch(/^[0-9]{41}$/);
      }),
    );
  });
});

describe('validateComponents', () => {
  const on = { enforceTypeSubtypeRules: true };
  const off = { enforceTypeSubtypeRules: false };

  it('accepts the example with rules on and off', () => {
    expect(validateComponents(EXAMPLE, on)).toEqual([]);
    expect(validateComponents(EXAMPLE, off)).toEqual([]);
  });

  it.each([
    ['23 digits', '0'.repeat(23)],
    ['24 digits', '0'.repeat(24)],
    ['26 digits', '0'.repeat(26)],
    ['empty', ''],
    ['letters', 'ABCDEFGHIJKLMNOPQRSTUVWXY'],
    ['one letter among digits', '000000000000A000000000000'],
    ['unicode digits', '٣'.repeat(25)],
    ['spaces', ' 000000000000000000000001'],
    ['a sign', '+000000000000000000000001'],
  ])('rejects groupId with %s as a format issue', (_label, groupId) => {
    for (const opts of [on, off]) {
      expect(validateComponents({ ...EXAMPLE, groupId }, opts)).toEqual([
        { field: 'groupId', issue: 'must be exactly 25 digits', kind: 'format' },
      ]);
    }
  });

  it.each([
    ['00', 'must be from 01 to 99'],
    ['1', 'must be exactly 2 digits'],
    ['001', 'must be exactly 2 digits'],
    ['1a', 'must be exactly 2 digits'],
    ['-1', 'must be exactly 2 digits'],
  ])('rejects itemId %p', (itemId, issue) => {
    expect(validateComponents({ ...EXAMPLE, itemId }, off)).toEqual([
      { field: 'itemId', issue, kind: 'format' },
    ]);
  });

  it('accepts itemId 01..99', () => {
    fc.assert(
      fc.property(validItemId, (itemId) => {
        expect(validateComponents({ ...EXAMPLE, itemId }, on)).toEqual([]);
      }),
    );
  });

  it('reports missing and non-string components', () => {
    expect(validateComponents({}, off).map((i) => [i.field, i.issue, i.kind])).toEqual(
      CUIR_LAYOUT.map((p) => [p.field, 'is required', 'format']),
    );
    const bad = { ...EXAMPLE, groupId: 1 as unknown as string, itemId: null as unknown as string };
    expect(validateComponents(bad, off)).toEqual([
      { field: 'groupId', issue: 'must be a string', kind: 'format' },
      { field: 'itemId', issue: 'is required', kind: 'format' },
    ]);
  });

  it('rejects unknown jurisdiction and type as format issues', () => {
    expect(validateComponents({ ...EXAMPLE, jurisdiction: '03' }, off)).toEqual([
      { field: 'jurisdiction', issue: "unknown INDEC jurisdiction code '03'", kind: 'format' },
    ]);
    expect(validateComponents({ ...EXAMPLE, prescriptionType: '04' }, on)).toEqual([
      {
        field: 'prescriptionType',
        issue: "unknown prescription type '04' (expected 01, 02 or 03)",
        kind: 'format',
      },
    ]);
  });

  it('medicationType must be exactly 2 digits, rules on or off', () => {
    for (const medicationType of ['', '1', '001', 'ab', '٠١']) {
      for (const opts of [on, off]) {
        expect(validateComponents({ ...EXAMPLE, medicationType }, opts)).toEqual([
          { field: 'medicationType', issue: 'must be exactly 2 digits', kind: 'format' },
        ]);
      }
    }
  });

  it('rules off: any 2-digit subtype is accepted with a known type', () => {
    fc.assert(
      fc.property(validComponents, twoDigits, (c, medicationType) => {
        expect(validateComponents({ ...c, medicationType }, off)).toEqual([]);
      }),
    );
  });

  it('rules on: a subtype outside the table is a rule issue, not a format issue', () => {
    expect(validateComponents({ ...EXAMPLE, medicationType: '00' }, on)).toEqual([
      {
        field: 'medicationType',
        issue: "subtype '00' is not valid for prescription type '01' (expected 01, 02, 03 or 04)",
        kind: 'rule',
      },
    ]);
    expect(
      validateComponents({ ...EXAMPLE, prescriptionType: '03', medicationType: '02' }, on),
    ).toEqual([
      {
        field: 'medicationType',
        issue: "subtype '02' is not valid for prescription type '03' (expected 00)",
        kind: 'rule',
      },
    ]);
  });

  it('rules on: every table pair is accepted, every other pair is exactly one rule issue', () => {
    fc.assert(
      fc.property(
        validComponents,
        fc.constantFrom(...Object.keys(SUBTYPES_BY_TYPE)),
        twoDigits,
        (c, prescriptionType, medicationType) => {
          const issues = validateComponents({ ...c, prescriptionType, medicationType }, on);
          if (SUBTYPES_BY_TYPE[prescriptionType].includes(medicationType)) {
            expect(issues).toEqual([]);
          } else {
            expect(issues).toHaveLength(1);
            expect(issues[0]).toMatchObject({ field: 'medicationType', kind: 'rule' });
          }
        },
      ),
    );
  });

  it('an unknown type is never also reported as a rule violation', () => {
    expect(
      validateComponents({ ...EXAMPLE, prescriptionType: '09', medicationType: '77' }, on),
    ).toEqual([
      {
        field: 'prescriptionType',
        issue: "unknown prescription type '09' (expected 01, 02 or 03)",
        kind: 'format',
      },
    ]);
  });

  it('format issues and rule issues can come together, distinguishable by kind', () => {
    const issues = validateComponents({ ...EXAMPLE, groupId: '1', medicationType: '09' }, on);
    expect(issues.map((i) => [i.field, i.kind])).toEqual([
      ['groupId', 'format'],
      ['medicationType', 'rule'],
    ]);
  });
});
