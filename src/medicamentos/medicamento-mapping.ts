import type { CatalogoItem } from './catalogo.client.js';
import type { MedicamentoEntity } from './entities/medicamento.entity.js';
import { normalizeSearchText } from './search-text.js';

/** A mirror row as the sync writes it: the entity's columns but those the database fills. */
export type MirrorRow = Omit<MedicamentoEntity, 'search_text' | 'updated_at'>;

export type StoredMedicamento = Pick<
  MirrorRow,
  'code' | 'nombre' | 'principio_activo' | 'droga' | 'dosis' | 'posologia' | 'presentacion'
> & { coberturas: string[] };

/** An element of the search answer; `<insurer>_descuento` carries the configured insurer's name. */
export type MedicamentoItem = Record<string, string | boolean>;

/**
 * The upstream's fields to the API's (contract §3). `droga` is `ifa` too: the catalogue has one
 * active-ingredient field, and the generic (DCI) name is what prescribing by generic name (Ley
 * 25.649) uses. `posologia` is form and route: the catalogue carries no dosage regimen.
 * laboratorio and condicion_expendio are kept in the mirror, not in the API.
 */
export function toMirrorRow(item: CatalogoItem): MirrorRow {
  const posologia = [item.forma_farmaceutica, item.via && `VÍA ${item.via}`]
    .filter(Boolean)
    .join(', ');
  return {
    code: item.codigo,
    nombre: item.nombre_comercial,
    principio_activo: item.ifa,
    droga: item.ifa,
    dosis: item.concentracion,
    posologia,
    presentacion: item.presentacion,
    laboratorio: item.laboratorio,
    condicion_expendio: item.condicion_expendio,
    // Insurer ids are compared with INSURER_NAME, a lower-case identifier.
    coberturas: [...new Set(item.coberturas.map((c) => c.trim().toLowerCase()).filter(Boolean))],
    nombre_norm: normalizeSearchText(item.nombre_comercial),
    principio_activo_norm: normalizeSearchText(item.ifa),
  };
}

/** The API shape, members in the seed's order (2.6). */
export function toMedicamentoItem(row: StoredMedicamento, insurer: string): MedicamentoItem {
  return {
    code: row.code,
    nombre: row.nombre,
    principio_activo: row.principio_activo,
    posologia: row.posologia,
    dosis: row.dosis,
    presentacion: row.presentacion,
    [`${insurer}_descuento`]: row.coberturas.includes(insurer),
    droga: row.droga,
  };
}
