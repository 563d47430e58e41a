import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { RunningSandbox, startSandbox } from '../../sandbox/server.js';
import { runCli } from '../support/cli.js';
import { freshDatabase, FreshDatabase } from '../support/fresh-database.js';
import { issueBodyCuir, registrationBody } from '../support/recetas.js';
import { sandboxedEnv, ServiceProcess, startServiceProcess } from '../support/service-process.js';
import { LogGuard } from './support/log-guard.js';
import { rawRequest, sleep } from './support/raw-http.js';

/**
 * With DATABASE_MIGRATION_URL set, the service's own role (DATABASE_URL) does not own its
 * tables: it works normally, but it cannot rewrite the sealed event log (contract §8) — no
 * UPDATE, DELETE or TRUNCATE there, and no switching its triggers off.
 */
describe('runtime role: the service need not own its tables', () => {
  const guard = new LogGuard();
  const role = `prs_runtime_${randomBytes(5).toString('hex')}`;
  // A password, for servers that ask for one (the throwaway embedded cluster without DATABASE_URL).
  const password = randomBytes(12).toString('hex');
  let sandbox: RunningSandbox;
  let db: FreshDatabase;
  let admin: pg.Client;
  let runtimeUrl: string;
  let env: Record<string, string>;
  let service: ServiceProcess | undefined;

  const asAdmin = async (sql: string) => {
    const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await c.connect();
    await c.query(sql).finally(() => c.end());
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true });
    await asAdmin(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    db = await freshDatabase('runtime_role');
    const u = new URL(db.url);
    u.username = role;
    u.password = password;
    runtimeUrl = u.toString();
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    env = sandboxedEnv(sandbox.url, {
      DATABASE_URL: runtimeUrl,
      DATABASE_MIGRATION_URL: db.url,
      AUDIT_SEAL_SECONDS: '1',
    });
  });
  afterAll(async () => {
    await service?.stop().catch(() => undefined);
    await sandbox?.close();
    await admin?.end();
    await db?.drop();
    await asAdmin(`DROP ROLE IF EXISTS ${role}`);
  });

  const api = (path: string, headers: Record<string, string>, body?: unknown) =>
    rawRequest(service!.url, {
      method: body === undefined ? 'GET' : 'POST',
      path,
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs: 10_000,
    });

  const until = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const found = await probe();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(200);
    }
  };

  it('migrates with the migration role; the runtime role registers, cancels, reads and seals', async () => {
    service = await startServiceProcess(env);
    guard.watch('runtime-role', () => service!.output());

    const [{ owner }] = (
      await admin.query<{ owner: string }>(
        `SELECT tableowner AS owner FROM pg_tables WHERE tablename = 'auditoria_eventos'`,
      )
    ).rows;
    expect(owner).not.toBe(role);

    // The credentials tool: its data as the runtime role, its migrations as the migration role.
    const { stdout } = await runCli(
      ['clients', 'create', '--name', `rt-${randomUUID()}`, '--scopes', 'all', '--json'],
      { DATABASE_URL: runtimeUrl, DATABASE_MIGRATION_URL: db.url },
    );
    const created = JSON.parse(stdout) as { key: string; secret: string };
    guard.secret(created.secret);
    const headers = { 'X-API-Key': created.key, 'X-API-Secret': created.secret };

    const body = registrationBody();
    await issueBodyCuir(service, { headers }, body);
    const registered = await api('/v1/recetas/registrar', headers, body);
    expect(registered.status).toBe(201);
    const id = registered.body.data.id_transaccion as string;
    await until('the ministry delivery', async () => {
      const res = await api(`/v1/transacciones/${id}`, headers);
      return res.body.data?.estado === 'COMPLETED' ? res : undefined;
    });
    const cancelled = await api(`/v1/recetas/${id}/anular`, headers, {
      motivo: 'Error en la dosis prescripta',
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.estado_receta).toBe('ANULADA');

    const eventos = await api(`/v1/recetas/${id}/eventos`, headers);
    expect(eventos.status).toBe(200);
    expect((eventos.body.data.items as Array<{ tipo: string }>).map((e) => e.tipo)).toEqual(
      expect.arrayContaining(['registro', 'anulacion']),
    );

    // The service's sealer (every second) seals them as the runtime role.
    await until('a seal covering every event', async () => {
      const { rows } = await admin.query<{ pending: number; seals: number }>(
        `SELECT (SELECT count(*)::int FROM auditoria_eventos
                  WHERE xid >= COALESCE((SELECT max(xid_hasta) FROM auditoria_sellos), '0'::xid8)) AS pending,
                (SELECT count(*)::int FROM auditoria_sellos) AS seals`,
      );
      return rows[0].seals > 0 && rows[0].pending === 0 ? rows[0] : undefined;
    });
  });

  it('the runtime role cannot alter, delete from, truncate, or disable the triggers of, the event log', async () => {
    const runtime = new pg.Client({ connectionString: runtimeUrl });
    await runtime.connect();
    const refused = async (sql: string) => {
      const err = await runtime.query(sql).then(
        () => undefined,
        (e: { code?: string; message: string }) => e,
      );
      expect({ sql, code: err?.code }).toEqual({ sql, code: '42501' });
      expect(err?.message).toMatch(/permission denied|must be owner/);
    };
    try {
      for (const table of ['auditoria_eventos', 'auditoria_sellos', 'auditoria_purgas']) {
        await refused(`UPDATE ${table} SET at = at`);
        await refused(`DELETE FROM ${table}`);
        await refused(`TRUNCATE ${table}`);
        await refused(`ALTER TABLE ${table} DISABLE TRIGGER ALL`);
        await refused(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
        await refused(`DROP TABLE ${table}`);
      }
      await refused(`ALTER TABLE auditoria_eventos DISABLE TRIGGER auditoria_eventos_inmutable`);
      await refused(`ALTER TABLE auditoria_sellos DISABLE TRIGGER auditoria_sellos_hash`);
      // A purge is the operator's (the CLI, as the migration role), not the service's.
      await refused(
        `INSERT INTO auditoria_purgas (antes_de, sellos, eventos) VALUES (now(), '{}', 0)`,
      );
      await refused(`CREATE OR REPLACE FUNCTION auditoria_rechazar() RETURNS trigger
        LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$`);
      // It still reads the log (the /eventos route, the sealer, verify).
      const { rows } = await runtime.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM auditoria_eventos',
      );
      expect(rows[0].n).toBeGreaterThan(0);
    } finally {
      await runtime.end();
    }

    const verified = await runCli(['auditoria', 'verificar', '--json'], {
      DATABASE_URL: runtimeUrl,
      DATABASE_MIGRATION_URL: db.url,
    });
    const report = JSON.parse(verified.stdout) as { ok: boolean; sellos: number; eventos: number };
    expect(report).toMatchObject({ ok: true });
    expect(report.sellos).toBeGreaterThan(0);
    // pg-boss (its maintenance runs every second here) works in the schema the role owns.
    expect(service!.output()).not.toMatch(
      /permission denied|must be owner|job queue error|DATABASE_URL's role/,
    );
    expect(guard.findings()).toEqual([]);
  });
});
