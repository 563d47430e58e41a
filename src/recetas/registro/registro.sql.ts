import { CompanionStatement, GuardStatement, SqlParams } from '../../common/sql/sql-params.js';
import { contenidoColumnas, type ContenidoReceta, itemGuardado } from '../contenido/contenido.js';
import type { HistoryEntry } from '../entities/receta-historial.entity.js';
import type { RecetaItem } from '../entities/receta.entity.js';
import { MENSAJES } from '../receta-state.js';

// The registration's hot path as SQL; bench/ runs it too, so it depends on nothing but types.

/** A registration request's fields (RegistrarRecetaDto, after validation). */
export interface RegistroRequest extends ContenidoReceta {
  documento_paciente: string;
  matricula_profesional: string;
  refeps_id?: string;
  locacion: string;
  cuir: string;
  id_de_receta?: string;
  nombre_medicamento?: string;
  fecha_creacion: string;
  items: RecetaItem[];
  fecha_inicio_vigencia?: string;
}

/** The history entry every registration starts with. */
const REGISTERED: HistoryEntry = {
  evento: 'REGISTRADA',
  estado: 'PENDING',
  intento: null,
  resultado: 'accepted',
  detalle: 'registration accepted; ministry notification queued',
};

/** A registration's answer, without its id (which exists only once the row is inserted). */
export function pendingAnswer(r: { cuir: string; id_de_receta?: string | null }) {
  return {
    estado: 'PENDING' as const,
    mensaje: MENSAJES.PENDING,
    cuir: r.cuir,
    id_de_receta: r.id_de_receta ?? null,
  };
}

/**
 * One statement, one round trip: the prescription (its trigger writes its `recetas_cuir` row),
 * its first history entry and the companions, which read the new row from CTE `r`. The id is
 * drawn first (CTE `n`) so a `gate` (an Idempotency-Key's) can store it: nothing is written
 * unless the gate returns a row. A `guard` returning a row stops everything first. Answers
 * `id_transaccion` (null when nothing was written) and `blocked` (the guard's).
 */
export function insertRegistroSql(
  clientId: string,
  r: RegistroRequest,
  /** The patient's data sealed before the statement (recetas/cifrado/): no plaintext is written. */
  sellado: {
    documento_cifrado: Buffer;
    documento_indice: Buffer;
    personales_cifrado: Buffer | null;
  },
  /** The validity window (contract §7), computed from the request: `YYYY-MM-DD` dates. */
  vigencia: { desde: string; hasta: string },
  idempotencyKey: string | null,
  companions: CompanionStatement[],
  gate?: CompanionStatement,
  guard?: GuardStatement,
): { sql: string; values: unknown[] } {
  const p = new SqlParams();
  const items = r.items.map(itemGuardado);
  const c = contenidoColumnas(r);
  const values = [
    clientId,
    r.cuir,
    sellado.documento_cifrado,
    sellado.documento_indice,
    r.matricula_profesional,
    r.refeps_id ?? null,
    r.locacion,
    r.id_de_receta ?? null,
    r.nombre_medicamento ?? null,
    r.fecha_creacion,
    JSON.stringify(items),
    MENSAJES.PENDING,
    idempotencyKey,
    vigencia.desde,
    vigencia.hasta,
    // The insurer, RNOS code and plan identify no patient: in clear (datos-personales.ts).
    c.cobertura_financiador,
    c.cobertura_codigo_rnos,
    c.cobertura_plan,
    sellado.personales_cifrado,
  ].map((v) => p.add(v));
  const h = REGISTERED;
  const history = [h.evento, h.estado, h.intento, h.resultado, h.detalle].map((v) => p.add(v));
  const blocked = guard ? `b AS (${guard(p)}), ` : '';
  const sql = `WITH ${blocked}n AS (SELECT nextval('recetas_id_transaccion_seq') AS id${
    guard ? ' WHERE NOT EXISTS (SELECT 1 FROM b)' : ''
  })${gate ? `, g AS (${gate(p, 'n')})` : ''}, r AS (
      INSERT INTO recetas (id_transaccion, client_id, cuir, documento_cifrado, documento_indice,
        matricula_profesional, refeps_id, locacion, id_de_receta, nombre_medicamento,
        fecha_creacion, items, mensaje, idempotency_key, vigencia_desde, vigencia_hasta,
        cobertura_financiador, cobertura_codigo_rnos, cobertura_plan, personales_cifrado)
      SELECT n.id, ${values.join(', ')} FROM n${gate ? ' WHERE EXISTS (SELECT 1 FROM g)' : ''}
      RETURNING id_transaccion AS id, cuir
    ), h AS (
      INSERT INTO receta_historial (id_transaccion, evento, estado, intento, resultado, detalle)
      SELECT r.id, ${history.join(', ')} FROM r
    )${companions.map((c, i) => `, c${i} AS (${c(p, 'r')})`).join('')}
    SELECT (SELECT id::text FROM r) AS id_transaccion,
      ${guard ? 'EXISTS (SELECT 1 FROM b)' : 'false'} AS blocked`;
  return { sql, values: p.values };
}

/** The unique index a second registration of a CUIR fails on (409): `recetas_cuir`'s key. */
export const CUIR_UNIQUE_INDEX = 'recetas_cuir_pkey';
