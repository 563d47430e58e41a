import { type CompanionStatement, SqlParams } from '../common/sql/sql-params.js';

/**
 * The dispensation's hot path as SQL (contract §7): a prescription's dispensations and live
 * reservation read in one statement, a dispensation written in one (TypeORM took six round trips).
 */

/**
 * `$1` = id_transaccion. One row: `dispensas` (JSON, oldest first, reversed ones included, each
 * with its items) and `reserva` (the live one or null); times as ISO text.
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

type Items = Array<{ item: number; cantidad: number; codigo: string | null; sustituido: boolean }>;

export interface EstadoDispensacionRow {
  dispensas: Array<{
    id: string;
    client_id: string;
    fecha_dispensa: string;
    farmacia: { cuit: string; nombre: string };
    items: Items;
    revertida: boolean;
    revertida_at: string | null;
  }>;
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
  items: Items;
}

/**
 * The dispensation, its items, the end of its dispenser's live reservation (named or not) and
 * the companions (reading the CTE `receta`, `id` = id_transaccion), in one statement. An item
 * taken already fails it on `dispensa_items_una_vez`, naming the item. Answers `created_at`.
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
