import { Injectable } from '@nestjs/common';
import { AuditoriaService } from '../auditoria/auditoria.service.js';
import type { AuditTipo } from '../auditoria/auditoria.public.js';
import type { CompanionStatement } from '../common/sql/sql-params.js';

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
  constructor(private readonly auditoria: AuditoriaService) {}

  async ok(e: DispensaEvent): Promise<void> {
    await this.auditoria.record({ ...e, resultado: 'ok' });
  }

  /** `ok` as a companion of the action's own statement (its `receta` CTE names the prescription). */
  okInStatement({ idTransaccion: _, ...e }: DispensaEvent): CompanionStatement {
    return this.auditoria.eventInStatement({ ...e, resultado: 'ok' });
  }

  /** A refusal (4xx), on its own after the rollback (AuditoriaService.recordRefusal). */
  refused(err: unknown, e: DispensaEvent): Promise<void> {
    return this.auditoria.recordRefusal(err, e);
  }
}
