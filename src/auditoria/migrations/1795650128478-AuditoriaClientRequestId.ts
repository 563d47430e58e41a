import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The client's X-Request-Id gets a column of its own (security review, issue 27): request_id
 * now holds only the id the service mints, so one tenant's text never passes for the service's
 * record on another tenant's prescription. The event's canonical text (src/auditoria/
 * audit-hash.ts re-implements it for verify) stays `ev1` for an event without a client id —
 * every event written before, so their hashes and seals still hold — and is `ev2`, the
 * client's id hashed after request_id, for the others: it is recorded content.
 */
export class AuditoriaClientRequestId1795650128478 implements MigrationInterface {
  name = 'AuditoriaClientRequestId1795650128478';

  async up(q: QueryRunner): Promise<void> {
    // The same rule as request_id's: only what the service would echo, ASCII as the hash needs.
    await q.query(`
      ALTER TABLE auditoria_eventos
        ADD COLUMN client_request_id text CHECK (client_request_id ~ '^[A-Za-z0-9._:-]{1,128}$')`);
    await q.query(`
      CREATE OR REPLACE FUNCTION auditoria_texto_evento(e auditoria_eventos) RETURNS text LANGUAGE sql STABLE AS
      $$ SELECT CASE WHEN e.client_request_id IS NULL THEN
           concat_ws('|', 'ev1', auditoria_campo(e.id::text),
             auditoria_campo(auditoria_instante(e.at)), auditoria_campo(e.tipo),
             auditoria_campo(e.cuir::text), auditoria_campo(e.id_transaccion::text),
             auditoria_campo(e.actor), auditoria_campo(e.resultado), auditoria_campo(e.request_id),
             auditoria_campo(e.xid::text))
         ELSE
           concat_ws('|', 'ev2', auditoria_campo(e.id::text),
             auditoria_campo(auditoria_instante(e.at)), auditoria_campo(e.tipo),
             auditoria_campo(e.cuir::text), auditoria_campo(e.id_transaccion::text),
             auditoria_campo(e.actor), auditoria_campo(e.resultado), auditoria_campo(e.request_id),
             auditoria_campo(e.client_request_id), auditoria_campo(e.xid::text))
         END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Dropping the column would leave the ev2 events' hashes unverifiable: refuse then.
    await q.query(`
      DO $$ BEGIN
        IF EXISTS (SELECT 1 FROM auditoria_eventos WHERE client_request_id IS NOT NULL) THEN
          RAISE EXCEPTION 'auditoria: events hold client request ids; dropping them would break their seals';
        END IF;
      END $$`);
    // The function reads the column: back to the first text before the column goes.
    await q.query(`
      CREATE OR REPLACE FUNCTION auditoria_texto_evento(e auditoria_eventos) RETURNS text LANGUAGE sql STABLE AS
      $$ SELECT concat_ws('|', 'ev1', auditoria_campo(e.id::text),
           auditoria_campo(auditoria_instante(e.at)), auditoria_campo(e.tipo),
           auditoria_campo(e.cuir::text), auditoria_campo(e.id_transaccion::text),
           auditoria_campo(e.actor), auditoria_campo(e.resultado), auditoria_campo(e.request_id),
           auditoria_campo(e.xid::text)) $$`);
    await q.query('ALTER TABLE auditoria_eventos DROP COLUMN client_request_id');
  }
}
