import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The path every function resolves names by (SPEC 11.1): the catalogue first, then the
 * application's schema, and the session's temporary schema last, so neither a caller's
 * `search_path` nor a temporary table of the same name changes what a function reads or calls.
 * A migration that creates a function sets it (`SET search_path = ${PATH_FIJO}`);
 * test/reliability/roles.rel-spec.ts lists any function without it.
 */
export const PATH_FIJO = 'pg_catalog, public, pg_temp';

/**
 * Found by an attack as the service's own role (SPEC 11.1): the event log's triggers resolved
 * `now()` and `auditoria_purgas` through the caller's search_path, so a planted `now()` sealed a
 * back-dated event and a temporary `auditoria_purgas` passed the purge's test. Every function of
 * the schema gets the fixed path; the two that read tables name them schema-qualified too.
 *
 * And the month's opening of the id sequences (database/particiones/) becomes a function,
 * `particiones_abrir_mes_en(instante)`, which the migrations call; the running service, which
 * owns nothing, calls `particiones_abrir_mes()`, a SECURITY DEFINER door to it that takes no
 * argument: only upward, only to the month the database's clock says, only the sequences the
 * catalogue names. So a month's boundary needs no migration-role credentials.
 */
export class FuncionesFijas1795729000000 implements MigrationInterface {
  name = 'FuncionesFijas1795729000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION public.auditoria_evento_borrar() RETURNS trigger
      LANGUAGE plpgsql SET search_path = ${PATH_FIJO} AS $$
      BEGIN
        IF pg_catalog.current_setting('auditoria.purga', true) = 'on'
           AND OLD.at < pg_catalog.now() - interval '5 years'
           AND EXISTS (SELECT 1 FROM public.auditoria_purgas p
                        WHERE p.xid = pg_catalog.pg_current_xact_id()) THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'auditoria: DELETE of event % refused: the event log is append-only', OLD.id
          USING HINT = 'only npm run cli -- auditoria purgar removes events, past the retention';
      END $$`);
    await q.query(`
      CREATE OR REPLACE FUNCTION public.auditoria_sello_hash() RETURNS trigger
      LANGUAGE plpgsql SET search_path = ${PATH_FIJO} AS $$
      DECLARE prev public.auditoria_sellos;
      BEGIN
        SELECT * INTO prev FROM public.auditoria_sellos WHERE id = NEW.id - 1;
        IF NEW.id > 1 AND prev.id IS NULL THEN
          RAISE EXCEPTION 'auditoria: seal % does not follow the chain', NEW.id;
        END IF;
        IF NEW.xid_desde <> COALESCE(prev.xid_hasta, '0'::xid8) THEN
          RAISE EXCEPTION 'auditoria: seal % does not start where seal % ends', NEW.id, NEW.id - 1;
        END IF;
        NEW.at := pg_catalog.now();
        NEW.hash_anterior := COALESCE(prev.hash, pg_catalog.decode(pg_catalog.repeat('00', 32), 'hex'));
        NEW.hash := pg_catalog.sha256(NEW.hash_anterior
          || pg_catalog.convert_to(public.auditoria_texto_sello(NEW), 'UTF8') || NEW.digest);
        RETURN NEW;
      END $$`);

    // The sequences to move are those the catalogue names: the key of a table partitioned by
    // id ranges that draws its own ids (recetas.id_transaccion, auditoria_eventos.id).
    await q.query(`
      CREATE FUNCTION public.particiones_abrir_mes_en(instante timestamptz)
      RETURNS SETOF public.particiones_aperturas
      LANGUAGE plpgsql SET search_path = ${PATH_FIJO} AS $$
      DECLARE
        mes date := pg_catalog.date_trunc('month', instante AT TIME ZONE 'UTC')::date;
        base bigint := (pg_catalog.date_part('year', mes)::bigint * 100
                        + pg_catalog.date_part('month', mes)::bigint) * 1000000000;
        t record;
        secuencia regclass;
        siguiente bigint;
        abierta public.particiones_aperturas;
      BEGIN
        -- One opening at a time: two at once could both move a sequence another just drew from.
        PERFORM pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('particiones_abrir_mes'));
        FOR t IN
          SELECT c.relname AS tabla, a.attname AS columna
            FROM pg_catalog.pg_partitioned_table pt
            JOIN pg_catalog.pg_class c ON c.oid = pt.partrelid
            JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum = pt.partattrs[0]
           WHERE c.relnamespace = 'public'::regnamespace AND NOT c.relispartition
             AND pt.partstrat = 'r' AND pt.partnatts = 1
             AND pg_catalog.pg_get_serial_sequence('public.' || pg_catalog.quote_ident(c.relname),
                                                   a.attname) IS NOT NULL
           ORDER BY 1
        LOOP
          secuencia := pg_catalog.pg_get_serial_sequence(
            'public.' || pg_catalog.quote_ident(t.tabla), t.columna)::regclass;
          EXECUTE pg_catalog.format(
            'SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM %s', secuencia)
            INTO siguiente;
          CONTINUE WHEN siguiente >= base;
          PERFORM pg_catalog.setval(secuencia, base, false);
          -- Recorded after the move (clock_timestamp): an opening's instant is never before
          -- the ids it promises (the listing prunes by it).
          INSERT INTO public.particiones_aperturas (secuencia, periodo, primer_id, at)
          VALUES (t.tabla || '.' || t.columna, mes, base, pg_catalog.clock_timestamp())
          ON CONFLICT DO NOTHING
          RETURNING * INTO abierta;
          IF FOUND THEN RETURN NEXT abierta; END IF;
        END LOOP;
      END $$`);
    await q.query(
      `REVOKE ALL ON FUNCTION public.particiones_abrir_mes_en(timestamptz) FROM PUBLIC`,
    );
    // The service's door: the database's own clock, nothing a caller chooses.
    await q.query(`
      CREATE FUNCTION public.particiones_abrir_mes() RETURNS SETOF public.particiones_aperturas
      LANGUAGE sql SECURITY DEFINER SET search_path = ${PATH_FIJO} AS $$
        SELECT * FROM public.particiones_abrir_mes_en(pg_catalog.now()) $$`);
    await q.query(`REVOKE ALL ON FUNCTION public.particiones_abrir_mes() FROM PUBLIC`);

    const unpinned = (await q.query(
      `SELECT p.oid::regprocedure::text AS fn FROM pg_proc p
        WHERE p.pronamespace = 'public'::regnamespace
          AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass
                           AND d.objid = p.oid AND d.deptype = 'e')
          AND NOT EXISTS (SELECT 1 FROM unnest(p.proconfig) c WHERE c LIKE 'search_path=%')`,
    )) as Array<{ fn: string }>;
    for (const { fn } of unpinned)
      await q.query(`ALTER FUNCTION ${fn} SET search_path = ${PATH_FIJO}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP FUNCTION public.particiones_abrir_mes()');
    await q.query('DROP FUNCTION public.particiones_abrir_mes_en(timestamptz)');
    const pinned = (await q.query(
      `SELECT p.oid::regprocedure::text AS fn FROM pg_proc p
        WHERE p.pronamespace = 'public'::regnamespace AND p.proconfig IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass
                           AND d.objid = p.oid AND d.deptype = 'e')`,
    )) as Array<{ fn: string }>;
    for (const { fn } of pinned) await q.query(`ALTER FUNCTION ${fn} RESET search_path`);
  }
}
