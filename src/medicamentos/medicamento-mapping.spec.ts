import { decodeCatalogoPage } from './catalogo.http-client.js';
import { toMedicamentoItem, toMirrorRow } from './medicamento-mapping.js';
import { UpstreamFailure } from '../common/resilience/upstream-failure.js';

const upstream = {
  codigo: '1234567',
  nombre_comercial: 'LOSACOR',
  ifa: 'LOSARTÁN',
  concentracion: '50 mg',
  forma_farmaceutica: 'COMPRIMIDO RECUBIERTO',
  via: 'ORAL',
  presentacion: 'envase x 30 comprimidos recubiertos',
  laboratorio: 'ROEMMERS',
  condicion_expendio: 'VENTA BAJO RECETA',
  coberturas: ['pami', 'IOMA'],
  actualizado: '2026-09-01',
};

describe('catalogue item mapping', () => {
  it('maps the upstream fields to the API fields, the insurer field named from configuration', () => {
    const [item] = decodeCatalogoPage({ items: [upstream], page: 1, per_page: 1, total: 1 }).items;
    const row = toMirrorRow(item);
    expect(row).toMatchObject({
      nombre_norm: 'losacor',
      principio_activo_norm: 'losartan',
      coberturas: ['pami', 'ioma'],
      laboratorio: 'ROEMMERS',
    });
    const api = toMedicamentoItem(row, 'ioma');
    expect(api).toEqual({
      code: '1234567',
      nombre: 'LOSACOR',
      principio_activo: 'LOSARTÁN',
      posologia: 'COMPRIMIDO RECUBIERTO, VÍA ORAL',
      dosis: '50 mg',
      presentacion: 'envase x 30 comprimidos recubiertos',
      ioma_descuento: true,
      droga: 'LOSARTÁN',
    });
    expect(Object.keys(api)[6]).toBe('ioma_descuento');
    expect(toMedicamentoItem({ ...row, coberturas: [] }, 'pami').pami_descuento).toBe(false);
  });

  it.each([
    ['no items', { total: 1 }],
    ['a negative total', { items: [], total: -1 }],
    ['an item without code', { items: [{ ...upstream, codigo: ' ' }], total: 1 }],
    ['an item without ifa', { items: [{ ...upstream, ifa: undefined }], total: 1 }],
    ['bad coberturas', { items: [{ ...upstream, coberturas: 'pami' }], total: 1 }],
  ])('refuses a page with %s as an upstream failure', (_name, body) => {
    expect(() => decodeCatalogoPage(body)).toThrow(UpstreamFailure);
  });

  it('accepts missing descriptive fields as empty', () => {
    const { items } = decodeCatalogoPage({
      items: [{ codigo: '1', nombre_comercial: 'X', ifa: 'Y' }],
      total: 1,
    });
    expect(toMirrorRow(items[0])).toMatchObject({ posologia: '', dosis: '', coberturas: [] });
  });
});
