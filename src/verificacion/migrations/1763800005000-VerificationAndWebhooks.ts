import { MigrationInterface, QueryRunner } from 'typeorm';

/** Verification by CUIR (with its audit trail) and per-client webhooks. */
export class VerificationAndWebhooks1763800005000 implements MigrationInterface {
  name = 'VerificationAndWebhooks1763800005000';

  async up(q: QueryRunner): Promise<void> {
    // The signing secret is needed in clear to sign, so it is stored encrypted (AES-256-GCM).
    await q.query(
      `ALTER TABLE api_clients ADD COLUMN webhook_url text, ADD COLUMN webhook_secret_enc text`,
    );
    await q.query(`
      CREATE TABLE verificaciones_cuir (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        verifier_client_id uuid NOT NULL REFERENCES api_clients (id),
        cuir char(41) NOT NULL,
        id_transaccion bigint,
        owner_client_id uuid REFERENCES api_clients (id),
        found boolean NOT NULL,
        at timestamptz NOT NULL DEFAULT now()
      )`);
    // The owner lists who verified its prescriptions, newest first.
    await q.query(
      `CREATE INDEX verificaciones_owner_at ON verificaciones_cuir (owner_client_id, at DESC, id DESC) WHERE owner_client_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE verificaciones_cuir');
    await q.query(
      'ALTER TABLE api_clients DROP COLUMN webhook_secret_enc, DROP COLUMN webhook_url',
    );
  }
}
