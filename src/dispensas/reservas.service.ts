import { Injectable } from '@nestjs/common';
import { AuditoriaService } from '../auditoria/auditoria.service.js';
import { UUID } from '../common/validation/patterns.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { InjectSettings } from '../config/inject-settings.js';
import { Transactions } from '../database/transactions.js';
import { RecetasService } from '../recetas/recetas.service.js';
import { EnumeracionLimiter } from '../verificacion/verificacion.public.js';
import { argentinaDate } from '../recetas/recetas.public.js';
import { dispensasSettings, type DispensasSettings } from './dispensas.settings.js';
import type { ReservaDto } from './dto/reservar.dto.js';
import { recetaEnJuego, reservaProblem, turnoProblem } from './reglas-dispensa.js';
import { ReservasRepository } from './reservas.repository.js';

/**
 * Reservations (contract §7): a dispenser holds a prescription while it checks stock. Made,
 * extended and released under the prescription's row lock; one lapses by its time alone. Asking
 * again extends it up to its creation + DISPENSA_RESERVA_MAX_MINUTOS; then the turn rule
 * (reglas-dispensa.ts) lets others have theirs. Written to the event log, refusals too.
 */
@Injectable()
export class ReservasService {
  constructor(
    private readonly recetas: RecetasService,
    private readonly reservas: ReservasRepository,
    private readonly transactions: Transactions,
    private readonly auditoria: AuditoriaService,
    private readonly enumeracion: EnumeracionLimiter,
    @InjectSettings(dispensasSettings) private readonly settings: DispensasSettings,
  ) {}

  /** A new reservation (`creada`), or the caller's live one extended (up to its cap). */
  async reservar(
    client: AuthenticatedClient,
    cuir: string,
  ): Promise<{ creada: boolean; reserva: ReservaDto }> {
    const event = { tipo: 'reserva', actor: client.id, cuir };
    let idTransaccion: string | null = null;
    try {
      return await this.transactions.runRetryingDeadlock(async () => {
        const r = await this.recetas.lockForUpdate({ cuir });
        if (!r) throw await this.enumeracion.notFound(client.id, 'Prescription');
        idTransaccion = r.id_transaccion;
        const vida = await this.recetas.vida(r);
        const problem = reservaProblem(
          recetaEnJuego(r, vida),
          client.id,
          argentinaDate(new Date()),
        );
        if (problem) throw problem;
        const { reservaMinutos: minutes, reservaMaxMinutos: max } = this.settings;
        const own = vida.reserva?.client_id === client.id ? vida.reserva : null;
        // Null if it lapsed since `vida` read it: then it ended just now, and the turn rule says so.
        const extended = own && (await this.reservas.extend(own.id, minutes, max));
        if (!extended) {
          const turno = turnoProblem(
            {
              ...(await this.reservas.lastEnded(r.id_transaccion, client.id)),
              reversiones_at: vida.dispensas.flatMap((d) =>
                d.client_id === client.id && d.revertida_at ? [d.revertida_at] : [],
              ),
            },
            minutes,
          );
          if (turno) throw turno;
        }
        const reserva =
          extended ?? (await this.reservas.create(r.id_transaccion, client.id, minutes));
        await this.auditoria.record({ ...event, idTransaccion, resultado: 'ok' });
        return {
          creada: !extended,
          reserva: {
            reserva_id: reserva.id,
            cuir: r.cuir,
            vence_at: reserva.vence_at.toISOString(),
          },
        };
      });
    } catch (err) {
      await this.auditoria.recordRefusal(err, { ...event, idTransaccion });
      throw err;
    }
  }

  /** Releases the caller's reservation (again, or once lapsed: nothing to do, still 204). */
  async liberar(client: AuthenticatedClient, id: string): Promise<void> {
    const found = UUID.test(id) ? await this.reservas.findForClient(id, client.id) : null;
    const receta = found && (await this.recetas.findById(found.id_transaccion));
    const event = {
      tipo: 'reserva_liberada',
      actor: client.id,
      cuir: receta?.cuir ?? null,
      idTransaccion: found?.id_transaccion ?? null,
    };
    try {
      if (!found) throw await this.enumeracion.notFound(client.id, 'Reservation');
      await this.transactions.runRetryingDeadlock(async () => {
        await this.recetas.lockForUpdate({ id_transaccion: found.id_transaccion });
        await this.reservas.release(found.id);
        await this.auditoria.record({ ...event, resultado: 'ok' });
      });
    } catch (err) {
      await this.auditoria.recordRefusal(err, event);
      throw err;
    }
  }
}
