import type { CompanionStatement, SqlParams } from '../common/sql/sql-params.js';
import { type AuditEvent, auditEventRow, type AuditEventRow } from './audit-event.js';

/**
 * The event log's write inside another statement (the registration's single INSERT … WITH).
 * Part of the surface bench/ may read: the baseline writes the same row the service does.
 */

export const AUDIT_COLUMNS =
  'tipo, cuir, id_transaccion, actor, resultado, request_id, client_request_id';

// Typed placeholders: inside an INSERT … SELECT nothing else tells PostgreSQL their types.
const placeholders = (p: SqlParams, r: AuditEventRow, idTransaccion: string) =>
  [
    `${p.add(r.tipo)}::text`,
    `${p.add(r.cuir)}::text`,
    idTransaccion,
    `${p.add(r.actor)}::text`,
    `${p.add(r.resultado)}::text`,
    `${p.add(r.request_id)}::text`,
    `${p.add(r.client_request_id)}::text`,
  ].join(', ');

/**
 * The event as a statement for another statement's `WITH`: one event per row of the CTE
 * `source`, its `id` column being the prescription's id_transaccion (any `idTransaccion` of
 * the event is ignored). The insert trigger stamps the transaction and the hash; nothing is
 * locked and no chain head is read.
 */
export function eventInStatementSql(event: Omit<AuditEvent, 'idTransaccion'>): CompanionStatement {
  const row = auditEventRow({ ...event, idTransaccion: null });
  return (p, source) =>
    `INSERT INTO auditoria_eventos (${AUDIT_COLUMNS})
     SELECT ${placeholders(p, row, `${source}.id::bigint`)} FROM ${source}`;
}
