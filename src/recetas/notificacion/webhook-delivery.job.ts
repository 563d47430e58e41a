import { Inject, Injectable } from '@nestjs/common';
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { Counter } from 'prom-client';
import { ApiClientsService } from '../../auth/api-clients.service.js';
import { ROOT_LOGGER } from '../../common/logging/logging.module.js';
import { MetricsService } from '../../common/metrics/metrics.service.js';
import { InjectSettings } from '../../config/inject-settings.js';
import { JobPolicy, QueueJob, QueueJobHandler } from '../../queue/queue-job.js';
import { WebhookEvent, WebhookSender } from '../../webhooks/webhooks.public.js';
import { webhooksSettings, type WebhooksSettings } from '../../webhooks/webhooks.slice.js';
import type { Estado } from '../receta-state.js';
import { RecetasRepository } from '../recetas.repository.js';
import { WEBHOOKS_QUEUE } from './webhook-delivery.queue.js';

export interface WebhookJob {
  client_id: string;
  id_transaccion: string;
  /** The transaction's state when the event was queued (its history rows carry it). */
  estado: Estado;
  event: WebhookEvent;
}

/** Delivers one event to its owner's webhook: at least once, signed, retried; each attempt in the history. */
@Injectable()
@QueueJob()
export class WebhookDeliveryJob implements QueueJobHandler<WebhookJob> {
  readonly name = WEBHOOKS_QUEUE;
  readonly policy: JobPolicy;
  readonly concurrency = 2;
  private readonly log: Logger;
  private readonly outcomes: Counter<'outcome'>;

  constructor(
    private readonly clients: ApiClientsService,
    private readonly sender: WebhookSender,
    private readonly recetas: RecetasRepository,
    @InjectSettings(webhooksSettings) private readonly settings: WebhooksSettings,
    @Inject(ROOT_LOGGER) logger: Logger,
    metrics: MetricsService,
  ) {
    this.log = logger.child({ component: 'webhooks' });
    this.outcomes = new Counter({
      name: 'webhook_delivery_outcomes_total',
      help: 'Webhook delivery attempts by outcome (delivered; retry: failed, tried again later; failed: failed, no attempt left)',
      labelNames: ['outcome'],
      registers: [metrics.registry],
    });
    this.policy = {
      retryLimit: settings.maxAttempts - 1,
      retryDelay: settings.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: 60,
    };
  }

  /** One delivery attempt; a failure throws so the queue retries it with backoff. */
  async handle(job: PgBoss.JobWithMetadata<WebhookJob>): Promise<void> {
    const { data } = job;
    const attempt = job.retryCount + 1;
    const target = await this.clients.webhookTarget(data.client_id);
    if (!target) return; // removed since: nothing to deliver
    const result = await this.sender.deliver(target, data.event);
    const last = attempt >= this.settings.maxAttempts;
    await this.recetas.addHistory(data.id_transaccion, {
      evento: 'WEBHOOK',
      estado: data.estado,
      intento: attempt,
      resultado: result.ok ? 'ok' : 'error',
      detalle: result.ok
        ? `${data.event.type} ${data.event.id} delivered (HTTP ${result.status})`
        : `${data.event.type} ${data.event.id}: ${result.reason}${last ? '; giving up' : '; will retry'}`,
    });
    this.outcomes.inc({ outcome: result.ok ? 'delivered' : last ? 'failed' : 'retry' });
    if (!result.ok) {
      this.log.warn(
        {
          id_transaccion: data.id_transaccion,
          event_id: data.event.id,
          attempt,
          reason: result.reason,
        },
        'webhook delivery failed',
      );
      if (!last) throw new Error(`webhook delivery failed: ${result.reason}`);
    }
  }
}
