import { Injectable } from '@nestjs/common';
import { IsNull, Raw } from 'typeorm';
import { Transactions } from '../database/transactions.js';
import { ReservaEntity } from './entities/reserva.entity.js';

const NOW = 'statement_timestamp()';

/** Neither released nor consumed, and not lapsed: the reservation holds. */
const HOLDS = {
  liberada_at: IsNull(),
  consumida_at: IsNull(),
  vence_at: Raw((at) => `${at} > ${NOW}`),
};

/**
 * Reservations. Times come from the database's clock (statement_timestamp(), not BEGIN's after a
 * lock wait), so liveness is one comparison, with no job. One live per prescription (made under
 * its row lock); ended ones are kept for the turn rule.
 */
@Injectable()
export class ReservasRepository {
  constructor(private readonly transactions: Transactions) {}

  private get reservas() {
    return this.transactions.repository(ReservaEntity);
  }

  /** `created_at` is vence_at's clock, so the cap (created_at + max) is exact. */
  async create(idTransaccion: string, clientId: string, minutes: number): Promise<ReservaEntity> {
    const result = await this.reservas
      .createQueryBuilder()
      .insert()
      .values({
        id_transaccion: idTransaccion,
        client_id: clientId,
        created_at: () => NOW,
        vence_at: () => `${NOW} + :minutes * interval '1 minute'`,
      })
      .setParameter('minutes', minutes)
      .returning('*')
      .execute();
    return (result.raw as ReservaEntity[])[0];
  }

  /** Extends a live one `minutes` from now, never past creation + `maxMinutes`; null if it lapsed. */
  async extend(id: string, minutes: number, maxMinutes: number): Promise<ReservaEntity | null> {
    const result = await this.reservas
      .createQueryBuilder()
      .update()
      .set({
        vence_at: () =>
          `LEAST(${NOW} + :minutes * interval '1 minute', created_at + :max * interval '1 minute')`,
      })
      .where({ id, ...HOLDS })
      .setParameters({ minutes, max: maxMinutes })
      .returning('*')
      .execute();
    return (result.raw as ReservaEntity[])[0] ?? null;
  }

  /**
   * The database's time, and when the client's latest reservation of the prescription that ended
   * without a dispensation was released or lapsed (null: none). One row (an aggregate).
   */
  async lastEnded(
    idTransaccion: string,
    clientId: string,
  ): Promise<{ ahora: Date; reserva_terminada_at: Date | null }> {
    const terminada = 'coalesce(r.liberada_at, r.vence_at)';
    const row = await this.reservas
      .createQueryBuilder('r')
      .select(`max(${terminada})`, 'reserva_terminada_at')
      .addSelect(NOW, 'ahora')
      .where({ id_transaccion: idTransaccion, client_id: clientId, consumida_at: IsNull() })
      .andWhere(`${terminada} <= ${NOW}`)
      .getRawOne<{ ahora: Date; reserva_terminada_at: Date | null }>();
    return row!;
  }

  findForClient(id: string, clientId: string): Promise<ReservaEntity | null> {
    return this.reservas.findOneBy({ id, client_id: clientId });
  }

  /** Ends it if it still holds (else changes nothing). */
  async release(id: string): Promise<void> {
    await this.reservas
      .createQueryBuilder()
      .update()
      .set({ liberada_at: () => NOW })
      .where({ id, ...HOLDS })
      .execute();
  }
}
