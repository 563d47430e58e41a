import type { AuditEvent } from '../../../src/auditoria/audit-event.js';
import type { AuditoriaService } from '../../../src/auditoria/auditoria.service.js';
import type { CompanionStatement } from '../../../src/common/sql/sql-params.js';

/** The event log in memory: what was recorded on its own, and what was put in statements. */
export class RecordingAuditoria implements Pick<AuditoriaService, 'record' | 'eventInStatement'> {
  readonly recorded: AuditEvent[] = [];
  readonly inStatement: Array<Omit<AuditEvent, 'idTransaccion'>> = [];

  record(event: AuditEvent): Promise<string> {
    this.recorded.push(event);
    return Promise.resolve(String(this.recorded.length));
  }

  eventInStatement(event: Omit<AuditEvent, 'idTransaccion'>): CompanionStatement {
    this.inStatement.push(event);
    return () => 'SELECT 1';
  }
}
