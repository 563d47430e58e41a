import { type CompanionStatement, SqlParams } from '../common/sql/sql-params.js';

/**
 * The dispensation's hot path as SQL (contract §7): what a prescription's dispensations and live
 * reservation are, read in one statement, and a dispensation written in one. Built with
 * TypeORM's repositories the same work was six round trips and most of the request's CPU
 * (BENCHMARKS.md, "What each optimisation bought", issue 18). This file depends on nothing but its types.
 */

/**
 * `$1` = id_transaccion. One row: `dispensas` (JSON array, oldest first, reversed ones
 * included, each with its items by position) and `reserva` (the live reservation or null).
 * Times are ISO text inside the JSON. A reservation is live while it was neither released nor
 * consumed and `vence_at` is ahead of the statement's clock: no job lapses it.
 */
export const ESTADO_DISPENSACION_SQL = `SELECT
  (SELECT coalesce(json_agg(json_build_object(
      'id', d.id, 'client_id', d.client_id, 'fecha_dispensa', d.fecha_dispensa,
      'farmacia', json_build_object('cuit', d.farmacia_cuit, 'nombre', d.farmacia_nombre),
      'items', (SELECT coalesce(json_agg(json_build_object('item', i.item,
                  'cantidad', i.cantidad, 'codigo', i.codigo, 'sustituido', i.sustituido)
                  ORDER BY i.item), '[]')
                  FROM dispensa_items i WHERE i.id_dispensa = d.id),
      'revertida', d.revertida, 'revertida_at', d.revertida_at)
      ORDER BY d.created_at, d.id), '[]')
     FROM dispensas d WHERE d.id_transaccion = $1::bigint) AS dispensas,
  (SELECT json_build_object('id', r.id, 'client_id', r.client_id, 'vence_at', r.vence_at)
     FROM dispensa_reservas r
    WHERE r.id_transaccion = $1::bigint AND r.liberada_at IS NULL AND r.consumida_at IS NULL
      AND r.vence_at > statement_timestamp()
    ORDER BY r.vence_at DESC LIMIT 1) AS reserva`;

/** One dispensation of ESTADO_DISPENSACION_SQL's `dispensas`, as JSON gives it. */
export interface DispensaJson {
  id: string;
  client_id: string;
  fecha_dispensa: string;
  farmacia: { cuit: string; nombre: string };
  items: Array<{ item: number; cantidad: number; codigo: string | null; sustituido: boolean }>;
  revertida: boolean;
  revertida_at: string | null;
}

export interface EstadoDispensacionRow {
  dispensas: DispensaJson[];
  reserva: { id: string; client_id: string; vence_at: string } | null;
}

export interface DispensaInsert {
  /** Drawn by the caller (a UUID), so the answer needs nothing back but the time. */
  id: string;
  id_transaccion: string;
  client_id: string;
  farmacia_cuit: string;
  farmacia_nombre: string;
  fecha_dispensa: Date;
  reserva_id: string | null;
  items: Array<{ item: number; cantidad: number; codigo: string | null; sustituido: boolean }>;
}

/**
 * The dispensation, its items and the end of its dispenser's live reservation on the
 * prescription (whether or not the request named it), with the companions (e.g. the event
 * log's entry), in one statement: atomic without BEGIN/COMMIT of its own. The companions read
 * the CTE `receta` (`id` = the prescription's id_transaccion). An item taken already fails
 * the whole statement on the single-dispensation index (`dispensa_items_una_vez`), naming the
 * item in the error's detail. Answers one row: `created_at`.
 */
export function insertDispensaSql(
  d: DispensaInsert,
  companions: CompanionStatement[],
): { sql: string; values: unknown[] } {
  const p = new SqlParams();
  const id = p.add(d.id);
  const receta = p.add(d.id_transaccion);
  const client = p.add(d.client_id);
  const rest = [d.farmacia_cuit, d.farmacia_nombre, d.fecha_dispensa, d.reserva_id].map((v) =>
    p.add(v),
  );
  const items = p.add(JSON.stringify(d.items));
  const sql = `WITH d AS (
      INSERT INTO dispensas (id, id_transaccion, client_id, farmacia_cuit, farmacia_nombre,
        fecha_dispensa, reserva_id)
      VALUES (${id}::uuid, ${receta}::bigint, ${client}::uuid, ${rest.join(', ')})
      RETURNING id, id_transaccion, created_at
    ), i AS (
      INSERT INTO dispensa_items (id_dispensa, item, id_transaccion, cantidad, codigo, sustituido)
      SELECT d.id, x.item, d.id_transaccion, x.cantidad, x.codigo, x.sustituido
        FROM d, jsonb_to_recordset(${items}::jsonb)
          AS x(item smallint, cantidad integer, codigo varchar, sustituido boolean)
    ), c AS (
      UPDATE dispensa_reservas SET consumida_at = statement_timestamp()
       WHERE id_transaccion = ${receta}::bigint AND client_id = ${client}::uuid
         AND liberada_at IS NULL AND consumida_at IS NULL AND vence_at > statement_timestamp()
    ), receta AS (SELECT id_transaccion AS id FROM d)${companions
      .map((c, n) => `, c${n} AS (${c(p, 'receta')})`)
      .join('')}
    SELECT created_at FROM d`;
  return { sql, values: p.values };
}
