import pg from 'pg';
import type { QueryRunner } from 'typeorm';

/**
 * What the service's own role (DATABASE_URL's) may do when the migrations run as another role
 * (DATABASE_MIGRATION_URL; SPEC 11.1): read and write the ordinary tables, only read and append
 * to the declared append-only ones (the sealed event log, every partition as its parent), only
 * read the read-only ones, work the job queue's rows, and call the SECURITY DEFINER doors the
 * migrations made for it. It owns nothing and may create nothing: no schema, no table, no view,
 * no function, so nothing it leaves behind can run as the migration role. Never TRUNCATE,
 * REFERENCES or TRIGGER.
 */
export interface RuntimeAccess {
  /** DATABASE_URL; the role is whoever it connects as (`current_user`). */
  url: string;
  /** Tables it may only SELECT and INSERT (their partitions too). */
  appendOnly: readonly string[];
  /** Tables it may only SELECT (written by the migrations or operator commands). */
  readOnly: readonly string[];
  /** Functions it may call beyond those every role may: the migrations' SECURITY DEFINER doors. */
  functions: readonly string[];
  /** The job queue's schema (pg-boss's; created or upgraded by the migration role). */
  queueSchema: string;
}

/** The migration bookkeeping: the service reads nothing there, and writes nothing. */
const MIGRATIONS_TABLE = 'schema_migrations';

/**
 * pg-boss's tables as the service's pg-boss uses them: jobs and their archive read and written;
 * the queues' policies updated at start (JobQueue), never a queue created or deleted (the
 * migrations do: a row there names a table its functions create and drop); its bookkeeping's
 * maintenance times stamped, never its version (which the migration role's installer reads).
 */
const QUEUE_TABLES: Readonly<Record<string, string>> = {
  job: 'SELECT, INSERT, UPDATE, DELETE',
  archive: 'SELECT, INSERT, UPDATE, DELETE',
  queue: `SELECT, UPDATE (policy, retry_limit, retry_delay, retry_backoff, expire_seconds,
          retention_minutes, dead_letter, updated_on)`,
  version: 'SELECT, UPDATE (maintained_on, monitored_on, cron_on)',
  schedule: 'SELECT',
  subscription: 'SELECT',
};

export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The role a URL logs in as (a URL's user may be absent, or be mapped by the server). */
export async function roleOf(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ role: string }>('SELECT current_user AS role');
    return rows[0].role;
  } finally {
    await client.end();
  }
}

/** Everything `role` owns in this database (temporary schemas aside), by kind. */
const OWNED_SQL = `
  SELECT kind, name FROM (
    SELECT CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'i' THEN 'INDEX'
             WHEN 'I' THEN 'INDEX' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE'
             WHEN 'c' THEN 'TYPE' ELSE 'TABLE' END AS kind,
           c.oid::regclass::text AS name, c.relowner AS owner, c.relnamespace AS ns
      FROM pg_class c WHERE c.relkind <> 't'
    UNION ALL
    SELECT CASE p.prokind WHEN 'p' THEN 'PROCEDURE' WHEN 'a' THEN 'AGGREGATE' ELSE 'FUNCTION' END,
           p.oid::regprocedure::text, p.proowner, p.pronamespace FROM pg_proc p
    UNION ALL
    SELECT 'TYPE', t.oid::regtype::text, t.typowner, t.typnamespace FROM pg_type t
     WHERE t.typtype IN ('e', 'd', 'r', 'm', 'b') AND t.typrelid = 0 AND t.typelem = 0
    UNION ALL
    SELECT 'SCHEMA', quote_ident(n.nspname), n.nspowner, n.oid FROM pg_namespace n
    UNION ALL
    SELECT 'OPERATOR', o.oid::regoperator::text, o.oprowner, o.oprnamespace FROM pg_operator o
  ) o
  JOIN pg_namespace n ON n.oid = o.ns
  WHERE o.owner = (SELECT oid FROM pg_roles WHERE rolname = $1)
    AND n.nspname !~ '^pg_(toast_)?temp_'
  ORDER BY kind, name`;

/** What the migration role takes back: data, whose ownership carries no code. */
const DATA_KINDS = new Set(['TABLE', 'SEQUENCE', 'INDEX', 'SCHEMA']);

/**
 * Before anything runs as the migration role, what the runtime role owns. Data (an earlier
 * version let it own the job queue's schema and tables) is taken back. Anything that can hold
 * code — a view, a function, a type, an operator — is refused: the migration role would run it
 * (found: a view planted in place of pg-boss's version table called the runtime role's function
 * during the next migration). The operator checks and drops it, then starts again.
 */
export async function takeBackFromRuntime(q: QueryRunner, role: string): Promise<void> {
  const owned = (await q.query(OWNED_SQL, [role])) as Array<{ kind: string; name: string }>;
  const traps = owned.filter((o) => !DATA_KINDS.has(o.kind));
  if (traps.length > 0)
    throw new Error(
      `DATABASE_URL's role ${role} owns ${traps.map((o) => `${o.kind.toLowerCase()} ${o.name}`).join(', ')}: ` +
        "the service's role must own nothing that holds code, which the migration role could be made to run. " +
        'Check who made them, drop them (or ALTER … OWNER TO the migration role after reading them), then start again.',
    );
  // Schemas first (their objects' new owner must be able to reach them), indexes with their tables.
  for (const kind of ['SCHEMA', 'TABLE', 'SEQUENCE'])
    for (const o of owned.filter((x) => x.kind === kind))
      await q.query(`ALTER ${kind} ${o.name} OWNER TO CURRENT_USER`);
}

/** What grants cannot take away, and privileges only someone else can revoke (PUBLIC's). */
async function powersBeyondGrants(q: QueryRunner, role: string): Promise<string[]> {
  const [p] = (await q.query(
    `SELECT r.rolsuper AS superuser, r.rolcreaterole AS createrole,
            has_database_privilege(r.oid, current_database(), 'CREATE') AS create_db,
            (SELECT string_agg(n.nspname, ', ') FROM pg_namespace n
              WHERE has_schema_privilege(r.oid, n.oid, 'CREATE')
                AND n.nspname !~ '^pg_(toast_)?temp_') AS create_schemas
       FROM pg_roles r WHERE r.rolname = $1`,
    [role],
  )) as Array<{
    superuser: boolean;
    createrole: boolean;
    create_db: boolean;
    create_schemas: string | null;
  }>;
  const warnings: string[] = [];
  if (p?.superuser)
    warnings.push(`DATABASE_URL's role ${role} is a superuser: the grants do not bind it`);
  if (p?.createrole)
    warnings.push(`DATABASE_URL's role ${role} has CREATEROLE: it can give itself other roles`);
  if (p?.create_db)
    warnings.push(
      `DATABASE_URL's role ${role} may create schemas in this database (through PUBLIC?): REVOKE CREATE ON DATABASE … FROM PUBLIC`,
    );
  if (p?.create_schemas)
    warnings.push(
      `DATABASE_URL's role ${role} may create objects in schema ${p.create_schemas} (through PUBLIC?): REVOKE CREATE ON SCHEMA … FROM PUBLIC`,
    );
  return warnings;
}

/**
 * Brings the runtime role's privileges to exactly RuntimeAccess, idempotently; run by the
 * migration runner, as the migration role, after every migration run (so tables and partitions
 * created since are covered without ALTER DEFAULT PRIVILEGES, and a table declared append-only
 * later loses what it had). One transaction: an instance already running never sees a half state.
 * Answers what an operator should fix that grants cannot.
 */
export async function grantRuntimeRole(
  q: QueryRunner,
  role: string,
  access: RuntimeAccess,
): Promise<string[]> {
  const r = quoteIdent(role);
  await q.startTransaction();
  try {
    const schemas = (await q.query(
      `SELECT quote_ident(nspname) AS name FROM pg_namespace
        WHERE has_schema_privilege($1, oid, 'CREATE') AND nspname !~ '^pg_(toast_)?temp_'`,
      [role],
    )) as Array<{ name: string }>;
    for (const s of schemas) await q.query(`REVOKE CREATE ON SCHEMA ${s.name} FROM ${r}`);
    await q.query(`REVOKE CREATE ON DATABASE ${quoteIdent(await database(q))} FROM ${r}`);

    await q.query(`GRANT USAGE ON SCHEMA public TO ${r}`);
    // Partitions get their root table's privileges, whatever their names.
    const tables = (await q.query(
      `SELECT c.oid::regclass::text AS name, root.relname AS root
         FROM pg_class c JOIN pg_class root ON root.oid = coalesce(pg_partition_root(c.oid), c.oid)
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
        ORDER BY 1`,
    )) as Array<{ name: string; root: string }>;
    const appendOnly = new Set(access.appendOnly);
    const readOnly = new Set([...access.readOnly, MIGRATIONS_TABLE]);
    const missing = [...appendOnly, ...readOnly].filter((t) => !tables.some((x) => x.root === t));
    if (missing.length > 0)
      throw new Error(`runtime grants: no table ${missing.join(', ')} in schema public`);
    const privilegesOf = (root: string) =>
      readOnly.has(root)
        ? 'SELECT'
        : appendOnly.has(root)
          ? 'SELECT, INSERT'
          : 'SELECT, INSERT, UPDATE, DELETE';
    await grantByGroup(q, r, tables, privilegesOf);
    await q.query(`REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM ${r}`);
    await q.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${r}`);
    await q.query(`REVOKE ALL ON ALL FUNCTIONS IN SCHEMA public FROM ${r}`);
    for (const fn of access.functions) await q.query(`GRANT EXECUTE ON FUNCTION ${fn} TO ${r}`);

    await grantQueue(q, access.queueSchema, r);
    await q.commitTransaction();
    return await powersBeyondGrants(q, role);
  } catch (err) {
    await q.rollbackTransaction().catch(() => undefined);
    throw err;
  }
}

async function grantQueue(q: QueryRunner, schema: string, r: string): Promise<void> {
  const s = quoteIdent(schema);
  await q.query(`GRANT USAGE ON SCHEMA ${s} TO ${r}`);
  const tables = (await q.query(
    `SELECT c.oid::regclass::text AS name, root.relname AS root
       FROM pg_class c JOIN pg_class root ON root.oid = coalesce(pg_partition_root(c.oid), c.oid)
      WHERE c.relnamespace = $1::regnamespace AND c.relkind IN ('r', 'p')`,
    [s],
  )) as Array<{ name: string; root: string }>;
  await grantByGroup(q, r, tables, (root) => QUEUE_TABLES[root]);
  await q.query(`REVOKE ALL ON ALL FUNCTIONS IN SCHEMA ${s} FROM ${r}`);
}

/** REVOKE ALL on every table, then each set of privileges granted on its tables in one statement. */
async function grantByGroup(
  q: QueryRunner,
  r: string,
  tables: ReadonlyArray<{ name: string; root: string }>,
  privilegesOf: (root: string) => string | undefined,
): Promise<void> {
  if (tables.length === 0) return;
  await q.query(`REVOKE ALL ON TABLE ${tables.map((t) => t.name).join(', ')} FROM ${r}`);
  const groups = new Map<string, string[]>();
  for (const t of tables) {
    const privileges = privilegesOf(t.root);
    if (privileges) groups.set(privileges, [...(groups.get(privileges) ?? []), t.name]);
  }
  for (const [privileges, names] of groups)
    await q.query(`GRANT ${privileges} ON TABLE ${names.join(', ')} TO ${r}`);
}

async function database(q: QueryRunner): Promise<string> {
  const [{ name }] = (await q.query('SELECT current_database() AS name')) as Array<{
    name: string;
  }>;
  return name;
}
