import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { DomainError } from '../common/errors/domain-error.js';
import { statusOf } from '../common/errors/error-codes.js';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import { currentClientRequestId, currentRequestId } from '../common/http/request-scope.js';
import type { CompanionStatement } from '../common/sql/sql-params.js';
import { type AuditEvent, auditEventRow } from './audit-event.js';
import { AuditoriaRepository } from './auditoria.repository.js';
import { eventInStatementSql } from './auditoria.sql.js';
import type { AuditEventEntity } from './entities/audit-event.entity.js';

/** An event as other modules read it (the entity stays auditoria's; its hash is sealing's). */
export type EventoRegistrado = Readonly<Omit<AuditEventEntity, 'hash'>>;

/** One page of a prescription's events, oldest first, and how many it has in all. */
export interface EventosPage {
  total: number;
  items: EventoRegistrado[];
}

/**
 * The event log of contract §8: an action's event is written in its transaction (it exists
 * exactly when the action does), refusals too. Writing never waits: the sealer chains later.
 */
@Injectable()
export class AuditoriaService {
  private readonly log: Logger;

  constructor(
    private readonly repo: AuditoriaRepository,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.log = logger.child({ component: 'auditoria' });
  }

  /**
   * Writes one event in the running transaction, or on its own outside one; returns its id.
   * Throws InvalidAuditEvent for a malformed tipo, actor or resultado (a programming error).
   */
  record(event: AuditEvent): Promise<string> {
    return this.repo.insert(auditEventRow(withRequestId(event)));
  }

  /**
   * A refused action's event (`resultado` its code), for the action's catch before rethrowing:
   * only a DomainError answered 4xx is a refusal (a 5xx is the service failing); see recordBeside.
   */
  async recordRefusal(err: unknown, event: Omit<AuditEvent, 'resultado'>): Promise<void> {
    if (!(err instanceof DomainError) || statusOf(err.code) >= 500) return;
    await this.recordBeside({ ...event, resultado: err.code });
  }

  /** An event beside an answer already decided: a failed write is logged, never thrown. */
  async recordBeside(event: AuditEvent): Promise<void> {
    await this.record(event).catch((failure: unknown) => {
      this.log.warn({ err: failure, tipo: event.tipo }, 'event not written to the event log');
    });
  }

  /** The event as a companion of a larger statement (see eventInStatementSql). */
  eventInStatement(event: Omit<AuditEvent, 'idTransaccion'>): CompanionStatement {
    return eventInStatementSql(withRequestId(event));
  }

  /** One prescription's events, oldest first (`limit`/`offset` as the listing pages). */
  async listForReceta(
    idTransaccion: string,
    page: { limit: number; offset: number },
  ): Promise<EventosPage> {
    const [total, items] = await Promise.all([
      this.repo.countForReceta(idTransaccion),
      this.repo.listForReceta(idTransaccion, page.limit, page.offset),
    ]);
    return { total, items };
  }
}

/** The request being handled is the event's (its ids), unless the caller names them. */
const withRequestId = <E extends AuditEvent>(event: E): E => ({
  ...event,
  requestId: event.requestId === undefined ? currentRequestId() : event.requestId,
  clientRequestId:
    event.clientRequestId === undefined ? currentClientRequestId() : event.clientRequestId,
});
