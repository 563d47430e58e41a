import { mesesAdelante } from './particiones.metrics.js';

describe('mesesAdelante', () => {
  const now = new Date('2026-11-27T12:00:00Z');
  const rows = (tabla: string, months: string[]) => months.map((periodo) => ({ tabla, periodo }));

  it('counts the months after the current one that every table has', () => {
    const months = ['2026-11', '2026-12', '2027-01', '2027-02'];
    expect(mesesAdelante([...rows('a', months), ...rows('b', months)], ['a', 'b'], now)).toBe(3);
    // One table short of a month: that month and after do not count.
    const short = [...rows('a', months), ...rows('b', months.slice(0, 2))];
    expect(mesesAdelante(short, ['a', 'b'], now)).toBe(1);
  });

  it('is -1 when the current month is missing anywhere', () => {
    expect(mesesAdelante(rows('a', ['2026-12']), ['a'], now)).toBe(-1);
  });
});
