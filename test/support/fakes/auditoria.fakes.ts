import pino from 'pino';
import type { AuditEvent } from '../../../src/auditoria/audit-event.js';
import { AuditoriaService } from '../../../src/auditoria/auditoria.service.js';
import type { CompanionStatement } from '../../../src/common/sql/sql-params.js';

/**
 * The event log in memory: what was recorded on its own, and what was put in statements. The
 * refusal rule is the real service's (recordRefusal, recordBeside), over this memory.
 */
export class RecordingAuditoria implements Pick<
  AuditoriaService,
  'record' | 'eventInStatement' | 'recordRefusal' | 'recordBeside'
> {
  readonly recorded: AuditEvent[] = [];
  readonly inStatement: Array<Omit<AuditEvent, 'idTransaccion'>> = [];
  protected readonly log = pino({ level: 'silent' });

  record(event: AuditEvent): Promise<string> {
    this.recorded.push(event);
    return Promise.resolve(String(this.recorded.length));
  }

  eventInStatement(event: Omit<AuditEvent, 'idTransaccion'>): CompanionStatement {
    this.inStatement.push(event);
    return () => 'SELECT 1';
  }

  recordRefusal = AuditoriaService.prototype.recordRefusal;
  recordBeside = AuditoriaService.prototype.recordBeside;
}
