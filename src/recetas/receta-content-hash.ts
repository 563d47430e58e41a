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
 * SHA-256 of the registered content, so a dispenser holding the printed prescription can check
 * it was not altered: canonical JSON (sorted keys, dates in UTC ISO 8601).
 *
 * It covers every registered member and the validity window, but the verification by CUIR (any
 * dispenser) and the printed page show it, so it must not let anyone recover what they are not
 * shown: a DNI, a birth date, a sex or an ICD-10 code each has few enough values to be found by
 * trying them all against a plain hash. So the patient's document, the patient, the coverage and
 * the diagnosis enter it as `privado_sha256`, the SHA-256 of 16 random bytes drawn at
 * registration (`content_salt`, never answered) followed by their canonical JSON: a
 * commitment that changes with any of them and reveals none. The salt is as secret as the
 * DNI (with it, a DNI window is tried in about a second), so it is stored sealed with the
 * document (SPEC 11.2; cifrado/datos-paciente.ts), and opened with it on every read.
 *
 * A prescription registered before the content members (no salt) keeps the hash it always had
 * (v1: the fields below, without the window and without the patient's document), so the
 * documents already printed still match what a pharmacy reads.
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
