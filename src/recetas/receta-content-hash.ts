import { createHash } from 'node:crypto';
import { canonicalJson } from '../common/canonical-json.js';
import type { RecetaEntity } from './entities/receta.entity.js';

/**
 * SHA-256 of the registered content, so a dispenser holding the prescription can check it was
 * not altered: canonical JSON (sorted keys, dates in UTC ISO 8601) of every registered field
 * except the patient's document — a DNI has few enough values that a hash over it would let
 * anyone holding the rest of the content recover it.
 */
export function recetaContentHash(
  r: Pick<
    RecetaEntity,
    | 'cuir'
    | 'fecha_creacion'
    | 'matricula_profesional'
    | 'refeps_id'
    | 'locacion'
    | 'id_de_receta'
    | 'nombre_medicamento'
    | 'items'
  >,
): string {
  const content = {
    cuir: r.cuir,
    fecha_creacion: r.fecha_creacion.toISOString(),
    matricula_profesional: r.matricula_profesional,
    refeps_id: r.refeps_id,
    locacion: r.locacion,
    id_de_receta: r.id_de_receta,
    nombre_medicamento: r.nombre_medicamento,
    items: r.items,
  };
  return createHash('sha256').update(canonicalJson(content)).digest('hex');
}
