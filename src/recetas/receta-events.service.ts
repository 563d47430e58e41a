import { Inject, Injectable, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import { ApiClientsService } from '../auth/api-clients.service.js';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { JobQueue } from '../queue/job-queue.js';
import { WebhookEvent, WebhookSender } from '../webhooks/webhook-sender.js';
import type { AttemptOutcome, RecetaRow } from './recetas.repository.js';
import { RecetasRepository } from './recetas.repository.js';

export const WEBHOOK_QUEUE = 'webhooks';
const WANTS_EVENTS_TTL_MS = 5_000;

interface WebhookJob {
  client_id: string;
  id_transaccion: string;
  event: WebhookEvent;
}

/**
 * Tells a client when one of its transactions ends: a `receta.completed` / `receta.failed`
 * event, queued in the same transaction as the final state, delivered at least once with
 * retries and backoff (pg-boss), signed; every attempt lands in the transaction's history.
 */
@Injectable()
export class RecetaEventsService implements OnModuleInit, OnApplicationBootstrap {
  private readonly wants = new Map<string, { value: boolean; until: number }>();
  private readonly log: Logger;

  constructor(
    private readonly queue: JobQueue,
    private readonly clients: ApiClientsService,
    private readonly sender: WebhookSender,
    private readonly recetas: RecetasRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.log = logger.child({ component: 'webhooks' });
  }

  async onModuleInit(): Promise<void> {
    await this.queue.ensureQueue(WEBHOOK_QUEUE, {
      retryLimit: this.config.webhooks.maxAttempts - 1,
      retryDelay: this.config.webhooks.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: 60,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.work<WebhookJob>(
      WEBHOOK_QUEUE,
      2,
      this.config.queue.pollIntervalSeconds,
      (job) => this.deliver(job.data, job.retryCount + 1),
    );
  }

  /** Whether the client has a webhook (asked before the transaction, cached a few seconds). */
  async wantsEvents(clientId: string): Promise<boolean> {
    const hit = this.wants.get(clientId);
    if (hit && hit.until > Date.now()) return hit.value;
    const value = (await this.clients.webhookTarget(clientId)) !== null;
    this.wants.set(clientId, { value, until: Date.now() + WANTS_EVENTS_TTL_MS });
    return value;
  }

  /** Queues the final-state event inside the transaction that records that state. */
  async enqueueFinal(tx: EntityManager, receta: RecetaRow, outcome: AttemptOutcome): Promise<void> {
    const event: WebhookEvent = {
      id: randomUUID(),
      type: outcome.estado === 'COMPLETED' ? 'receta.completed' : 'receta.failed',
      created_at: new Date().toISOString(),
      data: {
        id_transaccion: receta.id_transaccion,
        cuir: receta.cuir,
        id_de_receta: receta.id_de_receta,
        estado: outcome.estado,
        ministerio_ref: outcome.ministerioRef ?? null,
        failure_reason: outcome.failureReason ?? null,
      },
    };
    await this.queue.sendInTransaction<WebhookJob>(tx, WEBHOOK_QUEUE, {
      client_id: receta.client_id,
      id_transaccion: receta.id_transaccion,
      event,
    });
  }

  /** One delivery attempt; a failure throws so pg-boss retries it with backoff. */
  private async deliver(job: WebhookJob, attempt: number): Promise<void> {
    const target = await this.clients.webhookTarget(job.client_id);
    if (!target) return; // removed since: nothing to deliver
    const result = await this.sender.deliver(target, job.event);
    const last = attempt >= this.config.webhooks.maxAttempts;
    await this.recetas.addHistory(job.id_transaccion, {
      evento: 'WEBHOOK',
      estado: job.event.data.estado as AttemptOutcome['estado'],
      intento: attempt,
      resultado: result.ok ? 'ok' : 'error',
      detalle: result.ok
        ? `${job.event.type} ${job.event.id} delivered (HTTP ${result.status})`
        : `${job.event.type} ${job.event.id}: ${result.reason}${last ? '; giving up' : '; will retry'}`,
    });
    if (!result.ok) {
      this.log.warn(
        {
          id_transaccion: job.id_transaccion,
          event_id: job.event.id,
          attempt,
          reason: result.reason,
        },
        'webhook delivery failed',
      );
      if (!last) throw new Error(`webhook delivery failed: ${result.reason}`);
    }
  }
}
