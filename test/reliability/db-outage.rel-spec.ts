import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { RunningSandbox, startSandbox } from '../../sandbox/server.js';
import { generationBodyFor, registrationBody } from '../support/recetas.js';
import { cliClient, ServiceProcess, startServiceProcess } from '../support/service-process.js';
import { LogGuard } from './support/log-guard.js';
import { checkAnswer, rawRequest, RawResponse, sleep } from './support/raw-http.js';
import { startTcpProxy, TcpProxy } from './support/tcp-proxy.js';

const REQUEST_TIMEOUT_MS = 3000;

interface Attempt {
  cuir: string;
  phase: 'before' | 'down' | 'after';
  status: number;
  code?: string;
  ms: number;
}

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * The database goes away under load (every connection cut, new ones refused, at a TCP proxy
 * between the service and PostgreSQL) and comes back. Readiness follows it, requests fail
 * fast in the envelope meanwhile, and nothing that was acknowledged is lost.
 */
describe('database outage', () => {
  const guard = new LogGuard();
  let proxy: TcpProxy;
  let sandbox: RunningSandbox;
  let service: ServiceProcess;
  let client: { headers: Record<string, string> };
  let db: pg.Client;
  const schema = `pgboss_${randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    const target = new URL(process.env.TEST_DATABASE_URL as string);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    sandbox = await startSandbox({ port: 0, quiet: true });
    // A process of its own: what an outage does to the process (not only to requests) shows.
    service = await startServiceProcess({
      REFEPS_BASE_URL: sandbox.url,
      RENAPER_BASE_URL: sandbox.url,
      CATALOGO_BASE_URL: sandbox.url,
      MINISTERIO_BASE_URL: sandbox.url,
      QUEUE_SCHEMA: schema,
      LOG_LEVEL: 'info',
      DATABASE_URL: proxy.urlFor(target.toString()),
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      // Credentials are looked up again within the outage, not served from the cache throughout.
      AUTH_CACHE_TTL_MS: '1000',
      QUEUE_POLL_INTERVAL_SECONDS: '1',
      QUEUE_MAINTENANCE_INTERVAL_SECONDS: '1',
      MINISTRY_JOB_EXPIRE_SECONDS: '5',
      MINISTRY_RETRY_DELAY_SECONDS: '1',
      // Each poller takes one job per poll interval: 16 drain the load in seconds.
      MINISTRY_WORKER_CONCURRENCY: '16',
    });
    guard.watch('db-outage-process', () => service.output());
    client = await cliClient(`db-outage-${randomUUID()}`);
    guard.secret(client.headers['X-API-Secret']);
    // Checks go to the database directly, never through the proxy.
    db = new pg.Client({ connectionString: target.toString() });
    await db.connect();
  });
  afterAll(async () => {
    proxy?.restore();
    await service?.stop();
    await sandbox?.close();
    await proxy?.close();
    await db?.end();
  });

  const ready = () => {
    // Said plainly, rather than as the ECONNREFUSED that follows.
    if (service.child.exitCode !== null) {
      throw new Error(
        `the service process exited (code ${service.child.exitCode}) during the outage:\n${service.output().slice(-3000)}`,
      );
    }
    return rawRequest(service.url, { path: '/health/ready', timeoutMs: 10_000 });
  };
  const sandboxFault = async (setting: Record<string, unknown>) => {
    const res = await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(setting),
    });
    expect(res.status).toBe(200);
  };

  it('readiness goes 503 and back; requests fail fast with 500; acknowledged registrations survive', async () => {
    const attempts: Attempt[] = [];
    let phase: Attempt['phase'] = 'before';
    let stop = false;
    const worker = async () => {
      while (!stop) {
        const body = registrationBody();
        const at = phase;
        const started = performance.now();
        const post = (path: string, payload: unknown) =>
          rawRequest(service.url, {
            method: 'POST',
            path,
            headers: { ...client.headers, 'Content-Type': 'application/json' },
            body: JSON.stringify(payload),
            timeoutMs: 15_000,
          }).catch(() => ({ status: 0, body: undefined, ms: performance.now() - started }));
        // Issued first, as a platform does; an issuance the outage refused is the attempt's answer.
        const issued = await post('/v1/cuir/generar', generationBodyFor(body.cuir as string));
        const res: Pick<RawResponse, 'status' | 'body' | 'ms'> & Partial<RawResponse> =
          issued.status === 201 ? await post('/v1/recetas/registrar', body) : issued;
        if (res.status !== 0)
          checkAnswer(res as RawResponse, `registrar (${at})`, { allow500: true });
        attempts.push({
          cuir: body.cuir as string,
          phase: at,
          status: res.status,
          code: res.body?.error?.code,
          ms: res.ms,
        });
        // A steady load, not a flood: the point is the outage, not the delivery backlog.
        await sleep(phase === 'down' ? 50 : 100);
      }
    };
    const workers = Array.from({ length: 4 }, worker);
    try {
      await outageUnderLoad();
    } finally {
      stop = true;
      await Promise.all(workers);
    }
    await verify(attempts);

    async function outageUnderLoad() {
      // Slow ministry answers keep deliveries in flight when the database goes: their workers
      // then record the job's outcome against a database that is not there.
      await sandboxFault({ service: 'ministerio', mode: 'slow', delay_ms: 1000 });
      await sleep(1500);
      phase = 'down';
      proxy.cut();
      const notReady = await waitFor(
        'readiness 503',
        async () => {
          const r = await ready();
          return r.status === 503 ? r : undefined;
        },
        5000,
      );
      checkAnswer(notReady, 'GET /health/ready during the outage', { allow500: true });
      expect(notReady.body.error).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        details: [{ field: 'database', issue: 'down' }],
      });
      expect(notReady.ms).toBeLessThan(2000);
      // Longer than the credential cache and the request timeout: every path meets the outage.
      await sleep(REQUEST_TIMEOUT_MS + 1500);

      phase = 'after';
      proxy.restore();
      await sandboxFault({ service: 'ministerio', mode: 'ok' });
      await waitFor(
        'readiness 200',
        async () => ((await ready()).status === 200 ? true : undefined),
        20_000,
      );
      await waitFor(
        'a registration after the outage',
        () =>
          Promise.resolve(
            attempts.some((a) => a.phase === 'after' && a.status === 201) ? true : undefined,
          ),
        20_000,
      );
    }
  }, 120_000);

  async function verify(attempts: Attempt[]) {
    const during = attempts.filter((a) => a.phase === 'down');
    expect(during.length).toBeGreaterThanOrEqual(5);
    for (const a of during) {
      // Each failed in the envelope (checked above), as a 500, and did not hang.
      expect({ status: a.status, fastEnough: a.ms < REQUEST_TIMEOUT_MS + 1000 }).toEqual({
        status: expect.any(Number),
        fastEnough: true,
      });
      expect([201, 500]).toContain(a.status);
    }
    expect(during.filter((a) => a.status === 500).length).toBeGreaterThanOrEqual(during.length - 4);
    expect(attempts.filter((a) => a.phase === 'before' && a.status === 201).length).toBeGreaterThan(
      0,
    );

    // Nothing acknowledged is lost, nothing refused is half-written.
    const cuirs = attempts.map((a) => a.cuir);
    const { rows } = await db.query<{ cuir: string; id: string; historial: number; jobs: number }>(
      `SELECT r.cuir, r.id_transaccion::text AS id,
              (SELECT count(*)::int FROM receta_historial h WHERE h.id_transaccion = r.id_transaccion) AS historial,
              (SELECT count(*)::int FROM ${schema}.job j WHERE j.data->>'id_transaccion' = r.id_transaccion::text) AS jobs
         FROM recetas r WHERE r.cuir = ANY($1)`,
      [cuirs],
    );
    const stored = new Map(rows.map((r) => [r.cuir.trim(), r]));
    for (const a of attempts.filter((x) => x.status === 201))
      expect({ cuir: a.cuir, stored: stored.has(a.cuir) }).toEqual({ cuir: a.cuir, stored: true });
    for (const r of rows) {
      expect({ cuir: r.cuir, historial: r.historial >= 1, jobs: r.jobs >= 1 }).toEqual({
        cuir: r.cuir,
        historial: true,
        jobs: true,
      });
    }
    // ... and every acknowledged one reaches its final state once the database is back.
    const ids = rows.map((r) => r.id);
    let lastPending = '';
    await waitFor(
      'every stored registration COMPLETED',
      async () => {
        const { rows: pending } = await db.query(
          `SELECT count(*)::int AS n FROM recetas WHERE id_transaccion = ANY($1::bigint[]) AND estado <> 'COMPLETED'`,
          [ids],
        );
        lastPending = `${pending[0].n} of ${ids.length} not COMPLETED`;
        return pending[0].n === 0 ? true : undefined;
      },
      60_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}: ${lastPending}`);
    });
    // No job points at a prescription that does not exist.
    const { rows: orphans } = await db.query(
      `SELECT count(*)::int AS n FROM ${schema}.job j
        WHERE NOT EXISTS (SELECT 1 FROM recetas r WHERE r.id_transaccion::text = j.data->>'id_transaccion')
          AND j.data ? 'id_transaccion'`,
    );
    expect(orphans[0].n).toBe(0);
    // The process lived through it all. (pg-boss does not await the write of a worked job's
    // outcome; during the outage that write fails, and unhandled, it used to end the process.)
    expect(service.child.exitCode).toBeNull();
    expect(service.child.signalCode).toBeNull();
  }

  it('logs carry no document number, name or secret', () => {
    expect(guard.findings()).toEqual([]);
  });
});
