import { MigrationInterface, QueryRunner } from 'typeorm';

/** Extensions the schema relies on: trigram similarity and accent folding for catalogue search. */
export class Extensions1763800000000 implements MigrationInterface {
  name = 'Extensions1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await q.query('CREATE EXTENSION IF NOT EXISTS unaccent');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP EXTENSION IF EXISTS unaccent');
    await q.query('DROP EXTENSION IF EXISTS pg_trgm');
  }
}
