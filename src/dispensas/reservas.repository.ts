import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';
import { ReservaEntity } from './entities/reserva.entity.js';
import type { ReservaTerminada } from './reglas-dispensa.js';

const RESERVA_COLUMNS =
  'id, id_transaccion::text, client_id, created_at, vence_at, liberada_at, consumida_at';

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
    const rows: ReservaEntity[] = await this.transactions.manager.query(
      `INSERT INTO dispensa_reservas (id_transaccion, client_id, created_at, vence_at)
       VALUES ($1, $2, statement_timestamp(), statement_timestamp() + $3 * interval '1 minute')
       RETURNING ${RESERVA_COLUMNS}`,
      [idTransaccion, clientId, minutes],
    );
    return rows[0];
  }

  /**
   * A live reservation asked for again by its holder: it lasts `minutes` from now, but never past
   * its creation + `maxMinutes`. Null when it lapsed since it was read (it is not revived).
   */
  async extend(id: string, minutes: number, maxMinutes: number): Promise<ReservaEntity | null> {
    const rows: [ReservaEntity[], number] = await this.transactions.manager.query(
      `UPDATE dispensa_reservas
          SET vence_at = LEAST(statement_timestamp() + $2 * interval '1 minute',
                               created_at + $3 * interval '1 minute')
        WHERE id = $1 AND liberada_at IS NULL AND consumida_at IS NULL
          AND vence_at > statement_timestamp()
       RETURNING ${RESERVA_COLUMNS}`,
      [id, minutes, maxMinutes],
    );
    return rows[0][0] ?? null;
  }

  /**
   * The client's latest reservation of the prescription that ended without a dispensation:
   * released (liberada_at, always before its vence_at) or lapsed (vence_at passed).
   */
  async lastEnded(idTransaccion: string, clientId: string): Promise<ReservaTerminada | null> {
    const rows: ReservaTerminada[] = await this.transactions.manager.query(
      `SELECT coalesce(liberada_at, vence_at) AS terminada_at, statement_timestamp() AS ahora
         FROM dispensa_reservas
        WHERE id_transaccion = $1 AND client_id = $2 AND consumida_at IS NULL
          AND coalesce(liberada_at, vence_at) <= statement_timestamp()
        ORDER BY 1 DESC LIMIT 1`,
      [idTransaccion, clientId],
    );
    return rows[0] ?? null;
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
