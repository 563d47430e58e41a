import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { RunningSandbox, startSandbox } from '../../sandbox/server.js';
import { runCli } from '../support/cli.js';
import { runtimeUrlOf } from '../support/database-roles.js';
import { freshDatabase, FreshDatabase } from '../support/fresh-database.js';
import { issueBodyCuir, registrationBody } from '../support/recetas.js';
import { sandboxedEnv, ServiceProcess, startServiceProcess } from '../support/service-process.js';
import { rawRequest } from './support/raw-http.js';

const QUEUE = 'pgboss_roles';

/**
 * SPEC 11.1, as an attack review with the service's own database login found it not holding:
 * the database side, run as the runtime role (DATABASE_URL's) with the migration role
 * (DATABASE_MIGRATION_URL) beside it. Each case is a reproduction of a finding; the last two
 * list every privilege the runtime role holds against an allow-list, and every function's
 * search path.
 */
describe('database roles: the runtime role owns nothing and reaches nothing it could turn', () => {
  let sandbox: RunningSandbox;
  let db: FreshDatabase;
  let admin: pg.Client;
  let runtime: pg.Client;
  let service: ServiceProcess | undefined;
  let adminRole: string;
  let runtimeRole: string;

  /** Refused for lack of privilege (42501), whatever the statement. */
  const refused = async (c: pg.Client, sql: string, params: unknown[] = []) => {
    const err = await c.query(sql, params).then(
      () => undefined,
      (e: { code?: string }) => e,
    );
    expect({ sql, code: err?.code }).toEqual({ sql, code: '42501' });
  };
  const one = async <T>(c: pg.Client, sql: string, params: unknown[] = []): Promise<T> =>
    (await c.query(sql, params)).rows[0] as T;
  const monthPartition = async (table: string) =>
    (
      await one<{ name: string }>(
        admin,
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = $1::regclass AND c.relname <> $2 ORDER BY 1 LIMIT 1`,
        [table, `${table}_p0`],
      )
    ).name;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true });
    db = await freshDatabase('roles');
    service = await startServiceProcess(
      sandboxedEnv(sandbox.url, { DATABASE_URL: db.url, QUEUE_SCHEMA: QUEUE }),
    );
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    runtime = new pg.Client({ connectionString: runtimeUrlOf(db.url) });
    await runtime.connect();
    adminRole = (await one<{ r: string }>(admin, 'SELECT current_user AS r')).r;
    runtimeRole = (await one<{ r: string }>(runtime, 'SELECT current_user AS r')).r;

    // Something in the event log, as the service writes it: a client and a registration.
    const { stdout } = await runCli(
      ['clients', 'create', '--name', `roles-${randomUUID()}`, '--scopes', 'all', '--json'],
      { DATABASE_URL: db.url, QUEUE_SCHEMA: QUEUE },
    );
    const created = JSON.parse(stdout) as { key: string; secret: string };
    const headers = {
      'X-API-Key': created.key,
      'X-API-Secret': created.secret,
      'Content-Type': 'application/json',
    };
    const body = registrationBody();
    await issueBodyCuir(service, { headers }, body);
    const res = await rawRequest(service.url, {
      method: 'POST',
      path: '/v1/recetas/registrar',
      headers,
      body: JSON.stringify(body),
      timeoutMs: 10_000,
    });
    expect(res.status).toBe(201);
  }, 90_000);
  afterAll(async () => {
    await service?.stop().catch(() => undefined);
    await sandbox?.close();
    await runtime?.end();
    await admin?.end();
    await db?.drop();
  });

  it('the running service holds no connection as the migration role', async () => {
    const { n } = await one<{ n: number }>(
      admin,
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND usename = $1 AND pid <> pg_backend_pid()
          AND application_name LIKE 'prescription-registry%'`,
      [adminRole],
    );
    expect(n).toBe(0);
    const { m } = await one<{ m: number }>(
      admin,
      `SELECT count(*)::int AS m FROM pg_stat_activity
        WHERE datname = current_database() AND usename = $1`,
      [runtimeRole],
    );
    expect(m).toBeGreaterThan(0);
  });

  it('owns nothing: no schema, relation, function or type, the job queue included', async () => {
    const owned = await admin.query(
      `SELECT 'class' AS k, oid::regclass::text AS name FROM pg_class WHERE relowner = $1::regrole
       UNION ALL SELECT 'proc', oid::regprocedure::text FROM pg_proc WHERE proowner = $1::regrole
       UNION ALL SELECT 'type', oid::regtype::text FROM pg_type WHERE typowner = $1::regrole
       UNION ALL SELECT 'schema', nspname FROM pg_namespace
                  WHERE nspowner = $1::regrole AND nspname !~ '^pg_(toast_)?temp_'`,
      [runtimeRole],
    );
    expect(owned.rows).toEqual([]);
  });

  it('cannot plant code: no CREATE on any schema (found: a view in the queue schema ran as the migration role)', async () => {
    for (const schema of ['public', QUEUE]) {
      await refused(runtime, `CREATE VIEW ${schema}.planted AS SELECT 1 AS x`);
      await refused(
        runtime,
        `CREATE FUNCTION ${schema}.now() RETURNS timestamptz LANGUAGE sql AS $$ SELECT '2021-01-01'::timestamptz $$`,
      );
      await refused(runtime, `CREATE TABLE ${schema}.planted (x int)`);
    }
    await refused(runtime, `CREATE SCHEMA planted`);
    await refused(runtime, `DROP TABLE ${QUEUE}.version`);
    await refused(runtime, `ALTER TABLE ${QUEUE}.job ADD COLUMN planted int`);
    await refused(runtime, `UPDATE ${QUEUE}.version SET version = 1`);
    await refused(
      runtime,
      `INSERT INTO ${QUEUE}.queue (name, policy) VALUES ('planted', 'standard')`,
    );
  });

  it('a planted view from an earlier version is refused before anything runs as the migration role', async () => {
    // The state the review left: the queue's schema handed to the runtime role (as main did),
    // its version table replaced by a view calling the runtime role's function, which, run as
    // the migration role, switches the event log's UPDATE trigger off.
    await admin.query(`ALTER SCHEMA ${QUEUE} OWNER TO ${runtimeRole}`);
    await admin.query(`ALTER TABLE ${QUEUE}.version OWNER TO ${runtimeRole}`);
    try {
      await runtime.query(`ALTER TABLE ${QUEUE}.version RENAME TO version_real`);
      await runtime.query(`
        CREATE FUNCTION ${QUEUE}.planted() RETURNS int LANGUAGE plpgsql AS $$
        BEGIN
          ALTER TABLE public.auditoria_eventos DISABLE TRIGGER auditoria_eventos_inmutable;
          RETURN 21;
        END $$`);
      await runtime.query(
        `CREATE VIEW ${QUEUE}.version AS SELECT ${QUEUE}.planted() AS version, maintained_on,
                cron_on, monitored_on FROM ${QUEUE}.version_real`,
      );
      const run = await runCli(['clients', 'list', '--json'], {
        DATABASE_URL: db.url,
        QUEUE_SCHEMA: QUEUE,
      }).then(
        () => ({ code: 0, stderr: '' }),
        (e: { code: number; stderr: string }) => e,
      );
      const { enabled } = await one<{ enabled: string }>(
        admin,
        `SELECT tgenabled AS enabled FROM pg_trigger
          WHERE tgname = 'auditoria_eventos_inmutable' AND tgrelid = 'auditoria_eventos'::regclass`,
      );
      expect(enabled).toBe('O');
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(
        /owns .*view .*version.*function .*planted|owns .*function .*planted.*view/s,
      );
    } finally {
      await admin.query(`DROP VIEW IF EXISTS ${QUEUE}.version`);
      await admin.query(`DROP FUNCTION IF EXISTS ${QUEUE}.planted()`);
      await admin.query(`ALTER TABLE IF EXISTS ${QUEUE}.version_real RENAME TO version`);
    }
    // What it owned is data again: the next migration run takes it back and goes on.
    await runCli(['clients', 'list', '--json'], { DATABASE_URL: db.url, QUEUE_SCHEMA: QUEUE });
    const { owner } = await one<{ owner: string }>(
      admin,
      `SELECT nspowner::regrole::text AS owner FROM pg_namespace WHERE nspname = $1`,
      [QUEUE],
    );
    expect(owner).toBe(adminRole);
  });

  it("gets on every partition of the event log exactly its parent's SELECT, INSERT (found: DELETE and UPDATE)", async () => {
    for (const table of ['auditoria_eventos', 'auditoria_sellos']) {
      const parts = (
        await admin.query<{ name: string }>(
          `SELECT c.oid::regclass::text AS name FROM pg_class c
            WHERE c.oid = $1::regclass OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = $1::regclass)`,
          [table],
        )
      ).rows;
      for (const { name } of parts) {
        const { p } = await one<{ p: string[] }>(
          admin,
          `SELECT array_agg(priv ORDER BY priv) AS p FROM unnest(
             ARRAY['SELECT','INSERT','UPDATE','DELETE','TRUNCATE','REFERENCES','TRIGGER']) priv
            WHERE has_table_privilege($1, $2::regclass, priv)`,
          [runtimeRole, name],
        );
        expect({ name, p }).toEqual({ name, p: ['INSERT', 'SELECT'] });
      }
    }
    const partition = await monthPartition('auditoria_eventos');
    const { id } = await one<{ id: string }>(admin, `SELECT min(id)::text AS id FROM ${partition}`);
    await refused(runtime, `DELETE FROM ${partition} WHERE id = $1`, [id]);
    await refused(runtime, `UPDATE ${partition} SET at = at WHERE id = $1`, [id]);
    await refused(runtime, `TRUNCATE ${partition}`);
    await refused(runtime, `ALTER TABLE ${partition} DISABLE TRIGGER ALL`);
    await refused(runtime, `ALTER TABLE auditoria_eventos DETACH PARTITION ${partition}`);
  });

  it("a temporary table cannot stand in for the purge records (found: the delete trigger read the caller's)", async () => {
    // Even a role that may delete (the owner) meets the trigger, which reads the real table.
    const partition = await monthPartition('auditoria_eventos');
    await admin.query('BEGIN');
    try {
      // An event older than the retention, written past the insert trigger by its owner.
      await admin.query(`ALTER TABLE auditoria_eventos DISABLE TRIGGER auditoria_eventos_hash`);
      const { id } = await one<{ id: string }>(
        admin,
        `INSERT INTO auditoria_eventos (tipo, actor, resultado, request_id, at, xid, hash)
         VALUES ('registro', 'sistema', 'ok', 'r', '2015-01-01', pg_current_xact_id(), '\\x00')
         RETURNING id::text AS id`,
      );
      await admin.query(`ALTER TABLE auditoria_eventos ENABLE TRIGGER auditoria_eventos_hash`);
      await admin.query(`SET LOCAL auditoria.purga = 'on'`);
      await admin.query(`CREATE TEMP TABLE auditoria_purgas (xid xid8) ON COMMIT DROP`);
      await admin.query(`INSERT INTO pg_temp.auditoria_purgas VALUES (pg_current_xact_id())`);
      await admin.query(`SET LOCAL search_path = pg_temp, public`);
      const err = await admin.query(`DELETE FROM ${partition} WHERE id = $1`, [id]).then(
        () => undefined,
        (e: { message: string }) => e,
      );
      expect(err?.message).toMatch(/append-only/);
    } finally {
      await admin.query('ROLLBACK');
    }
  });

  it('a planted now() cannot back-date an event (found: one stamped 2021 was sealed as genuine)', async () => {
    await admin.query('BEGIN');
    try {
      await admin.query(`CREATE SCHEMA planted`);
      await admin.query(
        `CREATE FUNCTION planted.now() RETURNS timestamptz LANGUAGE sql AS $$ SELECT '2021-01-01'::timestamptz $$`,
      );
      await admin.query(`SET LOCAL search_path = planted, pg_catalog, public`);
      const { at } = await one<{ at: Date }>(
        admin,
        `INSERT INTO auditoria_eventos (tipo, actor, resultado, request_id)
         VALUES ('registro', 'sistema', 'ok', 'r') RETURNING at`,
      );
      expect(at.getUTCFullYear()).toBe(new Date().getUTCFullYear());
      const { hash } = await one<{ hash: Date }>(
        admin,
        `SELECT pg_catalog.now() - interval '1 minute' < $1 AS hash`,
        [at],
      );
      expect(hash).toBe(true);
    } finally {
      await admin.query('ROLLBACK');
    }
  });

  it('every function the migrations made resolves names by a fixed path', async () => {
    const { rows } = await admin.query<{ fn: string; config: string[] | null }>(
      `SELECT p.oid::regprocedure::text AS fn, p.proconfig AS config FROM pg_proc p
        WHERE p.pronamespace IN ('public'::regnamespace, $1::regnamespace)
          AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass
                           AND d.objid = p.oid AND d.deptype = 'e')`,
      [QUEUE],
    );
    expect(rows.length).toBeGreaterThan(10);
    const loose = rows.filter(
      (r) => !(r.config ?? []).some((c) => /^search_path=pg_catalog, (public, )?pg_temp$/.test(c)),
    );
    expect(loose).toEqual([]);
  });

  it('opens the month through its door only: no argument, no other instant', async () => {
    const opened = await runtime.query(`SELECT * FROM particiones_abrir_mes()`);
    expect(opened.rows).toEqual([]);
    await refused(runtime, `SELECT * FROM particiones_abrir_mes_en('2099-01-01')`);
    await refused(runtime, `SELECT setval('recetas_id_transaccion_seq', 209901000000000, false)`);
    await refused(
      runtime,
      `INSERT INTO particiones_aperturas (secuencia, periodo, primer_id, at)
       VALUES ('recetas.id_transaccion', '2099-01-01', 209901000000000, now())`,
    );
  });

  it("the door opens a month that has come: each id sequence at the month's first id, recorded", async () => {
    const now = new Date();
    const base = BigInt(now.getUTCFullYear() * 100 + now.getUTCMonth() + 1) * 1_000_000_000n;
    const sequences = ['recetas.id_transaccion', 'auditoria_eventos.id'];
    const saved = new Map<string, { last_value: string; is_called: boolean }>();
    const seq = (s: string) =>
      one<{ s: string }>(admin, `SELECT pg_get_serial_sequence($1, $2) AS s`, s.split('.'));
    await admin.query('BEGIN');
    try {
      // The sequences as they stood before this month opened (sequences are not transactional:
      // each is put back below).
      for (const s of sequences) {
        const name = (await seq(s)).s;
        saved.set(name, await one(admin, `SELECT last_value::text, is_called FROM ${name}`));
        await admin.query(`SELECT setval($1::regclass, $2::bigint - 10)`, [name, base.toString()]);
      }
      await admin.query(`DELETE FROM particiones_aperturas WHERE primer_id = $1`, [
        base.toString(),
      ]);
      await admin.query(`SET LOCAL ROLE ${runtimeRole}`);
      const { rows } = await admin.query<{ secuencia: string; primer_id: string }>(
        `SELECT secuencia, primer_id::text FROM particiones_abrir_mes() ORDER BY secuencia`,
      );
      expect(rows).toEqual(
        [...sequences].sort().map((secuencia) => ({ secuencia, primer_id: base.toString() })),
      );
      for (const name of saved.keys())
        expect(await one(admin, `SELECT last_value::text, is_called FROM ${name}`)).toEqual({
          last_value: base.toString(),
          is_called: false,
        });
    } finally {
      await admin.query('ROLLBACK');
      for (const [name, v] of saved)
        await admin.query(`SELECT setval($1::regclass, $2::bigint, $3)`, [
          name,
          v.last_value,
          v.is_called,
        ]);
    }
  });

  it('holds exactly the allowed privileges, and nothing else', async () => {
    const tables = await admin.query<{ root: string; name: string; privs: string[] }>(
      `SELECT root.oid::regclass::text AS root, c.oid::regclass::text AS name,
              coalesce((SELECT array_agg(priv ORDER BY priv) FROM unnest(
                ARRAY['SELECT','INSERT','UPDATE','DELETE','TRUNCATE','REFERENCES','TRIGGER']) priv
                WHERE has_table_privilege($1, c.oid, priv)), '{}') AS privs
         FROM pg_class c JOIN pg_class root ON root.oid = coalesce(pg_partition_root(c.oid), c.oid)
        WHERE c.relnamespace IN ('public'::regnamespace, $2::regnamespace)
          AND c.relkind IN ('r', 'p', 'v', 'm', 'f')`,
      [runtimeRole, QUEUE],
    );
    const rw = ['DELETE', 'INSERT', 'SELECT', 'UPDATE'];
    const allowed: Record<string, string[]> = {
      auditoria_eventos: ['INSERT', 'SELECT'],
      auditoria_sellos: ['INSERT', 'SELECT'],
      auditoria_purgas: ['SELECT'],
      particiones_aperturas: ['SELECT'],
      schema_migrations: ['SELECT'],
      [`${QUEUE}.job`]: rw,
      [`${QUEUE}.archive`]: rw,
      [`${QUEUE}.queue`]: ['SELECT'],
      [`${QUEUE}.version`]: ['SELECT'],
      [`${QUEUE}.schedule`]: ['SELECT'],
      [`${QUEUE}.subscription`]: ['SELECT'],
    };
    const wrong = tables.rows.filter(
      (t) => JSON.stringify(t.privs) !== JSON.stringify(allowed[t.root] ?? rw),
    );
    expect(wrong).toEqual([]);
    // Column privileges: only the queue's policy and the version's maintenance stamps.
    const columns = await admin.query<{ t: string; c: string }>(
      `SELECT a.attrelid::regclass::text AS t, a.attname AS c FROM pg_attribute a
         JOIN pg_class k ON k.oid = a.attrelid
        WHERE k.relnamespace IN ('public'::regnamespace, $2::regnamespace) AND a.attnum > 0
          AND NOT a.attisdropped AND k.relkind IN ('r', 'p')
          AND has_column_privilege($1, a.attrelid, a.attnum, 'UPDATE')
          AND NOT has_table_privilege($1, a.attrelid, 'UPDATE')
        ORDER BY 1, 2`,
      [runtimeRole, QUEUE],
    );
    expect(columns.rows).toEqual(
      [
        ...['cron_on', 'maintained_on', 'monitored_on'].map((c) => ({ t: `${QUEUE}.version`, c })),
        ...[
          'dead_letter',
          'expire_seconds',
          'policy',
          'retention_minutes',
          'retry_backoff',
          'retry_delay',
          'retry_limit',
          'updated_on',
        ].map((c) => ({ t: `${QUEUE}.queue`, c })),
      ].sort((a, b) => (a.t + a.c < b.t + b.c ? -1 : 1)),
    );
    // Sequences: draw and read, never set.
    const seqs = await admin.query<{ name: string; ok: boolean }>(
      `SELECT c.oid::regclass::text AS name,
              has_sequence_privilege($1, c.oid, 'USAGE') AND has_sequence_privilege($1, c.oid, 'SELECT')
              AND NOT has_sequence_privilege($1, c.oid, 'UPDATE') AS ok
         FROM pg_class c WHERE c.relkind = 'S' AND c.relnamespace = 'public'::regnamespace`,
      [runtimeRole],
    );
    expect(seqs.rows.filter((s) => !s.ok)).toEqual([]);
    // Schemas and the database: USAGE on its two, CREATE nowhere; TEMP may stay (SPEC 11.1).
    const { schemas } = await one<{ schemas: string[] }>(
      admin,
      `SELECT array_agg(nspname || ':' || concat_ws(',',
                CASE WHEN has_schema_privilege($1, oid, 'USAGE') THEN 'USAGE' END,
                CASE WHEN has_schema_privilege($1, oid, 'CREATE') THEN 'CREATE' END) ORDER BY nspname) AS schemas
         FROM pg_namespace WHERE nspname IN ('public', $2)
            OR (has_schema_privilege($1, oid, 'CREATE') AND nspname !~ '^pg_(toast_)?temp_')`,
      [runtimeRole, QUEUE],
    );
    expect(schemas).toEqual([`public:USAGE`, `${QUEUE}:USAGE`].sort());
    const database = await one<{ create: boolean; temp: boolean }>(
      admin,
      `SELECT has_database_privilege($1, current_database(), 'CREATE') AS create,
              has_database_privilege($1, current_database(), 'TEMP') AS temp`,
      [runtimeRole],
    );
    expect(database.create).toBe(false);
    // Functions of the application's and the queue's schemas it may call beyond PUBLIC's: the door.
    const { doors } = await one<{ doors: string[] }>(
      admin,
      `SELECT coalesce(array_agg(p.oid::regprocedure::text ORDER BY 1), '{}') AS doors FROM pg_proc p
        WHERE p.pronamespace IN ('public'::regnamespace, $2::regnamespace)
          AND has_function_privilege($1, p.oid, 'EXECUTE')
          AND NOT EXISTS (SELECT 1 FROM aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                           WHERE a.grantee = 0 AND a.privilege_type = 'EXECUTE')`,
      [runtimeRole, QUEUE],
    );
    expect(doors).toEqual(['particiones_abrir_mes()']);
    const { attrs } = await one<{ attrs: boolean[] }>(
      admin,
      `SELECT ARRAY[rolsuper, rolcreaterole, rolcreatedb, rolreplication, rolbypassrls] AS attrs
         FROM pg_roles WHERE rolname = $1`,
      [runtimeRole],
    );
    expect(attrs).toEqual([false, false, false, false, false]);
  });
});
