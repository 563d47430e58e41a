import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ApiClientsService } from '../../auth/api-clients.service.js';
import { JobQueue } from '../../queue/job-queue.js';
import type { Receta } from '../receta.js';
import type { AttemptOutcome } from '../recetas.repository.js';
import { WebhookDeliveryJob } from './webhook-delivery.job.js';
import type { RecetaWebhookType } from './webhook-types.js';

const HAS_WEBHOOK_TTL_MS = 5_000;

export { RECETA_WEBHOOK_TYPES, type RecetaWebhookType } from './webhook-types.js';

/** Tells a client what happened to its prescription: a webhook queued in the change's transaction. */
@Injectable()
export class RecetaWebhooksService {
  private readonly wants = new Map<string, { value: boolean; until: number }>();

  constructor(
    private readonly queue: JobQueue,
    private readonly clients: ApiClientsService,
  ) {}

  /** Whether the client has a webhook (cached a few seconds: asked on every change). */
  private async hasWebhook(clientId: string): Promise<boolean> {
    const hit = this.wants.get(clientId);
    if (hit && hit.until > Date.now()) return hit.value;
    const value = (await this.clients.webhookTarget(clientId)) !== null;
    this.wants.set(clientId, { value, until: Date.now() + HAS_WEBHOOK_TTL_MS });
    return value;
  }

  /** Queues a webhook about `receta` for its owner, when the owner has a webhook. */
  async notify(
    receta: Receta,
    type: RecetaWebhookType,
    data: Record<string, unknown>,
  ): Promise<void> {
    if (!(await this.hasWebhook(receta.client_id))) return;
    await this.queue.enqueue(WebhookDeliveryJob, {
      client_id: receta.client_id,
      id_transaccion: receta.id_transaccion,
      estado: receta.estado,
      event: {
        id: randomUUID(),
        type,
        created_at: new Date().toISOString(),
        data: {
          id_transaccion: receta.id_transaccion,
          cuir: receta.cuir,
          id_de_receta: receta.id_de_receta,
          ...data,
        },
      },
    });
  }

  /** The transaction's final-state webhook. */
  enqueueFinal(receta: Receta, outcome: AttemptOutcome): Promise<void> {
    return this.notify(
      { ...receta, estado: outcome.estado },
      outcome.estado === 'COMPLETED' ? 'receta.completed' : 'receta.failed',
      {
        estado: outcome.estado,
        ministerio_ref: outcome.ministerioRef ?? null,
        failure_reason: outcome.failureReason ?? null,
      },
    );
  }
}
