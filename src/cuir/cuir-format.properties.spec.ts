import fc from 'fast-check';
import { INDEC_JURISDICTION_CODES } from '../common/indec-jurisdictions.js';
import {
  buildCuir,
  CUIR_LAYOUT,
  CUIR_LENGTH,
  parseCuir,
  PRESCRIPTION_TYPES,
  SUBTYPES_BY_TYPE,
  validateComponents,
} from './cuir-format.js';
import {
  DIGIT,
  EXAMPLE,
  expectRejected,
  nonDigitChar,
  twoDigits,
  validComponents,
  validItemId,
  withComponent,
} from '../../test/support/cuir-arbitraries.js';

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

  it('accepts any 2-digit subtype of a known type: generation with local rules off issues them', () => {
    fc.assert(
      fc.property(
        validComponents,
        fc.constantFrom(...Object.keys(SUBTYPES_BY_TYPE)),
        twoDigits,
        (c, t, s) => {
          const components = { ...c, prescriptionType: t, medicationType: s };
          expect(parseCuir(buildCuir(components))).toEqual({ ok: true, components });
        },
      ),
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
