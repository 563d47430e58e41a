import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import pg from 'pg';
import { RunningSandbox, startSandbox } from '../../sandbox/server.js';
import { generationBodyFor, issueBodyCuir, registrationBody } from '../support/recetas.js';
import {
  cliClient,
  sandboxedEnv,
  ServiceProcess,
  startServiceProcess,
} from '../support/service-process.js';
import { sleep } from './support/raw-http.js';

interface Answer {
  status: number;
  retryAfter?: string;
  /** The connection failed or no answer came: never acceptable here. */
  error?: string;
  body: string;
}

/** A flood's client: no cap on connections, so the flood reaches the server at once. */
const flood = new Agent({ keepAlive: true, maxSockets: Infinity });

function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
  timeoutMs = 60_000,
): Promise<Answer> {
  return new Promise((resolve) => {
    const req = httpRequest(
      `${base}${path}`,
      {
        method,
        agent: flood,
        headers: { ...headers, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        timeout: timeoutMs,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'],
            body: text,
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer')));
    req.on('error', (err) => resolve({ status: 0, error: err.message, body: '' }));
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** The service's processes (other suites share the database: their sessions are not ours). */
function descendantsOf(pid: number): number[] {
  return [pid, ...childrenOf(pid).flatMap(descendantsOf)];
}

/** The processes whose parent is `pid` (from /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        // The parent's pid is the field after the state, past the command's parentheses.
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The heap the process says it uses, from /metrics (never shed: it answers during the flood). */
async function heapUsed(base: string): Promise<number> {
  const text = await fetch(`${base}/metrics`).then((r) => r.text());
  return Number(/^nodejs_heap_size_used_bytes (\d+(\.\d+)?)/m.exec(text)?.[1] ?? NaN);
}

/**
 * SPEC 13: overload never kills the service. Behaviour only (latency and goodput are the
 * benchmark's, `npm run bench -- --mix=national`): a flood far past the in-flight bound gets
 * only 2xx, 429 and 503 with Retry-After, the heap stays under its cap while it lasts and the
 * service is ready after; a write past its time answers 503 having stored nothing; in a cluster
 * a client's quota is one across the workers, the metrics are the whole service's, and a worker
 * killed mid-load is replaced without losing an acknowledged registration.
 */
describe('overload', () => {
  let sandbox: RunningSandbox;
  let service: ServiceProcess | undefined;
  let headers: Record<string, string>;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true });
    headers = (await cliClient(`overload-${randomUUID()}`)).headers;
  });
  afterEach(async () => {
    await service?.stop().catch(() => undefined);
    service = undefined;
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('a flood of 40 times the in-flight bound: 2xx, 429 or 503 with Retry-After; heap under its cap; ready after', async () => {
    const capMb = 96;
    service = await startServiceProcess(
      sandboxedEnv(sandbox.url, { HTTP_MAX_IN_FLIGHT: '8', LOG_LEVEL: 'error' }),
      { nodeArgs: [`--max-old-space-size=${capMb}`] },
    );
    const base = service.url;
    const heaps: number[] = [];
    let flooding = true;
    const sampler = (async () => {
      while (flooding) {
        heaps.push(await heapUsed(base));
        await sleep(50);
      }
    })();
    // Reads, writes with bodies and a search, all at once, twice over.
    const answers: Answer[] = [];
    for (let round = 0; round < 2; round++) {
      const body = registrationBody();
      await issueBodyCuir(service, { headers }, body);
      const batch = await Promise.all(
        Array.from({ length: 320 }, (_, i) =>
          i % 3 === 0
            ? send(base, 'POST', '/v1/recetas/registrar', headers, {
                ...registrationBody(),
                cuir: (body as { cuir: string }).cuir,
              })
            : i % 3 === 1
              ? send(base, 'GET', `/v1/medicamentos/buscar?q=ibuprofeno`, headers)
              : send(
                  base,
                  'GET',
                  `/v1/recetas/verificar/${(body as { cuir: string }).cuir}`,
                  headers,
                ),
        ),
      );
      answers.push(...batch);
    }
    flooding = false;
    await sampler;

    const statuses = new Map<number, number>();
    for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    const unexpected = answers.filter(
      (a) => a.error || ![200, 201, 404, 409, 422, 429, 503].includes(a.status),
    );
    expect(unexpected.slice(0, 3)).toEqual([]);
    expect(statuses.get(503) ?? 0).toBeGreaterThan(100);
    expect([...statuses.keys()].some((s) => s >= 200 && s < 300)).toBe(true);
    const withoutRetry = answers.filter((a) => [429, 503].includes(a.status) && !a.retryAfter);
    expect(withoutRetry).toEqual([]);
    for (const a of answers.filter((x) => x.status === 503))
      expect(JSON.parse(a.body)).toMatchObject({ error: { code: 'SERVICE_UNAVAILABLE' } });
    expect(heaps.length).toBeGreaterThan(3);
    expect(Math.max(...heaps)).toBeLessThan(capMb * 1024 * 1024);
    const ready = await fetch(`${base}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await heapUsed(base)).toBeLessThan(capMb * 1024 * 1024);
  }, 120_000);

  it('a write past its time answers 503 with Retry-After, and stored nothing', async () => {
    service = await startServiceProcess(
      sandboxedEnv(sandbox.url, { REQUEST_TIMEOUT_MS: '1000', LOG_LEVEL: 'error' }),
    );
    const body = registrationBody();
    await issueBodyCuir(service, { headers }, body);
    const cuir = (body as { cuir: string }).cuir;
    // The migration role holds the CUIR table: the registration's statement waits on it.
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const key = randomUUID();
    try {
      await admin.query('BEGIN');
      await admin.query('LOCK TABLE recetas_cuir IN SHARE MODE');
      const started = Date.now();
      const answer = await send(
        service.url,
        'POST',
        '/v1/recetas/registrar',
        { ...headers, 'Idempotency-Key': key },
        body,
      );
      expect(answer).toMatchObject({ status: 503, retryAfter: '1' });
      expect(JSON.parse(answer.body)).toMatchObject({
        error: {
          code: 'SERVICE_UNAVAILABLE',
          message: expect.stringMatching(/nothing was stored/),
        },
      });
      // Cancelled, not left to run: it answered soon after its time, the lock still held.
      expect(Date.now() - started).toBeLessThan(4000);
      const { rows } = await admin.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE wait_event_type = 'Lock' AND application_name = ANY($1)`,
        [descendantsOf(service.child.pid!).map((pid) => `prescription-registry ${pid}`)],
      );
      expect(rows[0].n).toBe(0);
    } finally {
      await admin.query('ROLLBACK');
    }
    const { rows } = await admin.query(`SELECT count(*)::int AS n FROM recetas WHERE cuir = $1`, [
      cuir,
    ]);
    await admin.end();
    expect(rows[0].n).toBe(0);
    // The key was not kept: the retry registers it.
    const retry = await send(
      service.url,
      'POST',
      '/v1/recetas/registrar',
      { ...headers, 'Idempotency-Key': key },
      body,
    );
    expect(retry.status).toBe(201);
  }, 60_000);

  it('two workers: one quota per client across both, the metrics of both, a killed worker replaced, no acknowledged registration lost', async () => {
    service = await startServiceProcess(
      sandboxedEnv(sandbox.url, { WEB_CONCURRENCY: '2', LOG_LEVEL: 'error' }),
    );
    const base = service.url;
    // Behind the parent-death wrapper (when it forks) the primary is the child's child.
    const primaryChildren = () => {
      const direct = childrenOf(service!.child.pid!);
      const nested = direct.flatMap(childrenOf);
      return nested.length > 0 ? nested : direct;
    };
    expect(primaryChildren().length).toBeGreaterThanOrEqual(2);

    // A quota of 6 a minute, spent over fresh connections (the primary spreads them).
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        ...['dist/src/cli/main.js', 'clients', 'create', '--name', `quota-${randomUUID()}`],
        ...['--scopes', 'all', '--rate-limit', '6', '--json'],
      ],
      { env: { ...process.env, DATABASE_URL: process.env.TEST_DATABASE_URL, LOG_LEVEL: 'silent' } },
    );
    const c = JSON.parse(stdout) as { key: string; secret: string };
    const limited = { 'X-API-Key': c.key, 'X-API-Secret': c.secret, Connection: 'close' };
    const quota: number[] = [];
    for (let i = 0; i < 10; i++)
      quota.push((await send(base, 'GET', '/v1/medicamentos/buscar?q=ibu', limited)).status);
    expect(quota).toEqual([...Array<number>(6).fill(200), ...Array<number>(4).fill(429)]);

    // /metrics answers for the whole service: both workers' pools.
    const metrics = await fetch(`${base}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/^db_pool_max_connections 10$/m);

    // Registrations while one worker is killed: every 201 is stored. A connection the primary
    // was handing to the worker as it died gets no answer (Node's round robin drops it): the
    // client's timeout ends it, as a platform's would, and it was never acknowledged.
    const acknowledged: string[] = [];
    let running = true;
    const load = (async () => {
      while (running) {
        const body = registrationBody() as { cuir: string };
        const cuir = await send(
          base,
          'POST',
          '/v1/cuir/generar',
          headers,
          generationBodyFor(body.cuir),
          5000,
        );
        if (cuir.status !== 201) continue;
        const a = await send(base, 'POST', '/v1/recetas/registrar', headers, body, 5000);
        if (a.status === 201) acknowledged.push(JSON.parse(a.body).data.id_transaccion as string);
      }
    })();
    await sleep(1000);
    const before = primaryChildren();
    process.kill(before[0], 'SIGKILL');
    await sleep(3000);
    running = false;
    await load;
    const after = primaryChildren();
    expect(after.length).toBe(before.length);
    expect(after).not.toContain(before[0]);
    expect((await fetch(`${base}/health/ready`)).status).toBe(200);
    expect(acknowledged.length).toBeGreaterThan(5);
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const { rows } = await admin.query(
      `SELECT count(*)::int AS n FROM recetas WHERE id_transaccion = ANY($1::bigint[])`,
      [acknowledged],
    );
    await admin.end();
    expect(rows[0].n).toBe(acknowledged.length);
  }, 180_000);
});
