import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The health authority's copy of restricted prescriptions (SPEC 9.3):
 * - `api_clients.jurisdicciones`: the INDEC jurisdictions an authority client reads (empty for
 *   every other client);
 * - a partial index over the restricted prescriptions only (CUIR type 01, subtype 03 or 04), by
 *   jurisdiction and registration time: the authority's listing walks it, and registering a
 *   plain prescription never touches it. Its predicate is repeated word for word by the
 *   listing's query (recetas/consulta/restringidas.ts), or the planner cannot use it.
 */
export class Fiscalizacion1795728500000 implements MigrationInterface {
  name = 'Fiscalizacion1795728500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE api_clients ADD COLUMN jurisdicciones text[] NOT NULL DEFAULT '{}'
         CHECK (array_to_string(jurisdicciones, ',') ~ '^([0-9]{2}(,[0-9]{2})*)?$')`,
    );
    await q.query(
      `CREATE INDEX recetas_restringidas ON recetas
         (substr(cuir, 9, 2), fecha_creacion, id_transaccion)
         WHERE substr(cuir, 11, 2) = '01' AND substr(cuir, 13, 2) IN ('03', '04')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX recetas_restringidas`);
    await q.query(`ALTER TABLE api_clients DROP COLUMN jurisdicciones`);
  }
}
