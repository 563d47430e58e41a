import { createHash } from 'node:crypto';
import { canonicalJson } from '../common/canonical-json.js';
import {
  coberturaDe,
  type ContenidoColumnas,
  diagnosticoDe,
  ITEM_TEXT_MEMBERS,
  type ItemGuardado,
  pacienteDe,
} from './contenido/contenido.js';
import type { RecetaEntity } from './entities/receta.entity.js';

export type ContentHashFields = Pick<
  RecetaEntity,
  | 'cuir'
  | 'fecha_creacion'
  | 'matricula_profesional'
  | 'refeps_id'
  | 'locacion'
  | 'id_de_receta'
  | 'nombre_medicamento'
  | 'items'
  | 'documento_paciente'
  | 'vigencia_desde'
  | 'vigencia_hasta'
  | 'content_salt'
> &
  ContenidoColumnas;

/** The salt's length: drawn by the registration, sealed with the document. */
export const CONTENT_SALT_BYTES = 16;

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * SHA-256 of the registered content's canonical JSON, so a dispenser can check the printed
 * prescription was not altered. It is shown to dispensers, so the patient's data (a DNI or a
 * birth date can be found by trying every value) enters only as `privado_sha256`: a commitment
 * under the secret salt `content_salt` (SPEC 11.2, sealed with the document). A prescription
 * registered before the salt keeps its v1 hash, so documents already printed still match.
 */
export function recetaContentHash(r: ContentHashFields): string {
  const base = {
    cuir: r.cuir,
    fecha_creacion: r.fecha_creacion.toISOString(),
    matricula_profesional: r.matricula_profesional,
    refeps_id: r.refeps_id,
    locacion: r.locacion,
    id_de_receta: r.id_de_receta,
    nombre_medicamento: r.nombre_medicamento,
  };
  if (r.content_salt === null) return sha256(canonicalJson({ ...base, items: r.items }));
  const privado = {
    documento_paciente: r.documento_paciente,
    paciente: pacienteDe(r),
    cobertura: coberturaDe(r),
    diagnostico: diagnosticoDe(r),
  };
  return sha256(
    canonicalJson({
      version: 2,
      ...base,
      vigencia_desde: r.vigencia_desde,
      vigencia_hasta: r.vigencia_hasta,
      items: r.items.map(itemCanonico),
      privado_sha256: sha256(Buffer.concat([r.content_salt, Buffer.from(canonicalJson(privado))])),
    }),
  );
}

/** Every member of an item, absent ones as null and `sustituible` as stated or defaulted. */
function itemCanonico(i: ItemGuardado) {
  const item: Record<string, unknown> = { nombre: i.nombre, cantidad: i.cantidad };
  for (const k of ITEM_TEXT_MEMBERS) item[k] = i[k] ?? null;
  item.sustituible = i.sustituible !== false;
  return item;
}
