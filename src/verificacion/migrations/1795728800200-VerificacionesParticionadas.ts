import { MigrationInterface, QueryRunner } from 'typeorm';
import { particionarTabla, retirarPrevia } from '../../database/particiones/particionar.js';
import {
  periodoDe,
  primerInstante,
  siguiente,
  sufijo,
} from '../../database/particiones/periodos.js';

/**
 * The verifications by CUIR partitioned by month of `at` (SPEC 10): they are read by time
 * (an owner's newest first) and a month past retention drops whole. A miss has no
 * prescription to follow, so this table is cut by its own time, not by prescription id.
 * Every row is kept (copied into the first partition, `_p0`).
 */
export class VerificacionesParticionadas1795728800200 implements MigrationInterface {
  name = 'VerificacionesParticionadas1795728800200';

  async up(q: QueryRunner): Promise<void> {
    const month = periodoDe(new Date());
    await particionarTabla(q, {
      table: 'verificaciones_cuir',
      by: 'RANGE (at)',
      primaryKey: ['id', 'at'],
      firstBound: `'${primerInstante(month)}'`,
      // This month's verifications are in the table already: their month comes first.
      month: {
        suffix: `p${sufijo(month)}`,
        from: `'${primerInstante(month)}'`,
        to: `'${primerInstante(siguiente(month))}'`,
      },
    });
    await retirarPrevia(q, 'verificaciones_cuir');
    await q.query(`ALTER TABLE verificaciones_cuir
      ADD CONSTRAINT verificaciones_cuir_verifier_client_id_fkey
        FOREIGN KEY (verifier_client_id) REFERENCES api_clients (id),
      ADD CONSTRAINT verificaciones_cuir_owner_client_id_fkey
        FOREIGN KEY (owner_client_id) REFERENCES api_clients (id)`);
  }

  down(): Promise<void> {
    return Promise.reject(
      new Error('VerificacionesParticionadas1795728800200 cannot be reverted: restore a backup'),
    );
  }
}
