import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ministry backlog for the operators' metrics (its size and the oldest PENDING's age, read
 * at every scrape): a partial index holds only the transactions still PENDING, a small set
 * however large the table grows.
 */
export class RecetasPendingIndex1764100000000 implements MigrationInterface {
  name = 'RecetasPendingIndex1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX recetas_pending ON recetas (created_at) WHERE estado = 'PENDING'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX recetas_pending`);
  }
}
