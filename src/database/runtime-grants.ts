import pg from 'pg';
import type { QueryRunner } from 'typeorm';

/**
 * What DATABASE_URL's role may do when the migrations run as another role (SPEC 11.1): read and
 * write ordinary tables, only append to or only read the declared ones (partitions as their
 * parent), work the job queue's rows, call the migrations' SECURITY DEFINER doors. It owns and
 * may create nothing, so nothing it leaves can run as the migration role.
 */
export interface RuntimeAccess {
  /** DATABASE_URL; the role is whoever it connects as. */
  url: string;
  appendOnly: readonly string[];
  readOnly: readonly string[];
  /** The SECURITY DEFINER doors it may call. */
  functions: readonly string[];
  queueSchema: string;
}

const MIGRATIONS_TABLE = 'schema_migrations';

/**
 * pg-boss's tables as the service uses them: queues' policies updated at start, never a queue
 * created (a row names a table its functions create); maintenance stamped, never the version.
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

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The role a URL logs in as (its user may be absent, or mapped by the server). */
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
 * Before anything runs as the migration role: data the runtime role owns is taken back, and
 * anything that can hold code (view, function, type, operator) is refused, since the migration
 * role could be made to run it.
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
  // Schemas first (the new owner must reach their objects); indexes go with their tables.
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
  return [
    p?.superuser && 'is a superuser: the grants do not bind it',
    p?.createrole && 'has CREATEROLE: it can give itself other roles',
    p?.create_db &&
      'may create schemas in this database (through PUBLIC?): REVOKE CREATE ON DATABASE … FROM PUBLIC',
    p?.create_schemas &&
      `may create objects in schema ${p.create_schemas} (through PUBLIC?): REVOKE CREATE ON SCHEMA … FROM PUBLIC`,
  ].flatMap((w) => (w ? [`DATABASE_URL's role ${role} ${w}`] : []));
}

/**
 * Brings the runtime role's privileges to exactly RuntimeAccess, in one transaction, after every
 * migration run (new tables and partitions covered). Answers what grants cannot fix.
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
    const [{ db }] = (await q.query('SELECT current_database() AS db')) as Array<{ db: string }>;
    await q.query(`REVOKE CREATE ON DATABASE ${quoteIdent(db)} FROM ${r}`);

    await q.query(`GRANT USAGE ON SCHEMA public TO ${r}`);
    // Partitions get their root table's privileges, whatever their names.
    const tables = await tablesOf(q, 'public', `'r', 'p', 'v', 'm', 'f'`);
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

    const s = quoteIdent(access.queueSchema);
    await q.query(`GRANT USAGE ON SCHEMA ${s} TO ${r}`);
    await grantByGroup(q, r, await tablesOf(q, s, `'r', 'p'`), (root) => QUEUE_TABLES[root]);
    await q.query(`REVOKE ALL ON ALL FUNCTIONS IN SCHEMA ${s} FROM ${r}`);
    await q.commitTransaction();
    return await powersBeyondGrants(q, role);
  } catch (err) {
    await q.rollbackTransaction().catch(() => undefined);
    throw err;
  }
}

/** A schema's tables of these kinds, each with its partition root's name. */
async function tablesOf(
  q: QueryRunner,
  schema: string,
  kinds: string,
): Promise<Array<{ name: string; root: string }>> {
  return (await q.query(
    `SELECT c.oid::regclass::text AS name, root.relname AS root
       FROM pg_class c JOIN pg_class root ON root.oid = coalesce(pg_partition_root(c.oid), c.oid)
      WHERE c.relnamespace = $1::regnamespace AND c.relkind IN (${kinds})
      ORDER BY 1`,
    [schema],
  )) as Array<{ name: string; root: string }>;
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
