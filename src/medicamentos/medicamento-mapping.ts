import type { CatalogoItem } from './catalogo.client.js';
import type { MedicamentoEntity } from './entities/medicamento.entity.js';
import { normalizeSearchText } from './search-text.js';

/**
 * A mirror row as the sync writes it (the API's fields, what search compares, and two fields
 * kept for operators): the entity's columns but those the database fills.
 */
export type MirrorRow = Omit<MedicamentoEntity, 'search_text' | 'updated_at'>;

export type StoredMedicamento = Pick<
  MirrorRow,
  'code' | 'nombre' | 'principio_activo' | 'droga' | 'dosis' | 'posologia' | 'presentacion'
> & { coberturas: string[] };

/** An element of the search answer; `<insurer>_descuento` carries the configured insurer's name. */
export type MedicamentoItem = Record<string, string | boolean>;

/**
 * The mapping from the upstream's fields to the API's (contract §3; the seed names the fields but
 * not their source):
 *   code             ← codigo
 *   nombre           ← nombre_comercial (the brand: "IBUPIRAC 600")
 *   principio_activo ← ifa (ingrediente farmacéutico activo: "IBUPROFENO")
 *   droga            ← ifa as well: the catalogue has a single active-ingredient field, and the
 *                      generic (DCI) name is what prescribing by generic name (Ley 25.649) uses
 *   dosis            ← concentracion ("600 mg")
 *   posologia        ← forma_farmaceutica + via ("COMPRIMIDO RECUBIERTO, VÍA ORAL"): the only
 *                      administration data the catalogue has (it carries no dosage regimen)
 *   presentacion     ← presentacion ("envase x 20 comprimidos recubiertos")
 *   <insurer>_descuento ← the configured insurer is among coberturas
 * laboratorio and condicion_expendio are kept in the mirror, not (yet) in the API.
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
