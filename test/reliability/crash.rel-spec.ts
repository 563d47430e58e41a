import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { RunningSandbox, startSandbox } from '../../sandbox/server.js';
import { generationBodyFor, registrationBody } from '../support/recetas.js';
import {
  cliClient,
  sandboxedEnv,
  ServiceProcess,
  startServiceProcess,
} from '../support/service-process.js';
import { LogGuard } from './support/log-guard.js';
import { rawRequest, sleep } from './support/raw-http.js';

interface Attempt {
  cuir: string;
  status: number;
}

/**
 * SIGKILL under a registration load (contract §3: one transaction for the prescription, its items
 * and its notification job). After a restart, every 201 exists and reaches a final state; a
 * registration that got no answer is there completely or not at all.
 */
describe('crash: SIGKILL under load', () => {
  const guard = new LogGuard();
  let sandbox: RunningSandbox;
  let db: pg.Client;
  let env: Record<string, string>;
  let client: { headers: Record<string, string> };
  const processes: ServiceProcess[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true });
    // 16 pollers: a few hundred acknowledged registrations complete within seconds.
    env = sandboxedEnv(sandbox.url, { MINISTRY_WORKER_CONCURRENCY: '16', LOG_LEVEL: 'info' });
    client = await cliClient(`crash-${randomUUID()}`);
    guard.secret(client.headers['X-API-Secret']);
    db = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop().catch(() => undefined)));
    await sandbox.close();
    await db.end();
  });

  const start = async (name: string) => {
    const p = await startServiceProcess(env);
    processes.push(p);
    guard.watch(name, () => p.output());
    return p;
  };

  it('every 201 survives and completes; nothing half-written', async () => {
    const first = await start('crash-process-1');
    const attempts: Attempt[] = [];
    let killed = false;
    const worker = async () => {
      while (!killed) {
        const body = registrationBody();
        const post = (path: string, payload: unknown) =>
          rawRequest(first.url, {
            method: 'POST',
            path,
            fresh: true,
            headers: { ...client.headers, 'Content-Type': 'application/json' },
            body: JSON.stringify(payload),
            timeoutMs: 10_000,
          }).catch(() => ({ status: 0 }));
        // Issued first, as a platform does: an issuance the kill cut short is the attempt's answer.
        const issued = await post('/v1/cuir/generar', generationBodyFor(body.cuir as string));
        const res = issued.status === 201 ? await post('/v1/recetas/registrar', body) : issued;
        attempts.push({ cuir: body.cuir as string, status: res.status });
      }
    };
    const workers = Array.from({ length: 6 }, worker);
    // Killed mid-load, once enough registrations were acknowledged to judge (a slow machine
    // takes longer to get there: each registration is a generation and a registration).
    for (let waited = 0; waited < 15_000; waited += 100) {
      if (waited >= 1500 && attempts.filter((a) => a.status === 201).length > 15) break;
      await sleep(100);
    }
    await first.kill();
    killed = true;
    await Promise.all(workers);

    const acknowledged = attempts.filter((a) => a.status === 201);
    const unanswered = attempts.filter((a) => a.status !== 201);
    expect(acknowledged.length).toBeGreaterThan(10);
    // The kill landed mid-load: some requests got no answer at all.
    expect(attempts.some((a) => a.status === 0)).toBe(true);
    // No other answer than 201 or none (the load is valid registrations).
    expect(unanswered.filter((a) => a.status !== 0)).toEqual([]);

    await start('crash-process-2');
    const schema = env.QUEUE_SCHEMA;
    const tables = (
      await db.query<{ t: string }>(
        `SELECT format('%I.%I', table_schema, table_name) AS t FROM information_schema.tables
          WHERE table_schema = $1 AND table_name IN ('job', 'archive')`,
        [schema],
      )
    ).rows.map((r) => r.t);
    const jobsOf = tables
      .map((t) => `SELECT data->>'id_transaccion' AS id FROM ${t}`)
      .join(' UNION ALL ');
    const stateOf = async () =>
      (
        await db.query<{ cuir: string; estado: string; historial: number; jobs: number }>(
          `WITH jobs AS (${jobsOf})
           SELECT r.cuir, r.estado,
                  (SELECT count(*)::int FROM receta_historial h
                    WHERE h.id_transaccion = r.id_transaccion AND h.evento = 'REGISTRADA') AS historial,
                  (SELECT count(*)::int FROM jobs WHERE jobs.id = r.id_transaccion::text) AS jobs
             FROM recetas r WHERE r.cuir = ANY($1)`,
          [attempts.map((a) => a.cuir)],
        )
      ).rows.map((r) => ({ ...r, cuir: r.cuir.trim() }));

    // Every acknowledged registration reaches a final state after the restart.
    const until = Date.now() + 60_000;
    let rows = await stateOf();
    while (rows.some((r) => r.estado === 'PENDING') && Date.now() < until) {
      await sleep(500);
      rows = await stateOf();
    }
    const byCuir = new Map(rows.map((r) => [r.cuir, r]));
    for (const a of acknowledged) {
      expect({ cuir: a.cuir, estado: byCuir.get(a.cuir)?.estado }).toEqual({
        cuir: a.cuir,
        estado: 'COMPLETED',
      });
    }
    // Whatever exists (acknowledged or committed just before the kill) is whole: its
    // registration history row and its notification job.
    for (const r of rows) {
      expect({ cuir: r.cuir, historial: r.historial, hasJob: r.jobs >= 1 }).toEqual({
        cuir: r.cuir,
        historial: 1,
        hasJob: true,
      });
    }
    // And no job of this queue points at a prescription that does not exist.
    const orphans = await db.query<{ n: number }>(
      `WITH jobs AS (${jobsOf})
       SELECT count(*)::int AS n FROM jobs
        WHERE jobs.id IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM recetas r WHERE r.id_transaccion::text = jobs.id)`,
    );
    expect(orphans.rows[0].n).toBe(0);
    // Unanswered registrations either completed whole (committed before the kill) or left nothing.
    const unansweredStored = unanswered.filter((a) => byCuir.has(a.cuir)).length;
    expect(unansweredStored).toBeLessThanOrEqual(unanswered.length);
  }, 120_000);

  it('logs carry no document number, name or secret', () => {
    expect(guard.findings()).toEqual([]);
  });
});
