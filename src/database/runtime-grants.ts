import pg from 'pg';
import type { QueryRunner } from 'typeorm';

/**
 * What the service's own role (DATABASE_URL's) may do, when the migrations run as another role
 * (DATABASE_MIGRATION_URL): read and write the ordinary tables, only read and append to the
 * declared append-only ones (the sealed event log), only read the read-only ones, and own the
 * schemas that are its working state (the job queue's: pg-boss changes its own tables at run
 * time). Never TRUNCATE, REFERENCES or TRIGGER, never ownership of an application table: so it
 * cannot ALTER TABLE … DISABLE TRIGGER or rewrite what it may only append to.
 */
export interface RuntimeAccess {
  /** DATABASE_URL; the role is whoever it connects as (`current_user`). */
  url: string;
  /** Tables it may only SELECT and INSERT. */
  appendOnly: readonly string[];
  /** Tables it may only SELECT (written by operator commands, run as the migration role). */
  readOnly: readonly string[];
  /**
   * Schemas it owns. Each is installed or upgraded first by the migration role (`install`, given
   * the migration URL) — its owner then need not be allowed to create schemas — and handed over.
   */
  ownedSchemas: readonly { name: string; install(migrationUrl: string): Promise<void> }[];
}

/** The migration bookkeeping: the service reads nothing there, and writes nothing. */
const MIGRATIONS_TABLE = 'schema_migrations';

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

/**
 * The objects of a schema that ALTER … OWNER TO can move one by one: relations (indexes and
 * column-owned sequences follow their table), functions, enums and domains; not an extension's.
 */
const OWNED_OBJECTS_SQL = `
  SELECT kind, name, owner FROM (
    SELECT CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW'
             WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END AS kind,
           c.oid::regclass::text AS name, pg_get_userbyid(c.relowner) AS owner,
           'pg_class'::regclass AS cls, c.oid
      FROM pg_class c
     WHERE c.relnamespace = $1::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
       AND NOT (c.relkind = 'S' AND EXISTS (SELECT 1 FROM pg_depend d
             WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('a', 'i')))
    UNION ALL
    SELECT CASE p.prokind WHEN 'p' THEN 'PROCEDURE' WHEN 'a' THEN 'AGGREGATE' ELSE 'FUNCTION' END,
           p.oid::regprocedure::text, pg_get_userbyid(p.proowner), 'pg_proc'::regclass, p.oid
      FROM pg_proc p WHERE p.pronamespace = $1::regnamespace
    UNION ALL
    SELECT CASE t.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END,
           t.oid::regtype::text, pg_get_userbyid(t.typowner), 'pg_type'::regclass, t.oid
      FROM pg_type t WHERE t.typnamespace = $1::regnamespace AND t.typtype IN ('e', 'd')
  ) o
  WHERE NOT EXISTS (SELECT 1 FROM pg_depend d
                     WHERE d.classid = o.cls AND d.objid = o.oid AND d.deptype = 'e')`;

/** Makes `to` the owner of the schema's objects (those of `from` only, when given). */
async function handOver(q: QueryRunner, schema: string, to: string, from?: string): Promise<void> {
  const objects = (await q.query(OWNED_OBJECTS_SQL, [quoteIdent(schema)])) as Array<{
    kind: string;
    name: string;
    owner: string;
  }>;
  for (const o of objects) {
    if (o.owner === to || (from !== undefined && o.owner !== from)) continue;
    await q.query(`ALTER ${o.kind} ${o.name} OWNER TO ${quoteIdent(to)}`);
  }
}

/**
 * What grants cannot take away: a superuser bypasses them, and the schema's owner (with
 * PostgreSQL 15's default, the database's owner) may DROP any table in it.
 */
async function powersBeyondGrants(q: QueryRunner, schema: string, role: string): Promise<string[]> {
  const [p] = (await q.query(
    `SELECT r.rolsuper AS superuser, pg_has_role(r.oid, n.nspowner, 'USAGE') AS owns_schema
       FROM pg_roles r, pg_namespace n WHERE r.rolname = $1 AND n.nspname = $2`,
    [role, schema],
  )) as Array<{ superuser: boolean; owns_schema: boolean }>;
  const warnings: string[] = [];
  if (p?.superuser)
    warnings.push(`DATABASE_URL's role ${role} is a superuser: the grants do not bind it`);
  if (p?.owns_schema)
    warnings.push(
      `DATABASE_URL's role ${role} owns schema ${schema} (or the database, which owns it): it can drop the event log; make the migration role the owner`,
    );
  return warnings;
}

/**
 * Brings the runtime role's privileges to exactly RuntimeAccess, idempotently; run by the
 * migration runner, as the migration role, after every migration run (so tables a migration
 * adds are covered without ALTER DEFAULT PRIVILEGES, and a table declared append-only later
 * loses what it had). One transaction: an instance already running never sees a half state.
 */
export async function grantRuntimeRole(
  q: QueryRunner,
  migrationUrl: string,
  role: string,
  access: RuntimeAccess,
): Promise<string[]> {
  const r = quoteIdent(role);
  const [{ schema, self }] = (await q.query(
    'SELECT current_schema() AS schema, current_user AS self',
  )) as Array<{ schema: string; self: string }>;
  for (const owned of access.ownedSchemas) await owned.install(migrationUrl);

  await q.startTransaction();
  try {
    // A deployment that used to run everything as DATABASE_URL's role: its tables change hands.
    await handOver(q, schema, self, role);

    const s = quoteIdent(schema);
    await q.query(`GRANT USAGE ON SCHEMA ${s} TO ${r}`);
    await q.query(`REVOKE CREATE ON SCHEMA ${s} FROM ${r}`);
    const tables = (await q.query(
      `SELECT c.relname AS name FROM pg_class c
        WHERE c.relnamespace = $1::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
        ORDER BY c.relname`,
      [s],
    )) as Array<{ name: string }>;
    const appendOnly = new Set(access.appendOnly);
    const readOnly = new Set([...access.readOnly, MIGRATIONS_TABLE]);
    const missing = [...appendOnly, ...readOnly].filter((t) => !tables.some((x) => x.name === t));
    if (missing.length > 0)
      throw new Error(`runtime grants: no table ${missing.join(', ')} in schema ${schema}`);
    for (const { name } of tables) {
      const privileges = readOnly.has(name)
        ? 'SELECT'
        : appendOnly.has(name)
          ? 'SELECT, INSERT'
          : 'SELECT, INSERT, UPDATE, DELETE';
      const t = `${s}.${quoteIdent(name)}`;
      await q.query(`REVOKE ALL ON TABLE ${t} FROM ${r}`);
      await q.query(`GRANT ${privileges} ON TABLE ${t} TO ${r}`);
    }
    await q.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${s} TO ${r}`);
    await q.query(`GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${s} TO ${r}`);

    for (const owned of access.ownedSchemas) {
      await q.query(`ALTER SCHEMA ${quoteIdent(owned.name)} OWNER TO ${r}`);
      await handOver(q, owned.name, role);
    }
    await q.commitTransaction();
    return await powersBeyondGrants(q, schema, role);
  } catch (err) {
    await q.rollbackTransaction().catch(() => undefined);
    throw err;
  }
}
