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
export type EventoRegistrado = Readonly<
  Pick<
    AuditEventEntity,
    | 'id'
    | 'at'
    | 'tipo'
    | 'cuir'
    | 'idTransaccion'
    | 'actor'
    | 'resultado'
    | 'requestId'
    | 'clientRequestId'
  >
>;

/** One page of a prescription's events, oldest first, and how many it has in all. */
export interface EventosPage {
  total: number;
  items: EventoRegistrado[];
}

/**
 * The event log of contract §8, as the other modules use it: each action writes its event in its
 * own transaction (so the event exists exactly when the action does), refused actions too.
 * Writing never waits for anything: the chain is built later by the sealer.
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
   * Writes one event in the running transaction (Transactions.run: it commits or rolls back
   * with the action), or on its own outside one (a refusal that wrote nothing else). Returns
   * the event's id. Throws InvalidAuditEvent for a malformed tipo, actor or resultado (a
   * programming error).
   */
  record(event: AuditEvent): Promise<string> {
    return this.repo.insert(auditEventRow(withRequestId(event)));
  }

  /**
   * A refused action's event, `resultado` the error's code, written on its own (after the
   * action rolled back). The one rule for every module: a refusal is a DomainError answered
   * 4xx — a 5xx is the service failing, not the caller refused — and a failed write is logged,
   * never thrown, so it can never replace the answer the caller gets. Call it in the action's
   * catch, then rethrow.
   */
  async recordRefusal(err: unknown, event: Omit<AuditEvent, 'resultado'>): Promise<void> {
    if (!(err instanceof DomainError) || statusOf(err.code) >= 500) return;
    await this.recordBeside({ ...event, resultado: err.code });
  }

  /**
   * An event beside an answer already decided (a refusal, a turned-away attempt): a failed
   * write is logged as a warning, never thrown, so the caller's answer stays what it was.
   */
  async recordBeside(event: AuditEvent): Promise<void> {
    await this.record(event).catch((failure: unknown) => {
      this.log.warn({ err: failure, tipo: event.tipo }, 'event not written to the event log');
    });
  }

  /**
   * The event as a companion of a larger single statement (see CompanionStatement): one event
   * per row of the statement's `source` CTE, whose `id` is the prescription's id_transaccion
   * (any `idTransaccion` given here is ignored). E.g. in the registration's statement:
   * `recetas.insertRegistro(r, first, [job, auditoria.eventInStatement({ tipo: 'registro',
   * cuir, actor: clientId, resultado: 'ok', requestId })], gate)`.
   */
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

/**
 * The request being handled is the event's (the service's id of it, and the client's own
 * apart), unless the caller names them.
 */
const withRequestId = <E extends AuditEvent>(event: E): E => ({
  ...event,
  requestId: event.requestId === undefined ? currentRequestId() : event.requestId,
  clientRequestId:
    event.clientRequestId === undefined ? currentClientRequestId() : event.clientRequestId,
});
