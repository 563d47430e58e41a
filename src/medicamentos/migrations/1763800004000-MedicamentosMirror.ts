import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The local mirror of the medication catalogue, searched by GET /v1/medicamentos/buscar and
 * written only by the catalogue sync. The *_norm columns hold lower-case, unaccented text
 * computed by the sync (src/medicamentos/search-text.ts; unaccent() is not IMMUTABLE, so it
 * could not feed a generated column); search_text joins them for the trigram GIN index.
 */
export class MedicamentosMirror1763800004000 implements MigrationInterface {
  name = 'MedicamentosMirror1763800004000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE medicamentos (
        code text PRIMARY KEY,
        nombre text NOT NULL,
        principio_activo text NOT NULL,
        droga text NOT NULL,
        dosis text NOT NULL,
        posologia text NOT NULL,
        presentacion text NOT NULL,
        laboratorio text NOT NULL,
        condicion_expendio text NOT NULL,
        coberturas text[] NOT NULL DEFAULT '{}',
        nombre_norm text NOT NULL,
        principio_activo_norm text NOT NULL,
        search_text text GENERATED ALWAYS AS (nombre_norm || ' ' || principio_activo_norm) STORED,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      'CREATE INDEX medicamentos_search_trgm ON medicamentos USING gin (search_text gin_trgm_ops)',
    );
    // The last successful sync (any instance): metrics, and scheduled runs skip when fresh.
    await q.query(`
      CREATE TABLE catalogo_sync_state (
        id smallint PRIMARY KEY CHECK (id = 1),
        synced_at timestamptz NOT NULL,
        item_count integer NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE catalogo_sync_state');
    await q.query('DROP TABLE medicamentos');
  }
}
