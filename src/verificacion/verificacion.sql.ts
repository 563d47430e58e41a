import { type CompanionStatement, SqlParams } from '../common/sql/sql-params.js';

/** One verification by CUIR, as `verificaciones_cuir` stores it. */
export interface VerificacionRow {
  verifier_client_id: string;
  cuir: string;
  id_transaccion: string | null;
  owner_client_id: string | null;
  found: boolean;
}

/**
 * The verification's row and its companions (the event log's entry) in ONE statement: atomic,
 * one round trip on the path every dispenser calls. The companions read the prescription's
 * id_transaccion (null when none was found) as `v.id`.
 */
export function recordVerificacionSql(
  v: VerificacionRow,
  companions: CompanionStatement[],
): { sql: string; values: unknown[] } {
  const p = new SqlParams();
  const values = [
    `${p.add(v.verifier_client_id)}::uuid`,
    `${p.add(v.cuir)}::char(41)`,
    `${p.add(v.id_transaccion)}::bigint`,
    `${p.add(v.owner_client_id)}::uuid`,
    `${p.add(v.found)}::boolean`,
  ];
  const sql = `WITH v AS (
      INSERT INTO verificaciones_cuir (verifier_client_id, cuir, id_transaccion, owner_client_id, found)
      VALUES (${values.join(', ')})
      RETURNING id_transaccion AS id
    )${companions.map((c, i) => `, c${i} AS (${c(p, 'v')})`).join('')}
    SELECT 1 AS ok`;
  return { sql, values: p.values };
}
