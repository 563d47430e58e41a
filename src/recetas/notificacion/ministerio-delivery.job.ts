import { Inject, Injectable } from '@nestjs/common';
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { Counter, Histogram } from 'prom-client';
import { ROOT_LOGGER } from '../../common/logging/logging.module.js';
import { MetricsService } from '../../common/metrics/metrics.service.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { EnlacesPublicos } from '../../publico/enlaces-publicos.service.js';
import { InjectSettings } from '../../config/inject-settings.js';
import { parseCuir } from '../../cuir/cuir.public.js';
import { Transactions } from '../../database/transactions.js';
import { MinisterioClient, type Puntero } from '../../ministerio/ministerio.public.js';
import { JobQueue } from '../../queue/job-queue.js';
import { JobPolicy, QueueJob, QueueJobHandler } from '../../queue/queue-job.js';
import type { RecetaEntity } from '../entities/receta.entity.js';
import { type AnulacionEstado, MENSAJES } from '../receta-state.js';
import { type AttemptOutcome, RecetasRepository } from '../recetas.repository.js';
import { recetasSettings, type RecetasSettings } from '../recetas.settings.js';
import {
  ANULACION,
  anulacionNoRequerida,
  MAX_AGE_MS,
  nothingToTell,
  notRequired,
  PUNTERO,
  type Step,
  stepOf,
} from './delivery-outcomes.js';
import { MINISTERIO_QUEUE, NotificationJob } from './ministerio-delivery.sql.js';
import { RecetaWebhooksService } from './receta-webhooks.service.js';

/**
 * The ministry notification of contract §4, one delivery attempt per job, and on the same queue
 * the cancellation's notice (`kind: 'anulacion'`), as durable as the pointer. An attempt's
 * outcome, history and next job are written in one transaction guarded by the attempt count,
 * so a job delivered twice never double-counts.
 */
@Injectable()
@QueueJob()
export class MinisterioDeliveryJob implements QueueJobHandler<NotificationJob> {
  readonly name = MINISTERIO_QUEUE;
  readonly policy: JobPolicy;
  readonly concurrency: number;
  private readonly settings: RecetasSettings['notification'];
  private readonly log: Logger;
  private readonly anulacionLog: Logger;
  private readonly outcomes: Counter<'outcome'>;
  private readonly anulaciones: Counter<'outcome'>;
  private readonly latency: Histogram<'outcome'>;

  constructor(
    private readonly recetas: RecetasRepository,
    private readonly transactions: Transactions,
    private readonly ministerio: MinisterioClient,
    private readonly queue: JobQueue,
    private readonly webhooks: RecetaWebhooksService,
    private readonly enlaces: EnlacesPublicos,
    @InjectSettings(recetasSettings) settings: RecetasSettings,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) logger: Logger,
    metrics: MetricsService,
  ) {
    this.settings = settings.notification;
    this.log = logger.child({ component: 'ministerio-delivery' });
    this.anulacionLog = logger.child({ component: 'ministerio-anulacion' });
    // These retries are for the unexpected (database down, process killed mid-job); ministry
    // failures are retried by scheduling the next attempt's job ourselves.
    this.policy = {
      retryLimit: 20,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: this.settings.jobExpireSeconds,
    };
    this.concurrency = this.settings.deliveryEnabled ? this.settings.workerConcurrency : 0;
    if (!this.settings.deliveryEnabled)
      this.log.warn(
        'ministry delivery is paused (MINISTRY_DELIVERY_ENABLED=false): notifications stay queued',
      );
    this.outcomes = new Counter({
      name: 'ministry_delivery_outcomes_total',
      help: 'Ministry delivery attempts by outcome (completed, duplicate, rejected, retry, failed, not_required, short_circuited)',
      labelNames: ['outcome'],
      registers: [metrics.registry],
    });
    this.anulaciones = new Counter({
      name: 'ministry_cancellation_outcomes_total',
      help: 'Ministry cancellation notices by outcome (completed, duplicate, rejected, retry, failed, not_required, waiting_for_pointer, short_circuited)',
      labelNames: ['outcome'],
      registers: [metrics.registry],
    });
    this.latency = new Histogram({
      name: 'ministry_delivery_seconds',
      help: 'Duration of one ministry delivery attempt',
      labelNames: ['outcome'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [metrics.registry],
    });
  }

  handle(job: PgBoss.JobWithMetadata<NotificationJob>): Promise<void> {
    return job.data.kind === 'anulacion' ? this.anular(job.data) : this.attempt(job.data);
  }

  /** Enqueues a job on this queue (inside Transactions.run it joins the transaction). */
  private schedule(job: NotificationJob, startAfter: Date): Promise<unknown> {
    return this.queue.enqueue(MinisterioDeliveryJob, job, { startAfter });
  }

  /** Nothing reached the ministry: the same attempt once the breaker lets a call through. */
  private async waitForBreaker(job: NotificationJob, outcomes: Counter<'outcome'>): Promise<void> {
    const delay = this.config.resilience.halfOpenAfterMs * (1 + Math.random() * 0.5);
    await this.schedule(job, new Date(Date.now() + delay));
    outcomes.inc({ outcome: 'short_circuited' });
  }

  /** One delivery attempt and its consequences. */
  async attempt(job: NotificationJob): Promise<void> {
    const receta = await this.recetas.findById(job.id_transaccion);
    // Gone, final, or this attempt already recorded (a repeated job after a crash): nothing to do.
    if (!receta || receta.estado !== 'PENDING' || receta.intentos >= job.attempt) return;

    const type = parseCuir(receta.cuir);
    if (type.ok && !this.settings.notifyTypes.includes(type.components.prescriptionType))
      return this.settle(receta, notRequired(receta.intentos, type.components.prescriptionType));

    const expired = Date.now() - receta.created_at.getTime() > MAX_AGE_MS;
    const started = process.hrtime.bigint();
    const step = await stepOf(PUNTERO, job.attempt, { ...this.settings, expired }, () =>
      this.ministerio.deliver(this.punteroOf(receta)),
    );
    if (!step) return this.waitForBreaker(job, this.outcomes);
    const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
    this.latency.observe({ outcome: step.metric }, elapsed);
    await this.settle(receta, step);
  }

  /** Writes the step's outcome, its history and follow-up atomically; a refused guard writes nothing. */
  private async settle(receta: RecetaEntity, step: Step): Promise<void> {
    const id = receta.id_transaccion;
    const outcome: AttemptOutcome = {
      ...step,
      mensaje: MENSAJES[step.estado],
      proximoIntentoAt: step.followUp?.startAfter,
    };
    const applied = await this.transactions.run(async () => {
      if (!(await this.recetas.applyOutcome(id, receta.intentos, outcome))) return false;
      for (const h of step.history) await this.recetas.addHistory(id, h);
      if (step.estado !== 'PENDING') await this.webhooks.enqueueFinal(receta, outcome);
      if (step.followUp) {
        await this.schedule(
          { id_transaccion: id, attempt: step.followUp.attempt },
          step.followUp.startAfter,
        );
      }
      return true;
    });
    if (!applied) {
      this.log.info(
        { id_transaccion: id },
        'stale delivery outcome ignored (state already moved on)',
      );
      return;
    }
    this.outcomes.inc({ outcome: step.metric });
    if (step.estado === 'FAILED') {
      // The regulation's "alert": a prescription that will never reach the ministry.
      this.log.error(
        {
          id_transaccion: id,
          alert: 'ministry_notification_failed',
          reason: step.failureReason,
        },
        'ministry notification failed for good',
      );
    }
  }

  /**
   * The ministry's notice of a cancellation (contract §7), one attempt per `kind: 'anulacion'`
   * job. It follows the pointer: while that is PENDING the notice waits, spending no attempt; a
   * pointer never accepted leaves nothing to tell.
   */
  async anular(job: NotificationJob): Promise<void> {
    const r = await this.recetas.findById(job.id_transaccion);
    // Not cancelled, settled, or this attempt recorded already (a repeated job): nothing to do.
    if (!r || r.anulacion_estado !== 'PENDING' || r.anulacion_intentos >= job.attempt) return;
    const why = nothingToTell(r);
    if (why) return this.settleAnulacion(r, anulacionNoRequerida(r.anulacion_intentos, why));
    if (r.estado === 'PENDING') return this.waitForPointer(r, job);

    const expired = Date.now() - (r.anulada_at?.getTime() ?? 0) > MAX_AGE_MS;
    const step = await stepOf(ANULACION, job.attempt, { ...this.settings, expired }, () =>
      this.ministerio.anular({
        cuir: r.cuir,
        id_transaccion: r.id_transaccion,
        motivo: r.motivo_anulacion ?? '',
        fecha_anulacion: (r.anulada_at ?? new Date()).toISOString(),
      }),
    );
    return step ? this.settleAnulacion(r, step) : this.waitForBreaker(job, this.anulaciones);
  }

  /** The pointer is still on its way: the same attempt after the pointer's next one (or the first retry delay). */
  private async waitForPointer(r: RecetaEntity, job: NotificationJob): Promise<void> {
    const soonest = Date.now() + this.settings.retryDelaySeconds * 1000;
    const afterPointer = (r.proximo_intento_at?.getTime() ?? 0) + 1000;
    await this.schedule(job, new Date(Math.max(soonest, afterPointer)));
    this.anulaciones.inc({ outcome: 'waiting_for_pointer' });
  }

  /** As settle, for the notice: its history carries the transaction's estado. */
  private async settleAnulacion(r: RecetaEntity, step: Step<AnulacionEstado>): Promise<void> {
    const id = r.id_transaccion;
    const applied = await this.transactions.run(async () => {
      if (!(await this.recetas.applyAnulacionOutcome(id, r.anulacion_intentos, step))) return false;
      for (const h of step.history) await this.recetas.addHistory(id, { ...h, estado: r.estado });
      if (step.followUp) {
        await this.schedule(
          { id_transaccion: id, attempt: step.followUp.attempt, kind: 'anulacion' },
          step.followUp.startAfter,
        );
      }
      return true;
    });
    if (!applied) {
      this.anulacionLog.info({ id_transaccion: id }, 'stale cancellation outcome ignored');
      return;
    }
    this.anulaciones.inc({ outcome: step.metric });
    if (step.estado === 'FAILED') {
      this.anulacionLog.error(
        {
          id_transaccion: id,
          alert: 'ministry_cancellation_failed',
          reason: step.history.at(-1)?.detalle,
        },
        'the ministry could not be told of a cancellation',
      );
    }
  }

  private punteroOf(r: RecetaEntity): Puntero {
    return {
      cuir: r.cuir,
      documento_paciente: r.documento_paciente,
      fecha_creacion: r.fecha_creacion.toISOString(),
      ...(r.refeps_id ? { refeps_id: r.refeps_id } : {}),
      matricula_profesional: r.matricula_profesional,
      id_transaccion: r.id_transaccion,
      url_verificacion: this.enlaces.url(r.cuir),
    };
  }
}
