import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event insert's cost (issue 30; bench/auditoria.ts, figures in BENCHMARKS.md, "What each
 * optimisation bought"): most of it was not the hash but the six CHECKs. A CHECK whose
 * expression calls functions (a regex, even a cheap one; ltrim() as well) is rebuilt for every
 * statement, while the same test inside the trigger's PL/pgSQL, whose expressions stay prepared
 * for the session, costs next to nothing. And the old patterns were slow per row too:
 * PostgreSQL's regex engine expands a bounded repetition into one state per repeat and builds
 * its DFA anew on each match, as `^[A-Za-z0-9._:-]{1,128}$` did.
 *
 * So the trigger now refuses what the CHECKs refused, with the same error (check_violation,
 * the constraint's name), written without bounded repetitions: the same sets (test/
 * auditoria-insert.e2e-spec.ts compares them value by value), so every stored row still holds.
 * The CHECKs go: no scan of the stored rows. And it builds the canonical text in one expression,
 * without the nested SQL functions (auditoria_texto_evento → auditoria_campo ×10 →
 * auditoria_instante): the same text, so the same hash (verify recomputes it independently,
 * src/auditoria/audit-hash.ts). Those functions stay: they document the text, and the seal
 * trigger uses auditoria_texto_sello. Only the owner can disable a trigger, as it could drop a
 * CHECK; the runtime role can do neither.
 */
export class AuditoriaEventoEnLinea1795728400000 implements MigrationInterface {
  name = 'AuditoriaEventoEnLinea1795728400000';

  async up(q: QueryRunner): Promise<void> {
    // What each CHECK refused, refused here with its error: check_violation, its name.
    const refusals = Object.entries(CHEAP)
      .map(
        ([name, test]) => `
        IF NOT (${test('NEW.')}) THEN
          RAISE EXCEPTION USING ERRCODE = 'check_violation', CONSTRAINT = '${name}',
            TABLE = TG_TABLE_NAME, SCHEMA = TG_TABLE_SCHEMA, MESSAGE = format(
              'new row for relation "%s" violates check constraint "%s"', TG_TABLE_NAME, '${name}');
        END IF;`,
      )
      .join('');
    await q.query(`
      CREATE OR REPLACE FUNCTION auditoria_evento_hash() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        at_text text;
      BEGIN
${refusals}
        NEW.xid := pg_current_xact_id();
        NEW.at := now();
        at_text := to_char(NEW.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
        -- auditoria_texto_evento's ev1 / ev2 text, each field length-prefixed, NULL as ~
        -- (concat_ws skips the NULL that stands for ev1's absent client_request_id).
        NEW.hash := sha256(convert_to(concat_ws('|',
          CASE WHEN NEW.client_request_id IS NULL THEN 'ev1' ELSE 'ev2' END,
          CASE WHEN NEW.id IS NULL THEN '~' ELSE octet_length(NEW.id::text) || ':' || NEW.id END,
          CASE WHEN at_text IS NULL THEN '~' ELSE octet_length(at_text) || ':' || at_text END,
          CASE WHEN NEW.tipo IS NULL THEN '~' ELSE octet_length(NEW.tipo) || ':' || NEW.tipo END,
          CASE WHEN NEW.cuir IS NULL THEN '~'
               ELSE octet_length(NEW.cuir::text) || ':' || NEW.cuir::text END,
          CASE WHEN NEW.id_transaccion IS NULL THEN '~'
               ELSE octet_length(NEW.id_transaccion::text) || ':' || NEW.id_transaccion END,
          CASE WHEN NEW.actor IS NULL THEN '~' ELSE octet_length(NEW.actor) || ':' || NEW.actor END,
          CASE WHEN NEW.resultado IS NULL THEN '~'
               ELSE octet_length(NEW.resultado) || ':' || NEW.resultado END,
          CASE WHEN NEW.request_id IS NULL THEN '~'
               ELSE octet_length(NEW.request_id) || ':' || NEW.request_id END,
          CASE WHEN NEW.client_request_id IS NOT NULL
               THEN octet_length(NEW.client_request_id) || ':' || NEW.client_request_id END,
          octet_length(NEW.xid::text) || ':' || NEW.xid), 'UTF8'));
        RETURN NEW;
      END $$`);
    // Dropping a CHECK reads no row.
    await q.query(
      `ALTER TABLE auditoria_eventos ${Object.keys(CHEAP)
        .map((name) => `DROP CONSTRAINT ${name}`)
        .join(', ')}`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    // NOT VALID: the rows written meanwhile passed the same tests, in the trigger.
    await q.query(
      `ALTER TABLE auditoria_eventos ${Object.entries(REGEX)
        .map(([name, check]) => `ADD CONSTRAINT ${name} CHECK (${check}) NOT VALID`)
        .join(', ')}`,
    );
    await q.query(`
      CREATE OR REPLACE FUNCTION auditoria_evento_hash() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.xid := pg_current_xact_id();
        NEW.at := now();
        NEW.hash := sha256(convert_to(auditoria_texto_evento(NEW), 'UTF8'));
        RETURN NEW;
      END $$`);
  }
}

/** The CHECKs as migrations 1763900010000 and 1795650128478 wrote them. */
const REGEX = {
  auditoria_eventos_tipo_check: `tipo ~ '^[a-z][a-z0-9_]{1,39}$'`,
  auditoria_eventos_cuir_check: `cuir ~ '^[0-9]{41}$'`,
  auditoria_eventos_actor_check: `actor ~ '^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[a-z][a-z_]{1,31})$'`,
  auditoria_eventos_resultado_check: `resultado ~ '^(ok|[A-Z][A-Z0-9_]{1,63})$'`,
  auditoria_eventos_request_id_check: `request_id ~ '^[A-Za-z0-9._:-]{1,128}$'`,
  auditoria_eventos_client_request_id_check: `client_request_id ~ '^[A-Za-z0-9._:-]{1,128}$'`,
};

/**
 * The same sets without bounded repetitions, of the row `r` (`NEW.` in the trigger). NULL
 * passes, as in a CHECK. The CUIR is char(41): a shorter value is padded with blanks, which
 * `[0-9]+$` refuses, and length() does not count them.
 */
const CHEAP: Record<keyof typeof REGEX, (r: string) => string> = {
  auditoria_eventos_tipo_check: (r) => `${r}tipo ~ '^[a-z][a-z0-9_]+$' AND length(${r}tipo) <= 40`,
  auditoria_eventos_cuir_check: (r) => `${r}cuir ~ '^[0-9]+$' AND length(${r}cuir) = 41`,
  auditoria_eventos_actor_check: (r) => `(${r}actor ~ '^[a-z][a-z_]+$' AND length(${r}actor) <= 32)
    OR (length(${r}actor) = 36 AND ${r}actor ~ '^[0-9a-f]+-[0-9a-f]+-[0-9a-f]+-[0-9a-f]+-[0-9a-f]+$'
        AND substr(${r}actor, 9, 1) = '-' AND substr(${r}actor, 14, 1) = '-'
        AND substr(${r}actor, 19, 1) = '-' AND substr(${r}actor, 24, 1) = '-')`,
  auditoria_eventos_resultado_check: (r) => `${r}resultado = 'ok'
    OR (${r}resultado ~ '^[A-Z][A-Z0-9_]+$' AND length(${r}resultado) <= 64)`,
  auditoria_eventos_request_id_check: (r) =>
    `${r}request_id ~ '^[A-Za-z0-9._:-]+$' AND length(${r}request_id) <= 128`,
  auditoria_eventos_client_request_id_check: (r) =>
    `${r}client_request_id ~ '^[A-Za-z0-9._:-]+$' AND length(${r}client_request_id) <= 128`,
};

/** For the test that compares the old CHECKs and the trigger's tests value by value. */
export const AUDIT_EVENT_CHECKS = { regex: REGEX, cheap: CHEAP };
