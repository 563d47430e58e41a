import fc from 'fast-check';
import {
  cuilMatchesDocumento,
  cuitCheckDigit,
  dniFromCuil,
  ENTITY_PREFIXES,
  isValidCuil,
  isValidCuit,
  PERSON_PREFIXES,
} from './cuil.js';

const DIGIT = fc.constantFrom(...'0123456789'.split(''));
const digits = (length: number) => fc.string({ unit: DIGIT, minLength: length, maxLength: length });
const prefix = fc.constantFrom(...PERSON_PREFIXES, ...ENTITY_PREFIXES);

/** Every 11-digit number the issuer could hand out: a prefix, 8 digits, the right check digit. */
const validCuit = fc
  .tuple(prefix, digits(8))
  .map(([p, body]) => p + body)
  .filter((first10) => cuitCheckDigit(first10) !== undefined)
  .map((first10) => first10 + String(cuitCheckDigit(first10)));

describe('CUIL / CUIT', () => {
  it('accepts the fixture patient 27-30111222-5 and finds DNI 30111222 in it', () => {
    expect(isValidCuil('27301112225')).toBe(true);
    expect(isValidCuit('27301112225')).toBe(true);
    expect(dniFromCuil('27301112225')).toBe('30111222');
    expect(cuilMatchesDocumento('27301112225', '30111222')).toBe(true);
    expect(cuilMatchesDocumento('27301112225', '30111223')).toBe(false);
  });

  it('accepts real entity CUITs and keeps them out of CUILs', () => {
    // AFIP's own CUIT, a 33 prefix whose check digit is 9.
    expect(isValidCuit('33693450239')).toBe(true);
    expect(isValidCuil('33693450239')).toBe(false);
    expect(dniFromCuil('33693450239')).toBeUndefined();
  });

  it('maps 11 to check digit 0 and has none for 10', () => {
    // 20-00000023: 2·5 + 2·3 + 3·2 = 22, 22 mod 11 = 0, 11 − 0 = 11 → 0.
    expect(cuitCheckDigit('2000000023')).toBe(0);
    expect(isValidCuil('20000000230')).toBe(true);
    // 20-00000001: 2·5 + 1·2 = 12, 12 mod 11 = 1, 11 − 1 = 10 → no digit for prefix 20.
    expect(cuitCheckDigit('2000000001')).toBeUndefined();
    for (let d = 0; d <= 9; d++) expect(isValidCuil(`2000000001${d}`)).toBe(false);
  });

  it('has no check digit 10: the issuer moves 20 and 27 to 23 with 9 and 4', () => {
    fc.assert(
      fc.property(digits(8), (dni) => {
        if (cuitCheckDigit(`20${dni}`) === undefined) expect(cuitCheckDigit(`23${dni}`)).toBe(9);
        if (cuitCheckDigit(`27${dni}`) === undefined) expect(cuitCheckDigit(`23${dni}`)).toBe(4);
        // The lax "10 → 9" reading would accept 20-<dni>-9 here; the strict rule does not.
        if (cuitCheckDigit(`20${dni}`) === undefined) expect(isValidCuil(`20${dni}9`)).toBe(false);
      }),
    );
  });

  it('accepts every well-formed number and refuses every wrong check digit', () => {
    fc.assert(
      fc.property(validCuit, fc.integer({ min: 1, max: 9 }), (cuit, delta) => {
        expect(isValidCuit(cuit)).toBe(true);
        const wrong = cuit.slice(0, 10) + String((Number(cuit[10]) + delta) % 10);
        expect(isValidCuit(wrong)).toBe(false);
        expect(isValidCuil(wrong)).toBe(false);
      }),
    );
  });

  it('refuses a single changed digit anywhere in the body', () => {
    fc.assert(
      fc.property(
        validCuit,
        fc.integer({ min: 2, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        (cuit, at, delta) => {
          const changed = cuit.slice(0, at) + String((Number(cuit[at]) + delta) % 10);
          const candidate = changed + cuit.slice(at + 1);
          // Every weight is coprime with 11 (a prime), so one changed digit always moves the sum.
          expect(isValidCuit(candidate)).toBe(false);
        },
      ),
    );
  });

  it('refuses anything but 11 ASCII digits with a known prefix', () => {
    for (const bad of [
      '27-30111222-5',
      '2730111222',
      '273011122255',
      ' 27301112225',
      '２7301112225',
      '10301112226',
      '',
    ]) {
      expect(isValidCuit(bad)).toBe(false);
    }
    expect(isValidCuit(27301112225)).toBe(false);
    expect(isValidCuit(undefined)).toBe(false);
    fc.assert(
      fc.property(digits(11), (s) => {
        const known = [...PERSON_PREFIXES, ...ENTITY_PREFIXES].includes(s.slice(0, 2));
        if (!known) expect(isValidCuit(s)).toBe(false);
      }),
    );
  });

  it('reads a 7-digit DNI zero-padded in the CUIL', () => {
    const first10 = Array.from({ length: 50 }, (_, n) => `200${5123400 + n}`).find(
      (f) => cuitCheckDigit(f) !== undefined,
    )!;
    const cuil = first10 + String(cuitCheckDigit(first10));
    expect(dniFromCuil(cuil)).toBe(first10.slice(2));
    expect(dniFromCuil(cuil)).toMatch(/^0\d{7}$/);
    expect(cuilMatchesDocumento(cuil, first10.slice(3))).toBe(true);
    expect(cuilMatchesDocumento(cuil, 'x')).toBe(false);
  });
});
