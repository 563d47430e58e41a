import { entityColumns } from '../common/sql/entity-columns.js';
import type { CompanionStatement, SqlParams } from '../common/sql/sql-params.js';
import { type AuditEvent, auditEventRow, type AuditEventRow } from './audit-event.js';
import { AuditEventEntity } from './entities/audit-event.entity.js';

/** The event log's write, alone (AuditoriaRepository) and inside another statement. */

/**
 * The columns written: the entity's but those the database fills (id; the trigger's time, xid
 * and hash). Each must be a field of AuditEventRow, or this module refuses to load.
 */
const ROW_FIELDS: Record<keyof AuditEventRow, true> = {
  tipo: true,
  cuir: true,
  id_transaccion: true,
  actor: true,
  resultado: true,
  request_id: true,
  client_request_id: true,
};
export const AUDIT_INSERT_COLUMNS = entityColumns(AuditEventEntity)
  .filter((c) => c.insert && !c.generated)
  .map((c) => {
    if (!(c.column in ROW_FIELDS)) throw new Error(`AuditEventRow has no field for ${c.column}`);
    return c.column as keyof AuditEventRow;
  });

const AUDIT_COLUMNS = AUDIT_INSERT_COLUMNS.join(', ');

/** One event, alone: $1… in AUDIT_INSERT_COLUMNS' order. */
export const INSERT_EVENT_SQL = `INSERT INTO auditoria_eventos (${AUDIT_COLUMNS}) VALUES (${AUDIT_INSERT_COLUMNS.map(
  (_, i) => `$${i + 1}`,
).join(', ')}) RETURNING id::text`;

// Typed placeholders: inside an INSERT … SELECT nothing else tells PostgreSQL their types.
const placeholders = (p: SqlParams, r: AuditEventRow, idTransaccion: string) =>
  AUDIT_INSERT_COLUMNS.map((c) =>
    c === 'id_transaccion' ? idTransaccion : `${p.add(r[c])}::text`,
  ).join(', ');

/**
 * The event as a statement for another statement's `WITH`: one event per row of the CTE
 * `source`, whose `id` is the prescription's id_transaccion (the event's own is ignored).
 */
export function eventInStatementSql(event: Omit<AuditEvent, 'idTransaccion'>): CompanionStatement {
  const row = auditEventRow({ ...event, idTransaccion: null });
  return (p, source) =>
    `INSERT INTO auditoria_eventos (${AUDIT_COLUMNS})
     SELECT ${placeholders(p, row, `${source}.id::bigint`)} FROM ${source}`;
}
