import fc from 'fast-check';
import {
  addDays,
  argentinaDate,
  daysBetween,
  enVentana,
  inicioVigenciaProblem,
  isCalendarDate,
  vigenciaDe,
} from './vigencia.js';

const DIAS = { medicamentos: 30, otras: 60 };

describe('the validity window (contract §7)', () => {
  it('starts on the issue date in Argentina time (UTC−03:00), not UTC', () => {
    // 01:30 UTC on the 23rd is 22:30 on the 22nd in Buenos Aires.
    expect(argentinaDate(new Date('2026-11-23T01:30:00Z'))).toBe('2026-11-22');
    expect(argentinaDate(new Date('2026-11-23T03:00:00Z'))).toBe('2026-11-23');
    expect(argentinaDate(new Date('2026-11-22T23:59:59-03:00'))).toBe('2026-11-22');
  });

  it('lasts N days, the first and the last included: 30 for medicines, 60 for the rest', () => {
    const creada = new Date('2026-11-22T10:00:00-03:00');
    expect(vigenciaDe(creada, '01', undefined, DIAS)).toEqual({
      desde: '2026-11-22',
      hasta: '2026-12-21',
    });
    expect(vigenciaDe(creada, '02', undefined, DIAS)).toEqual({
      desde: '2026-11-22',
      hasta: '2027-01-20',
    });
    expect(vigenciaDe(creada, '03', undefined, DIAS).hasta).toBe('2027-01-20');
  });

  it('a later start date moves the whole window', () => {
    const creada = new Date('2026-11-22T10:00:00-03:00');
    expect(vigenciaDe(creada, '01', '2027-02-20', DIAS)).toEqual({
      desde: '2027-02-20',
      hasta: '2027-03-21', // February 2027 has 28 days
    });
  });

  it('always spans exactly N days whatever the start (property)', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2099-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: 1, max: 365 }),
        fc.constantFrom('01', '02', '03'),
        (at, n, type) => {
          const v = vigenciaDe(at, type, undefined, { medicamentos: n, otras: n });
          expect(daysBetween(v.desde, v.hasta)).toBe(n - 1);
          expect(enVentana(v, v.desde) && enVentana(v, v.hasta)).toBe(true);
          expect(enVentana(v, addDays(v.hasta, 1)) || enVentana(v, addDays(v.desde, -1))).toBe(
            false,
          );
        },
      ),
    );
  });

  it('accepts a start date from the issue date to 365 days after it, nothing else', () => {
    const creada = new Date('2026-11-23T01:30:00Z'); // the 22nd in Argentina
    expect(inicioVigenciaProblem(creada, '2026-11-22')).toBeNull();
    expect(inicioVigenciaProblem(creada, '2027-11-22')).toBeNull();
    expect(inicioVigenciaProblem(creada, '2026-11-21')).toMatch(/from 2026-11-22 .* to 2027-11-22/);
    expect(inicioVigenciaProblem(creada, '2027-11-23')).toMatch(/to 2027-11-22/);
    expect(inicioVigenciaProblem(creada, '2026-02-30')).toMatch(/calendar date/);
  });

  it('knows a calendar date when it sees one', () => {
    for (const ok of ['2026-11-22', '2028-02-29', '2000-12-31'])
      expect(isCalendarDate(ok)).toBe(true);
    for (const bad of [
      '2026-11-22T00:00:00Z',
      '2027-02-29',
      '2026-13-01',
      '26-11-22',
      '2026-1-2',
      20261122,
      null,
    ])
      expect(isCalendarDate(bad)).toBe(false);
  });
});
