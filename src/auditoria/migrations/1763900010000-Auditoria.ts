import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event log of contract §8 (Disp. DNSISA 1/2025, Annex III.3): events, the seals that chain
 * them, and the purge records. All three are append-only by trigger. The canonical texts
 * hashed here are re-implemented in src/auditoria/audit-hash.ts, which verify uses, so a
 * forger cannot make verify agree by replacing these functions.
 */
export class Auditoria1763900010000 implements MigrationInterface {
  name = 'Auditoria1763900010000';

  async up(q: QueryRunner): Promise<void> {
    // Every field is ASCII by its CHECK, so the canonical text is the same in any encoding.
    await q.query(`
      CREATE TABLE auditoria_eventos (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        tipo text NOT NULL CHECK (tipo ~ '^[a-z][a-z0-9_]{1,39}$'),
        cuir char(41) CHECK (cuir ~ '^[0-9]{41}$'),
        id_transaccion bigint,
        actor text NOT NULL
          CHECK (actor ~ '^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[a-z][a-z_]{1,31})$'),
        resultado text NOT NULL CHECK (resultado ~ '^(ok|[A-Z][A-Z0-9_]{1,63})$'),
        request_id text CHECK (request_id ~ '^[A-Za-z0-9._:-]{1,128}$'),
        -- The writing transaction: a seal covers a range of finished transactions (see below).
        xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
        hash bytea NOT NULL
      )`);
    // The per-prescription listing, oldest first.
    await q.query(
      `CREATE INDEX auditoria_eventos_transaccion ON auditoria_eventos (id_transaccion, id) WHERE id_transaccion IS NOT NULL`,
    );
    // Sealing and verifying read one range of writing transactions at a time.
    await q.query(`CREATE INDEX auditoria_eventos_xid ON auditoria_eventos (xid)`);

    // A seal covers the events whose writing transaction is in [xid_desde, xid_hasta): xid_hasta
    // is the sealer's snapshot xmin, below which every transaction has ended, so that set never
    // changes again, whatever order ids were drawn and committed in. `ids` names the events it
    // covers (so verify can name a deleted or an inserted one); the id is the seal's number.
    await q.query(`
      CREATE TABLE auditoria_sellos (
        id bigint PRIMARY KEY CHECK (id >= 1),
        at timestamptz NOT NULL DEFAULT now(),
        xid_desde xid8 NOT NULL,
        xid_hasta xid8 NOT NULL,
        eventos bigint NOT NULL CHECK (eventos > 0),
        ids int8multirange NOT NULL,
        ultimo_at timestamptz NOT NULL,
        digest bytea NOT NULL,
        hash_anterior bytea NOT NULL,
        hash bytea NOT NULL,
        CHECK (xid_hasta > xid_desde)
      )`);
    // Which seals' events a purge removed (verify then checks only their chain).
    await q.query(`
      CREATE TABLE auditoria_purgas (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        antes_de date NOT NULL,
        sellos int8multirange NOT NULL,
        eventos bigint NOT NULL,
        xid xid8 NOT NULL DEFAULT pg_current_xact_id()
      )`);

    // Canonical texts: every field length-prefixed (unambiguous without escaping), NULL as ~.
    await q.query(`
      CREATE FUNCTION auditoria_campo(v text) RETURNS text LANGUAGE sql IMMUTABLE AS
      $$ SELECT CASE WHEN v IS NULL THEN '~' ELSE octet_length(v)::text || ':' || v END $$`);
    await q.query(`
      CREATE FUNCTION auditoria_instante(t timestamptz) RETURNS text LANGUAGE sql STABLE AS
      $$ SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') $$`);
    await q.query(`
      CREATE FUNCTION auditoria_texto_evento(e auditoria_eventos) RETURNS text LANGUAGE sql STABLE AS
      $$ SELECT concat_ws('|', 'ev1', auditoria_campo(e.id::text),
           auditoria_campo(auditoria_instante(e.at)), auditoria_campo(e.tipo),
           auditoria_campo(e.cuir::text), auditoria_campo(e.id_transaccion::text),
           auditoria_campo(e.actor), auditoria_campo(e.resultado), auditoria_campo(e.request_id),
           auditoria_campo(e.xid::text)) $$`);
    await q.query(`
      CREATE FUNCTION auditoria_texto_sello(s auditoria_sellos) RETURNS text LANGUAGE sql STABLE AS
      $$ SELECT concat_ws('|', 'se1', auditoria_campo(s.id::text),
           auditoria_campo(auditoria_instante(s.at)), auditoria_campo(s.xid_desde::text),
           auditoria_campo(s.xid_hasta::text), auditoria_campo(s.eventos::text),
           auditoria_campo(s.ids::text), auditoria_campo(auditoria_instante(s.ultimo_at))) $$`);

    // The writing transaction and the time are the database's, never the caller's: a
    // back-dated xid would land in a range already sealed. No lock, no read of a chain head.
    await q.query(`
      CREATE FUNCTION auditoria_evento_hash() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.xid := pg_current_xact_id();
        NEW.at := now();
        NEW.hash := sha256(convert_to(auditoria_texto_evento(NEW), 'UTF8'));
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER auditoria_eventos_hash BEFORE INSERT ON auditoria_eventos
      FOR EACH ROW EXECUTE FUNCTION auditoria_evento_hash()`);

    // A seal must extend the chain's head: the next number, the previous boundary, its hash.
    // With the primary key, two sealers can never both extend the same head (no fork).
    await q.query(`
      CREATE FUNCTION auditoria_sello_hash() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE prev auditoria_sellos;
      BEGIN
        SELECT * INTO prev FROM auditoria_sellos WHERE id = NEW.id - 1;
        IF NEW.id > 1 AND prev.id IS NULL THEN
          RAISE EXCEPTION 'auditoria: seal % does not follow the chain', NEW.id;
        END IF;
        IF NEW.xid_desde <> COALESCE(prev.xid_hasta, '0'::xid8) THEN
          RAISE EXCEPTION 'auditoria: seal % does not start where seal % ends', NEW.id, NEW.id - 1;
        END IF;
        NEW.at := now();
        NEW.hash_anterior := COALESCE(prev.hash, decode(repeat('00', 32), 'hex'));
        NEW.hash := sha256(NEW.hash_anterior || convert_to(auditoria_texto_sello(NEW), 'UTF8') || NEW.digest);
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER auditoria_sellos_hash BEFORE INSERT ON auditoria_sellos
      FOR EACH ROW EXECUTE FUNCTION auditoria_sello_hash()`);

    await q.query(`
      CREATE FUNCTION auditoria_rechazar() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'auditoria: % on % refused: the event log is append-only', TG_OP, TG_TABLE_NAME
          USING HINT = 'only npm run cli -- auditoria purgar removes events, past the retention';
      END $$`);
    // The purge path alone: its flag, a purge record written by this same transaction, and a
    // floor of five years that no setting can lower (the regulation's minimum).
    await q.query(`
      CREATE FUNCTION auditoria_evento_borrar() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF current_setting('auditoria.purga', true) = 'on'
           AND OLD.at < now() - interval '5 years'
           AND EXISTS (SELECT 1 FROM auditoria_purgas p WHERE p.xid = pg_current_xact_id()) THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'auditoria: DELETE of event % refused: the event log is append-only', OLD.id
          USING HINT = 'only npm run cli -- auditoria purgar removes events, past the retention';
      END $$`);
    await q.query(`
      CREATE TRIGGER auditoria_eventos_borrar BEFORE DELETE ON auditoria_eventos
      FOR EACH ROW EXECUTE FUNCTION auditoria_evento_borrar()`);
    await q.query(`
      CREATE TRIGGER auditoria_eventos_inmutable BEFORE UPDATE ON auditoria_eventos
      FOR EACH ROW EXECUTE FUNCTION auditoria_rechazar()`);
    for (const table of ['auditoria_sellos', 'auditoria_purgas']) {
      await q.query(`
        CREATE TRIGGER ${table}_inmutable BEFORE UPDATE OR DELETE ON ${table}
        FOR EACH ROW EXECUTE FUNCTION auditoria_rechazar()`);
    }
    for (const table of ['auditoria_eventos', 'auditoria_sellos', 'auditoria_purgas']) {
      await q.query(`
        CREATE TRIGGER ${table}_truncate BEFORE TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION auditoria_rechazar()`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    // CASCADE takes the triggers and the functions over the tables' row types with them.
    await q.query('DROP TABLE auditoria_purgas, auditoria_sellos, auditoria_eventos CASCADE');
    for (const fn of [
      'auditoria_evento_borrar()',
      'auditoria_rechazar()',
      'auditoria_sello_hash()',
      'auditoria_evento_hash()',
      'auditoria_instante(timestamptz)',
      'auditoria_campo(text)',
    ]) {
      await q.query(`DROP FUNCTION IF EXISTS ${fn}`);
    }
  }
}
