import { MigrationInterface, QueryRunner } from 'typeorm';
import { particionarTabla, retirarPrevia } from '../../database/particiones/particionar.js';
import { periodoDe, primerId } from '../../database/particiones/periodos.js';

/**
 * The event log partitioned by month, by event id (SPEC 10; database/particiones/periodos.ts):
 * a seal's events are read by id, so a verify walks partitions in order, and `auditoria
 * purgar` drops the months whose every event a purge may take instead of deleting row by row
 * (the seals stay: the chain still verifies).
 *
 * Every row is kept, byte for byte: copied into the first partition (`_p0`) before the
 * triggers exist, so none is re-stamped or re-hashed. The triggers are then created on the
 * partitioned table (each partition gets them). The function that documents an event's text
 * takes the table's row type, so it is re-created for the new table, unchanged; the insert
 * trigger's errors keep naming `auditoria_eventos`, not the partition the row went to.
 */
export class AuditoriaParticionada1795728800100 implements MigrationInterface {
  name = 'AuditoriaParticionada1795728800100';

  async up(q: QueryRunner): Promise<void> {
    const [{ def }] = (await q.query(
      `SELECT pg_get_functiondef('auditoria_texto_evento(auditoria_eventos)'::regprocedure) AS def`,
    )) as Array<{ def: string }>;
    await q.query('DROP FUNCTION auditoria_texto_evento(auditoria_eventos)');
    await particionarTabla(q, {
      table: 'auditoria_eventos',
      by: 'RANGE (id)',
      primaryKey: ['id'],
      firstBound: primerId(periodoDe(new Date())).toString(),
    });
    await retirarPrevia(q, 'auditoria_eventos');
    await q.query(def);
    // The insert trigger names the table in the errors it raises as a CHECK would: on a
    // partitioned table TG_TABLE_NAME is the partition's; the errors keep naming the table.
    const [{ hash }] = (await q.query(
      `SELECT pg_get_functiondef('auditoria_evento_hash()'::regprocedure) AS hash`,
    )) as Array<{ hash: string }>;
    await q.query(hash.replaceAll('TG_TABLE_NAME', `'auditoria_eventos'`));
    await q.query(`
      CREATE TRIGGER auditoria_eventos_hash BEFORE INSERT ON auditoria_eventos
        FOR EACH ROW EXECUTE FUNCTION auditoria_evento_hash()`);
    await q.query(`
      CREATE TRIGGER auditoria_eventos_borrar BEFORE DELETE ON auditoria_eventos
        FOR EACH ROW EXECUTE FUNCTION auditoria_evento_borrar()`);
    await q.query(`
      CREATE TRIGGER auditoria_eventos_inmutable BEFORE UPDATE ON auditoria_eventos
        FOR EACH ROW EXECUTE FUNCTION auditoria_rechazar()`);
    await q.query(`
      CREATE TRIGGER auditoria_eventos_truncate BEFORE TRUNCATE ON auditoria_eventos
        FOR EACH STATEMENT EXECUTE FUNCTION auditoria_rechazar()`);
  }

  down(): Promise<void> {
    return Promise.reject(
      new Error('AuditoriaParticionada1795728800100 cannot be reverted: restore a backup'),
    );
  }
}
