import {
  buildCuir,
  CUIR_LAYOUT,
  CUIR_LENGTH,
  CuirFormatError,
  parseCuir,
  PRESCRIPTION_TYPES,
  SUBTYPES_BY_TYPE,
  typeSubtype,
} from './cuir-format.js';
import {
  EXAMPLE,
  EXAMPLE_CUIR,
  expectRejected,
  withComponent,
} from '../../test/support/cuir-arbitraries.js';

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

  it('accepts a subtype outside its type table (generation with rules off issues it), not an unknown type', () => {
    expect(parseCuir(withComponent(EXAMPLE, 'medicationType', '99')).ok).toBe(true);
    const device = { ...EXAMPLE, prescriptionType: '02' };
    expect(parseCuir(withComponent(device, 'medicationType', '01')).ok).toBe(true);
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
