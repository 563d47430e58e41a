import { estadoReceta } from './estado-receta.js';
import { vidaDe } from './receta-vida.js';
import type { DispensaDeReceta } from './dispensacion.port.js';

const base = {
  anulada: false,
  items: 2,
  cerrados: 0,
  vigenciaHasta: '2026-12-21',
  hoy: '2026-11-30',
};

describe('estado_receta (contract §7): the first that applies', () => {
  it('VIGENTE with nothing dispensed, within or before its window', () => {
    expect(estadoReceta(base)).toBe('VIGENTE');
    expect(estadoReceta({ ...base, hoy: '2026-12-21' })).toBe('VIGENTE');
  });

  it('DISPENSADA_PARCIAL with some items closed', () => {
    expect(estadoReceta({ ...base, cerrados: 1 })).toBe('DISPENSADA_PARCIAL');
  });

  it('DISPENSADA with every item closed, even past the window', () => {
    expect(estadoReceta({ ...base, cerrados: 2 })).toBe('DISPENSADA');
    expect(estadoReceta({ ...base, cerrados: 2, hoy: '2027-01-01' })).toBe('DISPENSADA');
  });

  it('VENCIDA the day after vigencia_hasta, also when partly dispensed', () => {
    expect(estadoReceta({ ...base, hoy: '2026-12-22' })).toBe('VENCIDA');
    expect(estadoReceta({ ...base, cerrados: 1, hoy: '2026-12-22' })).toBe('VENCIDA');
  });

  it('ANULADA above all', () => {
    expect(estadoReceta({ ...base, anulada: true, cerrados: 2, hoy: '2027-01-01' })).toBe(
      'ANULADA',
    );
  });
});

describe("a prescription's life from its dispensations", () => {
  const receta = {
    items: [{ nombre: 'a' }, { nombre: 'b' }, { nombre: 'c' }],
    vigencia_desde: '2026-11-22',
    vigencia_hasta: '2026-12-21',
    anulada_at: null,
    motivo_anulacion: null,
  };
  const dispensa = (items: Array<[number, number]>, revertida = false): DispensaDeReceta => ({
    id: 'd',
    client_id: 'c',
    fecha_dispensa: new Date(),
    farmacia: { cuit: '30712345671', nombre: 'F' },
    items: items.map(([item, cantidad]) => ({ item, cantidad, codigo: null, sustituido: false })),
    revertida,
    revertida_at: revertida ? new Date() : null,
  });

  it('counts units per item from dispensations not reversed; fewer units still close the item', () => {
    const v = vidaDe(receta, [dispensa([[1, 1]]), dispensa([[2, 5]], true)], null, '2026-11-30');
    expect(v.dispensado).toEqual([1, 0, 0]);
    expect(v.cerrado).toEqual([true, false, false]);
    expect(v.estado_receta).toBe('DISPENSADA_PARCIAL');
    expect(v.en_ventana).toBe(true);
  });

  it('a reversed dispensation frees its items again', () => {
    const v = vidaDe(
      receta,
      [
        dispensa(
          [
            [1, 1],
            [2, 1],
            [3, 1],
          ],
          true,
        ),
      ],
      null,
      '2026-11-30',
    );
    expect(v.estado_receta).toBe('VIGENTE');
  });

  it('every item closed: DISPENSADA; outside the window it is no longer en_ventana', () => {
    const v = vidaDe(
      receta,
      [
        dispensa([
          [1, 1],
          [2, 1],
        ]),
        dispensa([[3, 2]]),
      ],
      null,
      '2027-01-05',
    );
    expect(v.estado_receta).toBe('DISPENSADA');
    expect(v.en_ventana).toBe(false);
  });
});
