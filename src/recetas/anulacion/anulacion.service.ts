import { Injectable } from '@nestjs/common';
import { ID_TRANSACCION } from '../../common/validation/patterns.js';
import { AuditoriaService } from '../../auditoria/auditoria.service.js';
import { DomainError, notFound } from '../../common/errors/domain-error.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { Transactions } from '../../database/transactions.js';
import { JobQueue } from '../../queue/job-queue.js';
import { ConsultaService } from '../consulta/consulta.service.js';
import type { RecetaDetalleDto } from '../consulta/dto/receta-responses.dto.js';
import type { RecetaEntity } from '../entities/receta.entity.js';
import { anulacionNoRequerida, nothingToTell } from '../notificacion/delivery-outcomes.js';
import { MinisterioDeliveryJob } from '../notificacion/ministerio-delivery.job.js';
import { RecetaWebhooksService } from '../notificacion/receta-webhooks.service.js';
import { RecetasRepository } from '../recetas.repository.js';
import { RecetasService } from '../recetas.service.js';

/**
 * The owner's cancellation (contract §7): VIGENTE or VENCIDA → ANULADA under the row lock, with
 * its history, the ministry's notice, the event and the webhook in one transaction. A repeated
 * cancellation answers the same detail and records nothing.
 */
@Injectable()
export class AnulacionService {
  constructor(
    private readonly recetas: RecetasRepository,
    private readonly vidas: RecetasService,
    private readonly transactions: Transactions,
    private readonly queue: JobQueue,
    private readonly webhooks: RecetaWebhooksService,
    private readonly auditoria: AuditoriaService,
    private readonly consulta: ConsultaService,
  ) {}

  async anular(client: AuthenticatedClient, id: string, motivo: string): Promise<RecetaDetalleDto> {
    const own = ID_TRANSACCION.test(id) ? await this.recetas.findForClient(client.id, id) : null;
    const event = { tipo: 'anulacion', actor: client.id, cuir: own?.cuir };
    try {
      await this.transactions.runRetryingDeadlock(async () => {
        const r = own && (await this.recetas.lockForUpdate({ id_transaccion: id }));
        if (!r || r.client_id !== client.id) throw notFound('Prescription');
        if (r.anulada_at) return; // cancelled already: the same answer, nothing recorded again
        await this.anularBajoBloqueo(r, motivo);
        await this.auditoria.record({ ...event, idTransaccion: id, resultado: 'ok' });
      });
    } catch (err) {
      await this.auditoria.recordRefusal(err, { ...event, idTransaccion: own ? id : null });
      throw err;
    }
    return this.consulta.detail(client, id);
  }

  /** The checks and writes, under the row lock. */
  private async anularBajoBloqueo(r: RecetaEntity, motivo: string): Promise<void> {
    const vida = await this.vidas.vida(r);
    if (vida.cerrado.some(Boolean))
      throw new DomainError(
        'RECETA_DISPENSADA',
        'The prescription was dispensed (in part or whole); reverse the dispensation first',
      );
    if (vida.reserva)
      throw new DomainError(
        'RECETA_RESERVADA',
        'A dispenser holds a reservation on the prescription; try again once it ends',
      );
    const id = r.id_transaccion;
    const why = nothingToTell(r);
    const at = await this.recetas.marcarAnulada(id, motivo, why ? 'NOT_REQUIRED' : 'PENDING');
    await this.recetas.addHistory(id, {
      evento: 'ANULADA',
      estado: r.estado,
      intento: null,
      resultado: 'accepted',
      detalle: why
        ? 'cancelled by the owner'
        : r.estado === 'PENDING'
          ? "cancelled by the owner; the ministry's notice waits for the pointer's delivery"
          : "cancelled by the owner; the ministry's notice queued",
    });
    if (why) {
      const [h] = anulacionNoRequerida(0, why).history;
      await this.recetas.addHistory(id, { ...h, estado: r.estado });
    } else {
      await this.queue.enqueue(MinisterioDeliveryJob, {
        id_transaccion: id,
        attempt: 1,
        kind: 'anulacion',
      });
    }
    await this.webhooks.notify(r, 'receta.anulada', {
      estado_receta: 'ANULADA',
      anulada_at: (at ?? new Date()).toISOString(),
      motivo,
    });
  }
}
