import { Injectable } from '@nestjs/common';
import { IsNull, Raw } from 'typeorm';
import { Transactions } from '../database/transactions.js';
import { ReservaEntity } from './entities/reserva.entity.js';

/** The database's clock for this statement (see the class). */
const NOW = 'statement_timestamp()';

/** Neither released nor consumed, and not lapsed: the reservation holds. */
const HOLDS = {
  liberada_at: IsNull(),
  consumida_at: IsNull(),
  vence_at: Raw((at) => `${at} > ${NOW}`),
};

/**
 * Reservations. Times come from the database clock (statement_timestamp(): inside a transaction
 * that waited on a lock, it is the time of the statement, not of BEGIN), so liveness is one
 * comparison with no job to lapse anything. At most one is live per prescription: they are made
 * under the prescription's row lock. Ended ones are kept: the turn rule reads them.
 */
@Injectable()
export class ReservasRepository {
  constructor(private readonly transactions: Transactions) {}

  private get reservas() {
    return this.transactions.repository(ReservaEntity);
  }

  /**
   * `created_at` is the same clock as `vence_at`, so the cap (created_at + maxMinutes) is exact
   * even when the transaction waited on the row lock.
   */
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

  /**
   * A live reservation asked for again by its holder: it lasts `minutes` from now, but never past
   * its creation + `maxMinutes`. Null when it lapsed since it was read (it is not revived).
   */
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
   * The database's time, and when the client's latest reservation of the prescription that
   * ended without a dispensation ended: released (liberada_at, always before its vence_at) or
   * lapsed (vence_at passed); null when none did. One row whatever is found (an aggregate).
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

  /** Ends it if it still holds (releasing twice, or a lapsed or consumed one, changes nothing). */
  async release(id: string): Promise<void> {
    await this.reservas
      .createQueryBuilder()
      .update()
      .set({ liberada_at: () => NOW })
      .where({ id, ...HOLDS })
      .execute();
  }
}
