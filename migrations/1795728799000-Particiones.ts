import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The openings of months in the sequences of tables partitioned by id (SPEC 10;
 * database/particiones/): each row says that from `at` on, the sequence filling `secuencia`
 * (a table and its column: `recetas.id_transaccion`) draws ids from `primer_id` up. A listing by time reads it to skip the months before (the ids of rows
 * created at or after `at` are all ≥ its `primer_id`).
 */
export class Particiones1795728799000 implements MigrationInterface {
  name = 'Particiones1795728799000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE particiones_aperturas (
        secuencia text NOT NULL,
        periodo date NOT NULL,
        primer_id bigint NOT NULL,
        at timestamptz NOT NULL,
        PRIMARY KEY (secuencia, periodo)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE particiones_aperturas');
  }
}
