import { buildCuir } from '../../cuir/cuir-format.js';
import {
  cuirSubstr,
  faltantesRestringida,
  jurisdiccionDe,
  subtipoRestringido,
} from './restringida.js';

const cuir = (prescriptionType: string, medicationType: string, jurisdiction = '06') =>
  buildCuir({
    platform: '0001',
    repository: '0001',
    jurisdiction,
    prescriptionType,
    medicationType,
    groupId: '1'.padStart(25, '0'),
    itemId: '01',
  });

describe('restricted prescriptions (SPEC 9.3)', () => {
  it('are medication (01) with subtype 03 or 04, nothing else', () => {
    expect(subtipoRestringido(cuir('01', '03'))).toBe('03');
    expect(subtipoRestringido(cuir('01', '04'))).toBe('04');
    for (const [t, s] of [
      ['01', '01'],
      ['01', '02'],
      ['02', '00'],
      ['03', '00'],
      // A subtype outside the table (issued with local rules off) of another type.
      ['02', '03'],
    ])
      expect(subtipoRestringido(cuir(t, s))).toBeNull();
  });

  it('read the jurisdiction where the partial index reads it (substr positions)', () => {
    expect(jurisdiccionDe(cuir('01', '03', '94'))).toBe('94');
    expect(cuirSubstr('jurisdiction')).toEqual({ from: 9, length: 2 });
    expect(cuirSubstr('prescriptionType')).toEqual({ from: 11, length: 2 });
    expect(cuirSubstr('medicationType')).toEqual({ from: 13, length: 2 });
  });

  it('name every missing member, and none for a plain prescription', () => {
    const items = [{ dci: 'clonazepam', concentracion: '2 mg' }, {}];
    expect(faltantesRestringida({ cuir: cuir('01', '02'), items }).length).toBe(0);
    expect(faltantesRestringida({ cuir: cuir('01', '04'), items }).map((d) => d.field)).toEqual([
      'paciente',
      'items[0].forma_farmaceutica',
      'items[0].posologia',
      'items[1].dci',
      'items[1].concentracion',
      'items[1].forma_farmaceutica',
      'items[1].posologia',
    ]);
    const full = { dci: 'a', concentracion: 'b', forma_farmaceutica: 'c', posologia: 'd' };
    expect(
      faltantesRestringida({ cuir: cuir('01', '03'), paciente: {}, items: [full, full] }),
    ).toEqual([]);
  });
});
