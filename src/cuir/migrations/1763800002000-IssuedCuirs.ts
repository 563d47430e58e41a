import { MigrationInterface, QueryRunner } from 'typeorm';

/** The ledger of issued CUIRs; a partial unique index makes the uniqueness policy race-safe. */
export class IssuedCuirs1763800002000 implements MigrationInterface {
  name = 'IssuedCuirs1763800002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE issued_cuirs (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        client_id uuid NOT NULL REFERENCES api_clients (id),
        cuir char(41) NOT NULL,
        platform char(4) NOT NULL,
        repository char(4) NOT NULL,
        jurisdiction char(2) NOT NULL,
        prescription_type char(2) NOT NULL,
        medication_type char(2) NOT NULL,
        group_id char(25) NOT NULL,
        item_id char(2) NOT NULL,
        uniqueness_enforced boolean NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Only issuances made under the policy take part: with the policy off the same input may
    // be issued again (generation is deterministic), and is still recorded.
    await q.query(`
      CREATE UNIQUE INDEX issued_cuirs_unique_group_item
        ON issued_cuirs (client_id, group_id, item_id) WHERE uniqueness_enforced`);
    await q.query(`CREATE INDEX issued_cuirs_cuir ON issued_cuirs (cuir)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE issued_cuirs');
  }
}
