import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';
import type { AuditEventRow } from './audit-event.js';
import { AUDIT_INSERT_COLUMNS, INSERT_EVENT_SQL } from './auditoria.sql.js';
import { AuditEventEntity } from './entities/audit-event.entity.js';

/**
 * The event log's writes and reads. A write is one plain INSERT (the trigger stamps the xid and
 * hash): nothing is locked, so concurrent actions never wait for each other here.
 */
@Injectable()
export class AuditoriaRepository {
  constructor(private readonly transactions: Transactions) {}

  /** Inserts one event, in the running transaction when there is one. */
  async insert(r: AuditEventRow): Promise<string> {
    const rows = await this.transactions.prepared<{ id: string }>(
      INSERT_EVENT_SQL,
      AUDIT_INSERT_COLUMNS.map((c) => r[c]),
    );
    return rows[0].id;
  }

  /** One prescription's events, oldest first. */
  listForReceta(idTransaccion: string, limit: number, offset: number): Promise<AuditEventEntity[]> {
    return this.transactions.repository(AuditEventEntity).find({
      where: { idTransaccion },
      order: { id: 'ASC' },
      take: limit,
      skip: offset,
    });
  }

  countForReceta(idTransaccion: string): Promise<number> {
    return this.transactions.repository(AuditEventEntity).count({ where: { idTransaccion } });
  }
}
