import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { Counter, Histogram } from 'prom-client';
import { DomainError } from '../common/errors/domain-error.js';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import type { CompanionStatement } from '../common/sql/sql-params.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { parseCuir } from '../cuir/cuir-format.js';
import { MetricsService } from '../metrics/metrics.service.js';
import {
  MinistryClient,
  MinistryPointer,
  MinistryRejection,
} from '../ministerio/ministry.client.js';
import { JobQueue } from '../queue/job-queue.js';
import { RecetaEventsService } from './receta-events.service.js';
import { MENSAJES, retryDelayMs } from './receta-state.js';
import {
  applyOutcome,
  AttemptOutcome,
  RecetaRow,
  RecetasRepository,
} from './recetas.repository.js';
import { firstDeliveryJobData, MINISTRY_QUEUE, NotificationJob } from './notification-job.js';

/** Retries stop after this long whatever the attempt count (SPEC 4: 10 attempts or 24 h). */
const MAX_AGE_MS = 24 * 3600_000;

/**
 * The PENDING → COMPLETED / FAILED machine of SPEC 4, one delivery attempt per job. Each
 * attempt's outcome, its history rows and (for a transient failure) the next attempt's job
 * are written in one transaction, guarded by the attempt count, so at-least-once job delivery
 * never double-counts and a final state is never left.
 */
@Injectable()
export class MinistryNotificationService implements OnModuleInit {
  private readonly log: Logger;
  private readonly outcomes: Counter<'outcome'>;
  private readonly latency: Histogram<'outcome'>;

  constructor(
    private readonly recetas: RecetasRepository,
    private readonly ministry: MinistryClient,
    private readonly queue: JobQueue,
    private readonly events: RecetaEventsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) logger: Logger,
    metrics: MetricsService,
  ) {
    this.log = logger.child({ component: 'ministry-notification' });
    this.outcomes = new Counter({
      name: 'ministry_delivery_outcomes_total',
      help: 'Ministry delivery attempts by outcome (completed, duplicate, rejected, retry, failed, not_required)',
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

  async onModuleInit(): Promise<void> {
    await this.queue.ensureQueue(MINISTRY_QUEUE, {
      // These retries are for the unexpected (database down, process killed mid-job); ministry
      // failures are retried by scheduling the next attempt's job ourselves.
      retryLimit: 20,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: this.config.ministry.jobExpireSeconds,
    });
  }

  /** The first delivery's job, enqueued in the registration's own statement (source: the new receta). */
  firstDelivery(): CompanionStatement {
    return this.queue.jobInStatement(MINISTRY_QUEUE, firstDeliveryJobData);
  }

  /** Works one job: one delivery attempt and its consequences. */
  async process(job: NotificationJob): Promise<void> {
    const receta = await this.recetas.findById(job.id_transaccion);
    // Gone, final, or this attempt already recorded (a repeated job after a crash): nothing to do.
    if (!receta || receta.estado !== 'PENDING' || receta.intentos >= job.attempt) return;

    const type = parseCuir(receta.cuir);
    if (type.ok && !this.config.ministry.notifyTypes.includes(type.components.prescriptionType)) {
      return this.settle(
        receta,
        { estado: 'COMPLETED', mensaje: MENSAJES.COMPLETED, intento: receta.intentos },
        'not_required',
        [
          {
            evento: 'NOTIFICACION_NO_REQUERIDA',
            estado: 'COMPLETED',
            intento: null,
            resultado: 'not_required',
            detalle: `prescription type ${type.components.prescriptionType} is not reported`,
          },
        ],
      );
    }

    const started = process.hrtime.bigint();
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
    try {
      const receipt = await this.ministry.deliver(this.pointerOf(receta));
      const outcome = receipt.duplicate ? 'duplicate' : 'completed';
      this.latency.observe({ outcome }, elapsed());
      await this.settle(
        receta,
        {
          estado: 'COMPLETED',
          mensaje: MENSAJES.COMPLETED,
          intento: job.attempt,
          ministerioRef: receipt.ref,
        },
        outcome,
        [
          {
            evento: 'INTENTO',
            estado: 'PENDING',
            intento: job.attempt,
            resultado: 'ok',
            detalle: receipt.duplicate
              ? `already held by the ministry as ${receipt.ref}`
              : `received as ${receipt.ref}`,
          },
          {
            evento: 'ESTADO',
            estado: 'COMPLETED',
            intento: job.attempt,
            resultado: 'completed',
            detalle: `ministerio_ref ${receipt.ref}`,
          },
        ],
      );
    } catch (err) {
      if (err instanceof MinistryRejection) {
        this.latency.observe({ outcome: 'rejected' }, elapsed());
        const reason = `rejected by the ministry: ${err.code} ${err.reason}`.slice(0, 500);
        return this.settle(
          receta,
          {
            estado: 'FAILED',
            mensaje: MENSAJES.FAILED,
            intento: job.attempt,
            failureReason: reason,
          },
          'rejected',
          [
            {
              evento: 'INTENTO',
              estado: 'PENDING',
              intento: job.attempt,
              resultado: 'rejected',
              detalle: reason,
            },
            {
              evento: 'ESTADO',
              estado: 'FAILED',
              intento: job.attempt,
              resultado: 'failed',
              detalle: reason,
            },
          ],
        );
      }
      if (!(err instanceof DomainError && err.code === 'UPSTREAM_UNAVAILABLE')) throw err; // ours: let pg-boss retry the job
      this.latency.observe({ outcome: 'retry' }, elapsed());
      await this.retryOrGiveUp(receta, job.attempt, describeFailure(err));
    }
  }

  private async retryOrGiveUp(receta: RecetaRow, attempt: number, reason: string): Promise<void> {
    const exhausted =
      attempt >= this.config.ministry.maxAttempts ||
      Date.now() - receta.created_at.getTime() > MAX_AGE_MS;
    if (exhausted) {
      const why = `retries exhausted after ${attempt} attempts; last error: ${reason}`;
      return this.settle(
        receta,
        { estado: 'FAILED', mensaje: MENSAJES.FAILED, intento: attempt, failureReason: why },
        'failed',
        [
          {
            evento: 'INTENTO',
            estado: 'PENDING',
            intento: attempt,
            resultado: 'error',
            detalle: reason,
          },
          {
            evento: 'ESTADO',
            estado: 'FAILED',
            intento: attempt,
            resultado: 'failed',
            detalle: why,
          },
        ],
      );
    }
    const next = new Date(
      Date.now() + retryDelayMs(this.config.ministry.retryDelaySeconds, attempt),
    );
    await this.settle(
      receta,
      { estado: 'PENDING', mensaje: MENSAJES.PENDING, intento: attempt, proximoIntentoAt: next },
      'retry',
      [
        {
          evento: 'INTENTO',
          estado: 'PENDING',
          intento: attempt,
          resultado: 'error',
          detalle: `${reason}; next attempt at ${next.toISOString()}`,
        },
      ],
      { attempt: attempt + 1, startAfter: next },
    );
  }

  /** Writes the outcome, its history and the follow-up job atomically; a refused guard writes nothing. */
  private async settle(
    receta: RecetaRow,
    outcome: AttemptOutcome,
    metric: string,
    history: Array<{
      evento: string;
      estado: AttemptOutcome['estado'];
      intento: number | null;
      resultado: string;
      detalle: string;
    }>,
    followUp?: { attempt: number; startAfter: Date },
  ): Promise<void> {
    const id = receta.id_transaccion;
    const final = outcome.estado !== 'PENDING';
    // Asked before the transaction: inside it, the only connection may be the transaction's own.
    const notifyClient = final && (await this.events.wantsEvents(receta.client_id));
    const applied = await this.recetas.transaction(async (tx) => {
      if (!(await applyOutcome(tx, id, receta.intentos, outcome))) return false;
      for (const h of history) await this.recetas.addHistory(id, h, tx);
      if (notifyClient) await this.events.enqueueFinal(tx, receta, outcome);
      if (followUp) {
        await this.queue.sendInTransaction<NotificationJob>(
          tx,
          MINISTRY_QUEUE,
          { id_transaccion: id, attempt: followUp.attempt },
          { startAfter: followUp.startAfter },
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
    this.outcomes.inc({ outcome: metric });
    if (outcome.estado === 'FAILED') {
      // The regulation's "alert": a prescription that will never reach the ministry.
      this.log.error(
        {
          id_transaccion: id,
          alert: 'ministry_notification_failed',
          reason: outcome.failureReason,
        },
        'ministry notification failed for good',
      );
    }
  }

  private pointerOf(r: RecetaRow): MinistryPointer {
    const base = this.config.publicBaseUrl ?? `http://127.0.0.1:${this.config.http.port}`;
    return {
      cuir: r.cuir,
      documento_paciente: r.documento_paciente,
      fecha_creacion: r.fecha_creacion.toISOString(),
      ...(r.refeps_id ? { refeps_id: r.refeps_id } : {}),
      matricula_profesional: r.matricula_profesional,
      id_transaccion: r.id_transaccion,
      url_verificacion: `${base.replace(/\/$/, '')}/v1/recetas/verificar/${r.cuir}`,
    };
  }
}

function describeFailure(err: DomainError): string {
  const cause = err.cause as { upstreamCode?: string; message?: string } | undefined;
  return cause?.upstreamCode ?? cause?.message ?? err.message;
}
