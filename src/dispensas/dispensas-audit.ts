import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { AuditoriaService } from '../auditoria/auditoria.service.js';
import type { AuditTipo } from '../auditoria/audit-event.js';
import type { CompanionStatement } from '../common/sql/sql-params.js';
import { DomainError } from '../common/errors/domain-error.js';
import { statusOf } from '../common/errors/error-codes.js';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';

/**
 * What an event of this module names: the action, who, which prescription. The request's id
 * is not passed: AuditoriaService takes it from the request's scope.
 */
export interface DispensaEvent {
  tipo: Extract<AuditTipo, 'reserva' | 'reserva_liberada' | 'dispensa' | 'reversion'>;
  actor: string;
  cuir?: string | null;
  idTransaccion?: string | null;
}

/**
 * The event log (contract §8) for reservations, releases, dispensations and reversals: `ok` is
 * written inside the action's transaction (it exists exactly when the action does); a refusal
 * (any 4xx) on its own after the rollback, and a failure to write it never hides the refusal.
 */
@Injectable()
export class DispensasAudit {
  private readonly log: Logger;

  constructor(
    private readonly auditoria: AuditoriaService,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.log = logger.child({ component: 'dispensas-audit' });
  }

  async ok(e: DispensaEvent): Promise<void> {
    await this.auditoria.record({ ...e, resultado: 'ok' });
  }

  /** `ok` as a companion of the action's own statement (its `receta` CTE names the prescription). */
  okInStatement({ idTransaccion: _, ...e }: DispensaEvent): CompanionStatement {
    return this.auditoria.eventInStatement({ ...e, resultado: 'ok' });
  }

  async refused(err: unknown, e: DispensaEvent): Promise<void> {
    if (!(err instanceof DomainError) || statusOf(err.code) >= 500) return;
    await this.auditoria.record({ ...e, resultado: err.code }).catch((failure: unknown) => {
      this.log.warn({ err: failure, tipo: e.tipo }, 'refused action not written to the event log');
    });
  }
}
