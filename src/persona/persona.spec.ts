import { ageInYears, calendarDate, formatDomicilio } from './persona.js';
import { isoFromSisaDate } from './renaper.http-client.js';

describe('ageInYears', () => {
  const at = (iso: string) => new Date(iso);

  it('counts whole years, the birthday itself included', () => {
    expect(ageInYears('1985-03-14', at('2026-03-13T12:00:00-03:00'))).toBe(40);
    expect(ageInYears('1985-03-14', at('2026-03-14T12:00:00-03:00'))).toBe(41);
    expect(ageInYears('1985-03-14', at('2026-12-31T12:00:00-03:00'))).toBe(41);
  });

  it("uses Argentina's calendar, not UTC's nor the server's", () => {
    // 02:30 UTC on the 14th is still 23:30 of the 13th in Buenos Aires (UTC-3).
    expect(ageInYears('1985-03-14', at('2026-03-14T02:30:00Z'))).toBe(40);
    expect(ageInYears('1985-03-14', at('2026-03-14T03:00:00Z'))).toBe(41);
    expect(calendarDate(at('2026-03-14T02:30:00Z'))).toBe('2026-03-13');
    expect(ageInYears('1985-03-14', at('2026-03-14T02:30:00Z'), 'UTC')).toBe(41);
  });

  it('someone born on 29 February turns a year older on 1 March of common years', () => {
    expect(ageInYears('2000-02-29', at('2025-02-28T12:00:00-03:00'))).toBe(24);
    expect(ageInYears('2000-02-29', at('2025-03-01T12:00:00-03:00'))).toBe(25);
    expect(ageInYears('2000-02-29', at('2028-02-29T12:00:00-03:00'))).toBe(28);
  });

  it('a baby is 0, never negative', () => {
    expect(ageInYears('2026-01-10', at('2026-06-01T12:00:00-03:00'))).toBe(0);
    expect(ageInYears('2026-07-10', at('2026-06-01T12:00:00-03:00'))).toBe(0);
  });
});

describe('isoFromSisaDate', () => {
  it('turns dd-mm-yyyy (or dd/mm/yyyy) into yyyy-mm-dd', () => {
    expect(isoFromSisaDate('14-03-1985')).toBe('1985-03-14');
    expect(isoFromSisaDate('29/02/2000')).toBe('2000-02-29');
  });

  it.each(['1985-03-14', '29-02-2001', '32-01-2000', '00-01-2000', '14-13-1985', '4-3-1985', ''])(
    'refuses %p',
    (value) => {
      expect(isoFromSisaDate(value)).toBeUndefined();
    },
  );
});

describe('formatDomicilio', () => {
  it('joins street, floor/flat, locality and province on one line', () => {
    expect(
      formatDomicilio({
        calle: 'SAN MARTÍN 350',
        pisoDpto: '1 A',
        localidad: 'ROSARIO',
        provincia: 'SANTA FE',
      }),
    ).toBe('SAN MARTÍN 350, 1 A, ROSARIO, SANTA FE');
  });

  it('skips empty parts and writes a province equal to its locality once', () => {
    expect(
      formatDomicilio({
        calle: 'BV. SAN JUAN 820',
        pisoDpto: ' ',
        localidad: 'CÓRDOBA',
        provincia: 'Cordoba',
      }),
    ).toBe('BV. SAN JUAN 820, CÓRDOBA');
    expect(
      formatDomicilio({
        calle: 'AV. CORRIENTES  1234',
        pisoDpto: '5 B',
        localidad: 'CIUDAD AUTÓNOMA DE BUENOS AIRES',
        provincia: 'CIUDAD AUTÓNOMA DE BUENOS AIRES',
      }),
    ).toBe('AV. CORRIENTES 1234, 5 B, CIUDAD AUTÓNOMA DE BUENOS AIRES');
    expect(formatDomicilio({ calle: '', pisoDpto: '', localidad: '', provincia: 'SALTA' })).toBe(
      'SALTA',
    );
  });
});
