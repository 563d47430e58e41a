import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CUIR ownership (contract §3): each API client may carry the prescribing-platform id the
 * ministry assigned it, and each CUIR belongs to the first client it was issued to.
 *
 * `cuir_platform_id` NULL means "use CUIR_PLATFORM_ID": existing clients keep issuing exactly
 * the CUIRs they issued before, and follow the setting if an operator changes it.
 *
 * `cuir_owners` holds one row per issued CUIR (the ledger may hold several issuances of one):
 * its primary key is what makes "a CUIR already issued to another client is refused" safe
 * under concurrent generation, which a check against the ledger alone is not.
 */
export class CuirOwnership1763800006100 implements MigrationInterface {
  name = 'CuirOwnership1763800006100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE api_clients ADD COLUMN cuir_platform_id char(4)
         CHECK (cuir_platform_id ~ '^[0-9]{4}$')`,
    );
    await q.query(`
      CREATE TABLE cuir_owners (
        cuir char(41) PRIMARY KEY,
        client_id uuid NOT NULL REFERENCES api_clients (id),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Before this migration two clients could be issued the same CUIR: the first keeps it.
    await q.query(`
      INSERT INTO cuir_owners (cuir, client_id, created_at)
      SELECT DISTINCT ON (cuir) cuir, client_id, created_at FROM issued_cuirs ORDER BY cuir, id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE cuir_owners');
    await q.query('ALTER TABLE api_clients DROP COLUMN cuir_platform_id');
  }
}
