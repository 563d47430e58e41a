import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `receta_historial_transaccion` (id_transaccion, id) repeats the primary key since the history
 * was partitioned (RecetasParticionadas made the key (id_transaccion, id)): every registration
 * and delivery attempt wrote each entry into two identical indexes, about a third of the
 * history's bytes (BENCHMARKS.md, the scale run). Reads by prescription use the key.
 */
export class HistorialSinIndiceRepetido1795728800300 implements MigrationInterface {
  name = 'HistorialSinIndiceRepetido1795728800300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS receta_historial_transaccion`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX receta_historial_transaccion ON receta_historial (id_transaccion, id)`,
    );
  }
}
