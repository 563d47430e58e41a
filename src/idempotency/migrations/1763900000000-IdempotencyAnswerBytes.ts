import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A key's answer is kept as the exact bytes first sent, so a replay is byte-identical (jsonb
 * reorders keys). `response_body` stays for answers stored before this migration.
 */
export class IdempotencyAnswerBytes1763900000000 implements MigrationInterface {
  name = 'IdempotencyAnswerBytes1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys ADD COLUMN response_text text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys DROP COLUMN response_text`);
  }
}
