import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AuditoriaService } from '../auditoria/auditoria.service.js';
import { isUniqueViolation } from '../common/database-errors.js';
import { DomainError, notFound, validationFailed } from '../common/errors/domain-error.js';
import type { ErrorDetail } from '../common/errors/error-codes.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { UUID } from '../common/validation/patterns.js';
import { InjectSettings } from '../config/inject-settings.js';
import { Transactions } from '../database/transactions.js';
import { MedicamentosService } from '../medicamentos/medicamentos.service.js';
import { RecetaWebhooksService, argentinaDate, vidaDe } from '../recetas/recetas.public.js';
import { RecetasService, type Receta } from '../recetas/recetas.service.js';
import { EnumeracionLimiter } from '../verificacion/verificacion.public.js';
import { dispensaView } from './dispensa-view.js';
import { DispensasRepository, ITEM_UNA_VEZ_INDEX } from './dispensas.repository.js';
import { dispensasSettings, type DispensasSettings } from './dispensas.settings.js';
import type { DispensaDto } from './dto/dispensa.dto.js';
import type { DispensarDto } from './dto/dispensar.dto.js';
import type { DispensaEntity } from './entities/dispensa.entity.js';
import { dispensaProblem, itemYaDispensado, recetaEnJuego } from './reglas-dispensa.js';
import { ReservasRepository } from './reservas.repository.js';

/**
 * Dispensations (contract §7), a dispenser's own. Recording one: under the prescription's row
 * lock every rule is checked against the whole request (one bad item: nothing is written), then
 * one statement writes it, its items, the caller's reservation consumed and its event; the
 * unique index keeps an item from being dispensed twice whatever reaches it. Reversing one:
 * within DISPENSA_REVERSION_HORAS, under the same lock. Another client's answers as a missing one.
 * Every action is written to the event log (contract §8), refusals too.
 */
@Injectable()
export class DispensasService {
  constructor(
    private readonly recetas: RecetasService,
    private readonly dispensas: DispensasRepository,
    private readonly reservas: ReservasRepository,
    private readonly transactions: Transactions,
    private readonly webhooks: RecetaWebhooksService,
    private readonly auditoria: AuditoriaService,
    private readonly medicamentos: MedicamentosService,
    private readonly enumeracion: EnumeracionLimiter,
    @InjectSettings(dispensasSettings) private readonly settings: DispensasSettings,
  ) {}

  async dispensar(client: AuthenticatedClient, dto: DispensarDto): Promise<DispensaDto> {
    const event = { tipo: 'dispensa', actor: client.id, cuir: dto.cuir };
    // Known once the prescription is found: a refusal's event names it.
    let idTransaccion: string | null = null;
    try {
      // Read before the row lock is taken (a cache hit mostly): nothing waits on it holding one.
      const codigosDesconocidos = await this.medicamentos.codigosDesconocidos(
        dto.items.flatMap((i) => (i.codigo ? [i.codigo] : [])),
      );
      return await this.transactions.runRetryingDeadlock(async () => {
        const r = await this.recetas.lockForUpdate({ cuir: dto.cuir });
        // A miss counts where verification's do (SPEC 11.5); every 400 below comes after it.
        if (!r) throw await this.enumeracion.notFound(client.id, 'Prescription');
        idTransaccion = r.id_transaccion;
        if (dto.reserva_id) {
          const reserva = await this.reservas.findForClient(dto.reserva_id, client.id);
          if (reserva?.id_transaccion !== r.id_transaccion)
            throw validationFailed([
              { field: 'reserva_id', issue: 'is not a reservation of yours on this prescription' },
            ]);
        }
        const now = new Date();
        const fechaDispensa = new Date(dto.fecha_dispensa);
        const before = await this.recetas.vida(r, now);
        const problem = dispensaProblem(
          recetaEnJuego(r, before),
          {
            clientId: client.id,
            fechaDispensa,
            ahora: now,
            fechaDispensaAr: argentinaDate(fechaDispensa),
            hoy: argentinaDate(now),
            codigosDesconocidos,
          },
          dto.items,
        );
        if (problem) throw problem;

        const { cuit, nombre } = dto.farmacia;
        const items = dto.items.map((i) => ({
          item: i.item,
          cantidad: i.cantidad,
          codigo: i.codigo ?? null,
          sustituido: i.sustituido ?? false,
        }));
        const dispensa = await this.dispensas
          .insert(
            {
              id: randomUUID(),
              id_transaccion: r.id_transaccion,
              client_id: client.id,
              farmacia_cuit: cuit,
              farmacia_nombre: nombre,
              fecha_dispensa: fechaDispensa,
              reserva_id: dto.reserva_id ?? null,
              items,
            },
            [this.auditoria.eventInStatement({ ...event, resultado: 'ok' })],
          )
          .catch((err: unknown) => {
            // The database's single-dispensation index refusing one is the same 409.
            if (!isUniqueViolation(err, ITEM_UNA_VEZ_INDEX)) throw err;
            throw itemYaDispensado(takenItems(err, dto));
          });
        // Under the lock nothing else changed: the state after is the one before with this
        // dispensation added and the caller's reservation (if any) consumed — no re-read.
        const after = vidaDe(
          r,
          [
            ...before.dispensas,
            {
              id: dispensa.id,
              client_id: client.id,
              fecha_dispensa: fechaDispensa,
              farmacia: { cuit, nombre },
              items,
              revertida: false,
              revertida_at: null,
            },
          ],
          before.reserva?.client_id === client.id ? null : before.reserva,
          argentinaDate(now),
        );
        const view = dispensaView(dispensa, items, r, after.estado_receta);
        await this.webhooks.notify(r, 'receta.dispensada', {
          id_dispensa: view.id_dispensa,
          estado_receta: view.estado_receta,
          fecha_dispensa: view.fecha_dispensa,
          farmacia: view.farmacia,
          items: view.items,
          sustituciones: view.items.filter((i) => i.sustituido).map((i) => i.item),
        });
        return view;
      });
    } catch (err) {
      await this.auditoria.recordRefusal(err, { ...event, idTransaccion });
      throw err;
    }
  }

  async obtener(client: AuthenticatedClient, id: string): Promise<DispensaDto> {
    const d = UUID.test(id) ? await this.dispensas.findForClient(id, client.id) : null;
    const r = d && (await this.recetas.findById(d.id_transaccion));
    if (!d || !r) throw notFound('Dispensation'); // a dispensation always has its prescription
    return this.view(d, r);
  }

  /** Reverses it; again: the same answer, nothing recorded twice. */
  async revertir(client: AuthenticatedClient, id: string, motivo: string): Promise<DispensaDto> {
    const found = UUID.test(id) ? await this.dispensas.findForClient(id, client.id) : null;
    const owner = found && (await this.recetas.findById(found.id_transaccion));
    const event = {
      tipo: 'reversion',
      actor: client.id,
      cuir: owner?.cuir ?? null,
      idTransaccion: found?.id_transaccion ?? null,
    };
    try {
      if (!found) throw await this.enumeracion.notFound(client.id, 'Dispensation');
      return await this.transactions.runRetryingDeadlock(async () => {
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
        await this.auditoria.record({ ...event, resultado: 'ok' });
        const reverted = await this.dispensas.findForClient(d.id, client.id);
        const view = await this.view(reverted ?? d, r);
        await this.webhooks.notify(r, 'receta.dispensa_revertida', {
          id_dispensa: view.id_dispensa,
          estado_receta: view.estado_receta,
          motivo,
          items: view.items.map((i) => ({ item: i.item, nombre: i.nombre })),
        });
        return view;
      });
    } catch (err) {
      await this.auditoria.recordRefusal(err, event);
      throw err;
    }
  }

  private async view(d: DispensaEntity, r: Receta): Promise<DispensaDto> {
    const [items, vida] = [await this.dispensas.itemsOf(d.id), await this.recetas.vida(r)];
    return dispensaView(d, items, r, vida.estado_receta);
  }
}

/** The items the violation names (`Key (id_transaccion, item)=(7, 2)`), else every item sent. */
function takenItems(err: unknown, dto: DispensarDto): ErrorDetail[] {
  const e = err as { detail?: string; driverError?: { detail?: string } };
  const m = /=\(\d+, (\d+)\)/.exec(e.detail ?? e.driverError?.detail ?? '');
  const named = m ? dto.items.findIndex((i) => i.item === Number(m[1])) : -1;
  const which = named >= 0 ? [named] : dto.items.map((_, n) => n);
  return which.map((n) => ({
    field: `items[${n}].item`,
    issue: `item ${dto.items[n].item} was dispensed already`,
  }));
}
