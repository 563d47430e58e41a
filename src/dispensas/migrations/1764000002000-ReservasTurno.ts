import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The turn rule (contract §7): reserving looks up the caller's last reservation of the
 * prescription that ended without a dispensation (released or lapsed). Ended reservations are
 * kept, so without this index that lookup would scan every reservation ever made; the existing
 * index covers only the unreleased ones.
 */
export class ReservasTurno1764000002000 implements MigrationInterface {
  name = 'ReservasTurno1764000002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX dispensa_reservas_turno ON dispensa_reservas (id_transaccion, client_id)
         WHERE consumida_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX dispensa_reservas_turno');
  }
}
