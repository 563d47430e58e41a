import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';
import { ReservaEntity } from './entities/reserva.entity.js';

/**
 * Reservations. Times come from the database clock (statement_timestamp(): inside a transaction
 * that waited on a lock, it is the time of the statement, not of BEGIN), so liveness is one
 * comparison with no job to lapse anything. At most one is live per prescription: they are made
 * under the prescription's row lock.
 */
@Injectable()
export class ReservasRepository {
  constructor(private readonly transactions: Transactions) {}

  private get reservas() {
    return this.transactions.repository(ReservaEntity);
  }

  async create(idTransaccion: string, clientId: string, minutes: number): Promise<ReservaEntity> {
    const rows: ReservaEntity[] = await this.transactions.manager.query(
      `INSERT INTO dispensa_reservas (id_transaccion, client_id, vence_at)
       VALUES ($1, $2, statement_timestamp() + $3 * interval '1 minute')
       RETURNING id, id_transaccion::text, client_id, created_at, vence_at, liberada_at, consumida_at`,
      [idTransaccion, clientId, minutes],
    );
    return rows[0];
  }

  /** A live reservation asked for again by its holder: it lasts from now. */
  async extend(id: string, minutes: number): Promise<ReservaEntity> {
    const rows: [ReservaEntity[], number] = await this.transactions.manager.query(
      `UPDATE dispensa_reservas SET vence_at = statement_timestamp() + $2 * interval '1 minute'
        WHERE id = $1
       RETURNING id, id_transaccion::text, client_id, created_at, vence_at, liberada_at, consumida_at`,
      [id, minutes],
    );
    return rows[0][0];
  }

  findForClient(id: string, clientId: string): Promise<ReservaEntity | null> {
    return this.reservas.findOneBy({ id, client_id: clientId });
  }

  /** Ends it if it still holds (releasing twice, or a lapsed or consumed one, changes nothing). */
  async release(id: string): Promise<void> {
    await this.transactions.manager.query(
      `UPDATE dispensa_reservas SET liberada_at = statement_timestamp()
        WHERE id = $1 AND liberada_at IS NULL AND consumida_at IS NULL
          AND vence_at > statement_timestamp()`,
      [id],
    );
  }
}
