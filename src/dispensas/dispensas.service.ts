import { Injectable } from '@nestjs/common';
import { UUID } from '../common/validation/patterns.js';
import { DomainError, notFound } from '../common/errors/domain-error.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { InjectSettings } from '../config/settings.js';
import { Transactions } from '../database/transactions.js';
import { RecetaEventsService } from '../recetas/recetas.public.js';
import { RecetasService } from '../recetas/recetas.service.js';
import type { Receta } from '../recetas/recetas.service.js';
import { dispensaView } from './dispensa-view.js';
import { DispensasAudit } from './dispensas-audit.js';
import { DispensasRepository } from './dispensas.repository.js';
import { dispensasSettings } from './dispensas.settings.js';
import type { DispensasSettings } from './dispensas.settings.js';
import type { DispensaDto } from './dto/dispensa.dto.js';
import type { DispensaEntity } from './entities/dispensa.entity.js';

/**
 * A dispenser's own dispensations: reading one, and reversing it (contract §7) within
 * DISPENSA_REVERSION_HORAS of when it was recorded, under the prescription's row lock. Another
 * client's dispensation answers exactly like a missing one.
 */
@Injectable()
export class DispensasService {
  constructor(
    private readonly recetas: RecetasService,
    private readonly dispensas: DispensasRepository,
    private readonly transactions: Transactions,
    private readonly events: RecetaEventsService,
    private readonly audit: DispensasAudit,
    @InjectSettings(dispensasSettings) private readonly settings: DispensasSettings,
  ) {}

  async obtener(client: AuthenticatedClient, id: string): Promise<DispensaDto> {
    const d = await this.owned(client, id);
    const r = await this.recetaOf(d);
    return this.view(d, r);
  }

  /** Reverses it; again: the same answer, nothing recorded twice. */
  async revertir(client: AuthenticatedClient, id: string, motivo: string): Promise<DispensaDto> {
    const found = UUID.test(id) ? await this.dispensas.findForClient(id, client.id) : null;
    const owner = found && (await this.recetas.findById(found.id_transaccion));
    const event = {
      tipo: 'reversion' as const,
      actor: client.id,
      cuir: owner?.cuir ?? null,
      idTransaccion: found?.id_transaccion ?? null,
    };
    try {
      return await this.transactions.run(async () => {
        if (!found) throw notFound('Dispensation');
        const r = await this.recetas.lockForUpdate({ id_transaccion: found.id_transaccion });
        const d = await this.dispensas.findForClient(found.id, client.id);
        if (!r || !d) throw notFound('Dispensation');
        if (d.revertida) return this.view(d, r);
        if (!(await this.dispensas.withinHours(d.id, this.settings.reversionHoras)))
          throw new DomainError(
            'REVERSION_VENCIDA',
            `A dispensation can be reversed within ${this.settings.reversionHoras} hours of being recorded`,
          );
        await this.dispensas.revert(d.id, motivo);
        await this.audit.ok(event);
        const reverted = await this.dispensas.findForClient(d.id, client.id);
        const view = await this.view(reverted ?? d, r);
        await this.events.emit(r, 'receta.dispensa_revertida', {
          id_dispensa: view.id_dispensa,
          estado_receta: view.estado_receta,
          motivo,
          items: view.items.map((i) => ({ item: i.item, nombre: i.nombre })),
        });
        return view;
      });
    } catch (err) {
      await this.audit.refused(err, event);
      throw err;
    }
  }

  private async owned(client: AuthenticatedClient, id: string): Promise<DispensaEntity> {
    const d = UUID.test(id) ? await this.dispensas.findForClient(id, client.id) : null;
    if (!d) throw notFound('Dispensation');
    return d;
  }

  private async recetaOf(d: DispensaEntity): Promise<Receta> {
    const r = await this.recetas.findById(d.id_transaccion);
    if (!r) throw notFound('Dispensation'); // a dispensation always has its prescription
    return r;
  }

  private async view(d: DispensaEntity, r: Receta): Promise<DispensaDto> {
    const [items, vida] = [await this.dispensas.itemsOf(d.id), await this.recetas.vida(r)];
    return dispensaView(d, items, r, vida.estado_receta);
  }
}
