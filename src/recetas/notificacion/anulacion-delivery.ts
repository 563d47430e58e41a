import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { Counter } from 'prom-client';
import { ROOT_LOGGER } from '../../common/logging/logging.module.js';
import { MetricsService } from '../../common/metrics/metrics.service.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { InjectSettings } from '../../config/settings.js';
import { Transactions } from '../../database/transactions.js';
import { MinisterioClient } from '../../ministerio/ministerio.public.js';
import type { RecetaEntity } from '../entities/receta.entity.js';
import type { AnulacionEstado } from '../receta-state.js';
import { RecetasRepository } from '../recetas.repository.js';
import { recetasSettings, type RecetasSettings } from '../recetas.settings.js';
import {
  ANULACION,
  anulacionNoRequerida,
  MAX_AGE_MS,
  nothingToTell,
  type Step,
  stepOf,
} from './delivery-outcomes.js';
import type { NotificationJob } from './ministerio-delivery.sql.js';

/** Enqueues a job on the ministry queue (inside Transactions.run it joins the transaction). */
export type ScheduleJob = (job: NotificationJob, startAfter: Date) => Promise<unknown>;

/**
 * The ministry's notice of a cancellation (contract §7), one attempt per `kind: 'anulacion'` job
 * of the pointer's own queue. It follows the pointer: while that is PENDING the notice waits,
 * spending no attempt; a pointer never accepted leaves nothing to tell. Counted, guarded and
 * retried like the pointer's attempts.
 */
@Injectable()
export class AnulacionDelivery {
  private readonly settings: RecetasSettings['notification'];
  private readonly log: Logger;
  private readonly outcomes: Counter<'outcome'>;

  constructor(
    private readonly recetas: RecetasRepository,
    private readonly transactions: Transactions,
    private readonly ministerio: MinisterioClient,
    @InjectSettings(recetasSettings) settings: RecetasSettings,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) logger: Logger,
    metrics: MetricsService,
  ) {
    this.settings = settings.notification;
    this.log = logger.child({ component: 'ministerio-anulacion' });
    this.outcomes = new Counter({
      name: 'ministry_cancellation_outcomes_total',
      help: 'Ministry cancellation notices by outcome (completed, duplicate, rejected, retry, failed, not_required, waiting_for_pointer, short_circuited)',
      labelNames: ['outcome'],
      registers: [metrics.registry],
    });
  }

  async attempt(job: NotificationJob, schedule: ScheduleJob): Promise<void> {
    const r = await this.recetas.findById(job.id_transaccion);
    // Not cancelled, settled, or this attempt recorded already (a repeated job): nothing to do.
    if (!r || r.anulacion_estado !== 'PENDING' || r.anulacion_intentos >= job.attempt) return;
    const why = nothingToTell(r);
    if (why) return this.settle(r, anulacionNoRequerida(r.anulacion_intentos, why), schedule);
    if (r.estado === 'PENDING') return this.waitForPointer(r, job, schedule);

    const expired = Date.now() - (r.anulada_at?.getTime() ?? 0) > MAX_AGE_MS;
    const step = await stepOf(ANULACION, job.attempt, { ...this.settings, expired }, () =>
      this.ministerio.anular({
        cuir: r.cuir,
        id_transaccion: r.id_transaccion,
        motivo: r.motivo_anulacion ?? '',
        fecha_anulacion: (r.anulada_at ?? new Date()).toISOString(),
      }),
    );
    if (step) return this.settle(r, step, schedule);
    // Nothing reached the ministry: the same attempt once the breaker lets calls through.
    const delay = this.config.resilience.halfOpenAfterMs * (1 + Math.random() * 0.5);
    await schedule(job, new Date(Date.now() + delay));
    this.outcomes.inc({ outcome: 'short_circuited' });
  }

  /** The pointer is still on its way: the same attempt after the pointer's next one (or the first retry delay). */
  private async waitForPointer(
    r: RecetaEntity,
    job: NotificationJob,
    schedule: ScheduleJob,
  ): Promise<void> {
    const soonest = Date.now() + this.settings.retryDelaySeconds * 1000;
    const afterPointer = (r.proximo_intento_at?.getTime() ?? 0) + 1000;
    await schedule(job, new Date(Math.max(soonest, afterPointer)));
    this.outcomes.inc({ outcome: 'waiting_for_pointer' });
  }

  /** The step's outcome, history and follow-up in one transaction; a refused guard writes nothing. */
  private async settle(
    r: RecetaEntity,
    step: Step<AnulacionEstado>,
    schedule: ScheduleJob,
  ): Promise<void> {
    const id = r.id_transaccion;
    const applied = await this.transactions.run(async () => {
      if (!(await this.recetas.applyAnulacionOutcome(id, r.anulacion_intentos, step))) return false;
      for (const h of step.history) await this.recetas.addHistory(id, { ...h, estado: r.estado });
      if (step.followUp) {
        await schedule(
          { id_transaccion: id, attempt: step.followUp.attempt, kind: 'anulacion' },
          step.followUp.startAfter,
        );
      }
      return true;
    });
    if (!applied) {
      this.log.info({ id_transaccion: id }, 'stale cancellation outcome ignored');
      return;
    }
    this.outcomes.inc({ outcome: step.metric });
    if (step.estado === 'FAILED') {
      this.log.error(
        {
          id_transaccion: id,
          alert: 'ministry_cancellation_failed',
          reason: step.history.at(-1)?.detalle,
        },
        'the ministry could not be told of a cancellation',
      );
    }
  }
}
