/**
 * The benchmark suite (issue 9): `npm run bench` (full, ~15 min) or `npm run bench -- --quick`
 * (~1.5 min). See BENCHMARKS.md for what each scenario measures and how to read the table.
 *
 * Flags: --quick, --only=a,b / --skip=a,b (registrar, listar, buscar, verificar, delivery,
 * levers, profile, explain), --rounds=N, --duration=S (max-throughput runs),
 * --fixed-duration=S, --rows=N (prescriptions of the big listing client), --jobs=N (delivery
 * backlog), --delivery-window=S (how long the default-config phase drains), --delivery-workers=N
 * (MINISTRY_WORKER_CONCURRENCY of the phase that drains the rest), --quiet-wait=S (before each
 * measured run, wait up to S seconds for the shared machine to be idle; 0 = never; full: 90),
 * --database-url=URL (else DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/test), --keep-db, --no-floor (skip the framework floor).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../sandbox/server.js';
import { MINISTRY_QUEUE } from '../src/recetas/notification-job.js';
import { LIST_COUNT_CAP } from '../src/recetas/recetas.service.js';
import { formatProfile, summariseProfile, type ProfileSummary } from './lib/cpuprofile.js';
import {
  createApiClient,
  createBenchDatabase,
  seedRecetas,
  syncCatalogue,
  vacuumAnalyze,
  type ApiCredentials,
  type BenchDatabase,
} from './lib/db.js';
import { explainListing, explainSearch, type ExplainEntry } from './lib/explain.js';
import {
  runAmount,
  runFixed,
  runMax,
  runPaced,
  type LoadResult,
  type RequestFactory,
} from './lib/load.js';
import {
  delay,
  heapOf,
  round1,
  round2,
  sampleCpu,
  sampleRss,
  startNodeProcess,
  waitQuiet,
  type CpuShare,
  type RssStats,
  type RunningProcess,
} from './lib/proc.js';
import {
  formatTable,
  formatTargets,
  tableRows,
  type RunRecord,
  type Target,
  type TargetCheck,
} from './lib/report.js';
import * as req from './lib/requests.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const RESULTS = join(ROOT, 'bench', 'results');
const PEPPER = 'bench-only-pepper-not-a-secret-0123456789';
/**
 * The node flags `npm start` (and the Dockerfile) run the service with, read from
 * package.json's start script, so the service is measured as it is deployed.
 */
const SERVICE_NODE_ARGS: string[] = (() => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const words = pkg.scripts.start.split(/\s+/);
  return words.slice(1, words.indexOf('dist/src/main.js'));
})();
const SCENARIOS = [
  'registrar',
  'listar',
  'buscar',
  'verificar',
  'delivery',
  'levers',
  'profile',
  'explain',
] as const;
type Scenario = (typeof SCENARIOS)[number];

interface Options {
  quick: boolean;
  scenarios: Set<Scenario>;
  baseUrl: string;
  keepDb: boolean;
  rounds: number;
  listarRounds: number;
  warmS: number;
  maxS: number;
  fixedS: number;
  /** Fixed-rate arrivals: evenly spaced (paced, the default) or autocannon's slices (bursts). */
  fixedShape: 'paced' | 'bursts';
  leverS: number;
  profileS: number;
  connections: number;
  bigRows: number;
  smallRows: number;
  catalogSize: number;
  deepPage: number;
  fixedRate: number;
  deliveryJobs: number;
  deliveryWindowS: number;
  deliveryWorkers: number;
  fixedBaseline: boolean;
  /** Also measure the framework floor (bench/floor-server.ts) in the max-throughput runs. */
  floor: boolean;
  explainRepeat: number;
  quietWaitS: number;
}

function parseOptions(argv: string[]): Options {
  const flags = new Map<string, string>();
  for (const a of argv) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    if (!m) throw new Error(`unknown argument ${a}`);
    flags.set(m[1], m[2] ?? 'true');
  }
  const quick = flags.get('quick') === 'true';
  const list = (v?: string) => (v ? (v.split(',').filter(Boolean) as Scenario[]) : undefined);
  for (const s of [...(list(flags.get('only')) ?? []), ...(list(flags.get('skip')) ?? [])])
    if (!SCENARIOS.includes(s)) throw new Error(`unknown scenario ${s}`);
  const defaults: Scenario[] = quick
    ? ['registrar', 'listar', 'buscar', 'verificar', 'delivery', 'explain']
    : [...SCENARIOS];
  const scenarios = new Set(list(flags.get('only')) ?? defaults);
  for (const s of list(flags.get('skip')) ?? []) scenarios.delete(s);
  const num = (k: string, d: number) => (flags.has(k) ? Number(flags.get(k)) : d);
  return {
    quick,
    scenarios,
    baseUrl:
      flags.get('database-url') ??
      process.env.DATABASE_URL ??
      'postgres://postgres@127.0.0.1:5432/test',
    keepDb: flags.get('keep-db') === 'true',
    rounds: num('rounds', quick ? 1 : 3),
    listarRounds: num('rounds', quick ? 1 : 2),
    warmS: quick ? 1 : 3,
    maxS: num('duration', quick ? 3 : 10),
    fixedS: num('fixed-duration', quick ? 4 : 15),
    fixedShape: flags.get('fixed-shape') === 'bursts' ? 'bursts' : 'paced',
    leverS: num('duration', 8),
    profileS: 10,
    connections: 64,
    bigRows: num('rows', quick ? 100_000 : 1_000_000),
    smallRows: 10_000,
    catalogSize: 50_000,
    deepPage: 1000,
    fixedRate: 200,
    deliveryJobs: num('jobs', quick ? 1_000 : 20_000),
    deliveryWindowS: num('delivery-window', quick ? 60 : 600),
    deliveryWorkers: num('delivery-workers', 64),
    fixedBaseline: !quick,
    floor: flags.get('no-floor') !== 'true',
    explainRepeat: quick ? 3 : 7,
    quietWaitS: num('quiet-wait', quick ? 0 : 90),
  };
}

const t0 = performance.now();
function log(msg: string): void {
  const s = Math.round((performance.now() - t0) / 1000);
  const stamp = `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
  process.stderr.write(`[bench ${stamp}] ${msg}\n`);
}
const out = (text: string) => process.stdout.write(`${text}\n`);
const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);
const brief = (l: LoadResult) =>
  `${l.ok_rps.toFixed(0)} ok req/s, p50 ${l.latency_ms.p50} p90 ${l.latency_ms.p90} p99 ${l.latency_ms.p99} ms` +
  (l.errors || l.non2xx ? `, ${l.errors} errors, ${l.non2xx} non-2xx` : '');
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};

/** The fixed-rate run of the chosen arrival shape (--fixed-shape). */
function fixedRate(
  o: Options,
  url: string,
  factory: RequestFactory,
  rate: number,
  durationS: number,
): Promise<LoadResult> {
  return o.fixedShape === 'paced'
    ? runPaced(url, factory, rate, durationS)
    : runFixed(url, factory, rate, durationS);
}

/** Settings of the service that an operator could have set in the bench's own environment. */
const SERVICE_KNOBS = [
  'LOG_LEVEL',
  'DATABASE_POOL_SIZE',
  'AUTH_CACHE_TTL_MS',
  'RATE_LIMIT_STORE',
  'MINISTRY_WORKER_CONCURRENCY',
  'QUEUE_POLL_INTERVAL_SECONDS',
  'REQUEST_TIMEOUT_MS',
  'REGISTRY_CACHE_TTL_SECONDS',
];

class Bench {
  readonly runs: RunRecord[] = [];
  readonly startups: Array<{ name: string; listen_ms: number; ready_ms: number }> = [];
  readonly processes = new Set<RunningProcess>();
  readonly extra: Record<string, unknown> = {};
  readonly incidents: Array<Record<string, unknown>> = [];
  profiles: Array<{ scenario: string; summary: ProfileSummary }> = [];
  explain: ExplainEntry[] = [];
  serviceEnv: Record<string, string> = {};

  constructor(
    readonly o: Options,
    readonly db: BenchDatabase,
  ) {}

  async startService(
    name: string,
    env: Record<string, string> = {},
    nodeArgs: string[] = [],
  ): Promise<RunningProcess> {
    const p = await startNodeProcess({
      name,
      script: 'dist/src/main.js',
      cwd: ROOT,
      env: { ...this.serviceEnv, ...env },
      nodeArgs: [...SERVICE_NODE_ARGS, ...nodeArgs],
      readyPath: '/health/ready',
    });
    this.processes.add(p);
    this.startups.push({ name, listen_ms: round1(p.listenMs), ready_ms: round1(p.readyMs) });
    log(`${name} ready in ${p.readyMs.toFixed(0)} ms (pid ${p.pid}, ${p.url})`);
    return this.managed(p, () => this.startService(name, env, nodeArgs));
  }

  /**
   * A handle that follows restarts: if the process died (a crash, or killed by someone else on
   * this shared machine), measure() records the incident and starts it again before the run.
   */
  managed(first: RunningProcess, start: () => Promise<RunningProcess>): RunningProcess {
    let cur = first;
    const handle: RunningProcess = {
      get name() {
        return cur.name;
      },
      get pid() {
        return cur.pid;
      },
      get url() {
        return cur.url;
      },
      get listenMs() {
        return cur.listenMs;
      },
      get readyMs() {
        return cur.readyMs;
      },
      get exited() {
        return cur.exited;
      },
      outputBytes: () => cur.outputBytes(),
      tail: () => cur.tail(),
      exit: () => cur.exit(),
      stop: (graceMs?: number) => cur.stop(graceMs),
      restart: async () => {
        const dead = cur;
        const how = dead.exit();
        const file = join(RESULTS, `incident-${Date.now()}.log`);
        writeFileSync(file, dead.tail());
        this.incidents.push({
          process: dead.name,
          pid: dead.pid,
          exit: how,
          at_s: Math.round((performance.now() - t0) / 1000),
          output_tail: file,
        });
        log(
          `${dead.name} (pid ${dead.pid}) had exited (code ${how?.code}, signal ${how?.signal}); ` +
            `its last output is in ${file}; restarting it`,
        );
        this.processes.delete(dead);
        const next = await start();
        this.processes.delete(next);
        cur = next;
        this.processes.add(handle);
        return handle;
      },
    };
    this.processes.delete(first);
    this.processes.add(handle);
    return handle;
  }

  /** The bare baseline (bench/baseline-server.ts): the service's SQL on node:http + pg. */
  startBaseline(): Promise<RunningProcess> {
    return this.startReference('baseline', 'dist/bench/baseline-server.js');
  }

  /** The framework floor (bench/floor-server.ts): the baseline's SQL served by bare NestJS. */
  startFloor(): Promise<RunningProcess> {
    return this.startReference('floor', 'dist/bench/floor-server.js');
  }

  /** A process serving bench/baseline-core.ts on the bench's database, with the service's pool size and count cap. */
  private async startReference(name: string, script: string): Promise<RunningProcess> {
    const p = await startNodeProcess({
      name,
      script,
      cwd: ROOT,
      env: {
        DATABASE_URL: this.db.url,
        DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE ?? '10',
        QUEUE_SCHEMA: 'pgboss',
        BASELINE_LIST_COUNT_CAP: String(LIST_COUNT_CAP),
      },
      readyPath: '/health/ready',
    });
    this.processes.add(p);
    log(`${name} ready in ${p.readyMs.toFixed(0)} ms (pid ${p.pid}, ${p.url})`);
    return this.managed(p, () => this.startReference(name, script));
  }

  async stop(p: RunningProcess): Promise<void> {
    await p.stop();
    this.processes.delete(p);
  }

  /** One load run against `p`, with its RSS sampled and its log volume counted. */
  async measure(
    p: RunningProcess,
    meta: { scenario: string; case: string; target: Target; variant?: string; round?: number },
    run: () => Promise<LoadResult>,
  ): Promise<RunRecord> {
    if (p.exit() && p.restart) await p.restart();
    const quiet = this.o.quietWaitS > 0 ? await waitQuiet(this.o.quietWaitS) : undefined;
    if (quiet && !quiet.quiet)
      log(
        `machine still busy (${quiet.busy_cores} cores) after ${quiet.waited_s} s: measuring anyway`,
      );
    const bytes = p.outputBytes();
    const sampler = sampleRss(p.pid);
    const cpuSampler = sampleCpu(p.pid);
    const load = await run();
    const cpu = cpuSampler.stop();
    const rss: RssStats = sampler.stop();
    const heap = meta.target === 'service' ? await heapOf(p.url) : undefined;
    const record: RunRecord = {
      ...meta,
      load,
      rss,
      ...(heap ? { heap_after: heap } : {}),
      cpu,
      ...(quiet ? { quiet_before: quiet } : {}),
      log_bytes_per_request: round1((p.outputBytes() - bytes) / Math.max(load.requests, 1)),
    };
    this.runs.push(record);
    const what = [
      meta.scenario,
      meta.case,
      meta.target,
      meta.variant,
      meta.round && `round ${meta.round}`,
    ]
      .filter(Boolean)
      .join(' / ');
    const mode = load.mode === 'fixed' ? `fixed ${load.offered_rps} rps` : `c=${load.connections}`;
    log(
      `${what} (${mode}): ${brief(load)}, RSS max ${rss.maxMb} MB; cores: ${p.name} ${cpu.target}, ` +
        `postgres ${cpu.postgres}, bench ${cpu.bench}, other ${cpu.other}`,
    );
    return record;
  }
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  const startedAt = new Date();
  mkdirSync(RESULTS, { recursive: true });
  log(`${o.quick ? 'quick' : 'full'} run: ${[...o.scenarios].join(', ')}`);

  const db = await createBenchDatabase(o.baseUrl);
  log(`database ${db.name} created`);
  const bench = new Bench(o, db);
  const sandbox = await startSandbox({ catalogSize: o.catalogSize, quiet: true });
  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const p of bench.processes) await p.stop().catch(() => undefined);
      await sandbox.close().catch(() => undefined);
      if (o.keepDb) log(`database kept: ${db.url}`);
      else await db.drop().then(() => log(`database ${db.name} dropped`));
    })());
  const onSignal = () => {
    log('interrupted: cleaning up');
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    await runSuite(bench, sandbox.url, startedAt);
  } finally {
    await cleanup();
  }
}

async function runSuite(bench: Bench, sandboxUrl: string, startedAt: Date): Promise<void> {
  const { o, db } = bench;
  bench.serviceEnv = {
    NODE_ENV: 'production',
    API_SECRET_PEPPER: PEPPER,
    DATABASE_URL: db.url,
    HOST: '127.0.0.1',
    PORT: '0',
    DEMO_CLIENT: 'false',
    REFEPS_BASE_URL: sandboxUrl,
    RENAPER_BASE_URL: sandboxUrl,
    CATALOGO_BASE_URL: sandboxUrl,
    MINISTERIO_BASE_URL: sandboxUrl,
    CATALOG_SYNC_INTERVAL_MINUTES: '0',
    MINISTRY_DELIVERY_ENABLED: 'false',
  };
  const env = bench.serviceEnv;
  const loadStart = os.loadavg();

  // ---- setup: clients (the CLI migrates the database), catalogue, listing data ----
  const clients = {
    reg: await createApiClient(ROOT, env, 'bench-registrar'),
    big: await createApiClient(ROOT, env, 'bench-listing-big'),
    small: await createApiClient(ROOT, env, 'bench-listing-small'),
    drain: await createApiClient(ROOT, env, 'bench-delivery'),
  };
  log('clients issued, database migrated');
  const sync = await syncCatalogue(ROOT, env);
  log(`catalogue mirror synced from the sandbox: ${sync.items} items in ${sync.duration_ms} ms`);
  const seedBigMs = await seedRecetas(db.pool, clients.big.id, o.bigRows, 30, 2);
  const seedSmallMs = await seedRecetas(db.pool, clients.small.id, o.smallRows, 30, 3);
  const vacuumStart = performance.now();
  await vacuumAnalyze(db.pool, ['recetas', 'medicamentos']);
  log(
    `seeded ${o.bigRows} + ${o.smallRows} prescriptions in ${((seedBigMs + seedSmallMs) / 1000).toFixed(1)} s, ` +
      `VACUUM ANALYZE ${((performance.now() - vacuumStart) / 1000).toFixed(1)} s`,
  );
  bench.extra.setup = {
    catalog_sync: sync,
    seed_ms: { big: Math.round(seedBigMs), small: Math.round(seedSmallMs) },
  };
  const codes = (
    await db.pool.query<{ code: string }>(
      'SELECT code FROM medicamentos ORDER BY md5(code) LIMIT 4',
    )
  ).rows.map((r) => r.code);
  const window = req.listingWindow();

  // ---- EXPLAIN first, on a quiet machine ----
  if (o.scenarios.has('explain')) {
    bench.explain = [
      ...(await explainListing(
        db.pool,
        {
          big: { id: clients.big.id, rows: o.bigRows },
          small: { id: clients.small.id, rows: o.smallRows },
        },
        window,
        o.deepPage,
        o.explainRepeat,
      )),
      ...(await explainSearch(db.pool, req.SEARCH_QUERIES, o.explainRepeat)),
    ];
    writeFileSync(
      join(RESULTS, 'explain.log'),
      bench.explain.map((e) => `### ${e.name}\n${e.plan}\n`).join('\n'),
    );
    for (const e of bench.explain)
      log(
        `EXPLAIN ${e.name}: execution ${e.execution_ms} ms${e.median_ms !== undefined ? `, median of plain runs ${e.median_ms} ms` : ''}`,
      );
  }

  const needsMain = ['registrar', 'listar', 'buscar', 'verificar'].some((s) =>
    o.scenarios.has(s as Scenario),
  );
  if (needsMain) {
    const svc = await bench.startService('service');
    const needsBaseline = o.scenarios.has('registrar') || o.scenarios.has('listar');
    const base = needsBaseline ? await bench.startBaseline() : undefined;
    const floor = needsBaseline && o.floor ? await bench.startFloor() : undefined;
    const as = (c: ApiCredentials) => ({ 'x-bench-client': c.id });

    if (o.scenarios.has('registrar') && base) {
      const s = req.registrar(clients.reg.headers);
      const b = req.registrar(as(clients.reg));
      await runMax(svc.url, s, o.connections, o.warmS);
      await runMax(base.url, b, o.connections, o.warmS);
      if (floor) await runMax(floor.url, b, o.connections, o.warmS);
      const baseMax: number[] = [];
      for (let round = 1; round <= o.rounds; round++) {
        const meta = { scenario: 'registrar', case: 'unique CUIR + key', round };
        await bench.measure(svc, { ...meta, target: 'service' }, () =>
          runMax(svc.url, s, o.connections, o.maxS),
        );
        const r = await bench.measure(base, { ...meta, target: 'baseline' }, () =>
          runMax(base.url, b, o.connections, o.maxS),
        );
        baseMax.push(r.load.ok_rps);
        if (floor)
          await bench.measure(floor, { ...meta, target: 'floor' }, () =>
            runMax(floor.url, b, o.connections, o.maxS),
          );
      }
      const rate = Math.max(10, Math.round(median(baseMax) / 2));
      bench.extra.registrar_fixed_rate = rate;
      const meta = { scenario: 'registrar', case: 'unique CUIR + key' };
      await bench.measure(svc, { ...meta, target: 'service' }, () =>
        fixedRate(o, svc.url, s, rate, o.fixedS),
      );
      if (o.fixedBaseline)
        await bench.measure(base, { ...meta, target: 'baseline' }, () =>
          fixedRate(o, base.url, b, rate, o.fixedS),
        );
      if (o.fixedBaseline && floor)
        await bench.measure(floor, { ...meta, target: 'floor' }, () =>
          fixedRate(o, floor.url, b, rate, o.fixedS),
        );
    }

    if (o.scenarios.has('listar') && base) {
      const cases = [
        { name: `${label(o.bigRows)} rows, page 1`, c: clients.big, page: 1 },
        { name: `${label(o.bigRows)} rows, page ${o.deepPage}`, c: clients.big, page: o.deepPage },
        { name: `${label(o.smallRows)} rows, page 1`, c: clients.small, page: 1 },
      ];
      await runMax(svc.url, req.listar(clients.small.headers, window, 1), o.connections, o.warmS);
      await runMax(base.url, req.listar(as(clients.small), window, 1), o.connections, o.warmS);
      if (floor)
        await runMax(floor.url, req.listar(as(clients.small), window, 1), o.connections, o.warmS);
      for (const k of cases) {
        const s = req.listar(k.c.headers, window, k.page);
        const b = req.listar(as(k.c), window, k.page);
        for (let round = 1; round <= o.listarRounds; round++) {
          const meta = { scenario: 'listar', case: k.name, round };
          await bench.measure(svc, { ...meta, target: 'service' }, () =>
            runMax(svc.url, s, o.connections, o.maxS),
          );
          await bench.measure(base, { ...meta, target: 'baseline' }, () =>
            runMax(base.url, b, o.connections, o.maxS),
          );
          if (floor)
            await bench.measure(floor, { ...meta, target: 'floor' }, () =>
              runMax(floor.url, b, o.connections, o.maxS),
            );
        }
      }
      for (const k of cases) {
        const meta = { scenario: 'listar', case: k.name };
        const s = req.listar(k.c.headers, window, k.page);
        await bench.measure(svc, { ...meta, target: 'service' }, () =>
          fixedRate(o, svc.url, s, o.fixedRate, o.fixedS),
        );
        if (o.fixedBaseline) {
          const b = req.listar(as(k.c), window, k.page);
          await bench.measure(base, { ...meta, target: 'baseline' }, () =>
            fixedRate(o, base.url, b, o.fixedRate, o.fixedS),
          );
          if (floor)
            await bench.measure(floor, { ...meta, target: 'floor' }, () =>
              fixedRate(o, floor.url, b, o.fixedRate, o.fixedS),
            );
        }
      }
    }
    if (base) await bench.stop(base);
    if (floor) await bench.stop(floor);

    if (o.scenarios.has('buscar')) {
      const items = `${label(sync.items)} items`;
      const s = req.buscar(clients.reg.headers, codes);
      const meta = { scenario: 'buscar', case: `${items}, mixed`, target: 'service' as const };
      await runMax(svc.url, s, o.connections, o.warmS);
      await bench.measure(svc, meta, () => runMax(svc.url, s, o.connections, o.maxS));
      await bench.measure(svc, meta, () => fixedRate(o, svc.url, s, o.fixedRate, o.fixedS));
      // The same searches with every request a cache miss: the search SQL's own cost.
      const cold = { ...meta, case: `${items}, cold (no cache hit)` };
      const terms = (
        await db.pool.query<{ t: string }>(
          'SELECT DISTINCT principio_activo_norm AS t FROM medicamentos ORDER BY 1 LIMIT 60',
        )
      ).rows.map((r) => r.t);
      await bench.measure(svc, cold, () =>
        runMax(svc.url, req.buscarCold(clients.reg.headers, terms), o.connections, o.maxS),
      );
      await bench.measure(svc, cold, () =>
        fixedRate(o, svc.url, req.buscarCold(clients.reg.headers, terms), o.fixedRate, o.fixedS),
      );
    }

    if (o.scenarios.has('verificar')) {
      const s = req.verificar(clients.reg.headers);
      const meta = { scenario: 'verificar', case: 'warm cache', target: 'service' as const };
      await runMax(svc.url, s, o.connections, o.warmS);
      await bench.measure(svc, meta, () => runMax(svc.url, s, o.connections, o.maxS));
      await bench.measure(svc, meta, () => fixedRate(o, svc.url, s, o.fixedRate, o.fixedS));
    }
    await bench.stop(svc);
  }

  if (o.scenarios.has('levers')) await levers(bench, clients, window);
  if (o.scenarios.has('profile')) await profiles(bench, clients, window, codes);
  if (o.scenarios.has('delivery'))
    await delivery(bench, clients.drain, sandboxUrl, [
      { name: 'defaults', env: {}, windowS: o.deliveryWindowS },
      {
        name: `MINISTRY_WORKER_CONCURRENCY=${o.deliveryWorkers}`,
        env: { MINISTRY_WORKER_CONCURRENCY: String(o.deliveryWorkers) },
      },
    ]);

  await report(bench, startedAt, loadStart);
}

/** The service with one setting changed at a time, against a default run made in the same block. */
async function levers(
  bench: Bench,
  clients: Record<string, ApiCredentials>,
  window: { desde: string; hasta: string },
): Promise<void> {
  const { o } = bench;
  const variants: Array<{ name: string; env: Record<string, string> }> = [
    { name: 'default (pool 10, LOG_LEVEL=info, auth cache 5 s)', env: {} },
    { name: 'LOG_LEVEL=warn', env: { LOG_LEVEL: 'warn' } },
    { name: 'DATABASE_POOL_SIZE=20', env: { DATABASE_POOL_SIZE: '20' } },
    { name: 'DATABASE_POOL_SIZE=5', env: { DATABASE_POOL_SIZE: '5' } },
    { name: 'AUTH_CACHE_TTL_MS=0 (no credential cache)', env: { AUTH_CACHE_TTL_MS: '0' } },
  ];
  for (const v of variants) {
    const svc = await bench.startService(`service [${v.name}]`, v.env);
    const reg = req.registrar(clients.reg.headers);
    await runMax(svc.url, reg, o.connections, 2);
    const meta = { target: 'service' as const, variant: v.name };
    await bench.measure(svc, { ...meta, scenario: 'lever', case: 'registrar' }, () =>
      runMax(svc.url, reg, o.connections, o.leverS),
    );
    const list = req.listar(clients.small.headers, window, 1);
    await bench.measure(
      svc,
      { ...meta, scenario: 'lever', case: `listar ${label(o.smallRows)} p1` },
      () => runMax(svc.url, list, o.connections, o.leverS),
    );
    const ver = req.verificar(clients.reg.headers);
    await bench.measure(svc, { ...meta, scenario: 'lever', case: 'verificar' }, () =>
      runMax(svc.url, ver, o.connections, o.leverS),
    );
    await bench.stop(svc);
  }
}

/** One service per scenario under `node --cpu-prof`, saturated at 64 connections. */
async function profiles(
  bench: Bench,
  clients: Record<string, ApiCredentials>,
  window: { desde: string; hasta: string },
  codes: string[],
): Promise<void> {
  const { o } = bench;
  // Every output matches .gitignore's bench/results/*.json or *.log (nothing here is committed).
  const dir = RESULTS;
  mkdirSync(dir, { recursive: true });
  const cases: Array<{ name: string; f: RequestFactory }> = [
    { name: 'registrar', f: req.registrar(clients.reg.headers) },
    { name: `listar-${label(o.smallRows)}`, f: req.listar(clients.small.headers, window, 1) },
    { name: `listar-${label(o.bigRows)}`, f: req.listar(clients.big.headers, window, 1) },
    { name: 'buscar', f: req.buscar(clients.reg.headers, codes) },
    { name: 'verificar', f: req.verificar(clients.reg.headers) },
  ];
  for (const k of cases) {
    const file = `cpu-${k.name}.cpuprofile.json`;
    const svc = await bench.startService(`service [cpu-prof ${k.name}]`, {}, [
      '--cpu-prof',
      '--cpu-prof-dir',
      dir,
      '--cpu-prof-name',
      file,
    ]);
    await runMax(svc.url, k.f, o.connections, 1);
    if (o.quietWaitS > 0) await waitQuiet(o.quietWaitS);
    const loadStart = performance.now();
    const r = await runMax(svc.url, k.f, o.connections, o.profileS);
    const loadEnd = performance.now();
    log(`profiled ${k.name}: ${brief(r)}`);
    await bench.stop(svc);
    const exitAt = performance.now();
    await delay(200);
    // Only the samples of the measured load (the profile ends when the process exits).
    const summary = summariseProfile(join(dir, file), {
      fromEndMs: exitAt - loadStart,
      toEndMs: exitAt - loadEnd,
    });
    bench.profiles.push({ scenario: k.name, summary });
  }
}

/**
 * Scenario 5: a backlog of `deliveryJobs` notifications enqueued by registering with delivery
 * paused (in a queue schema of its own, so the other scenarios' jobs stay out of it), then
 * drained by services with delivery on, phase after phase, each on what the previous one left.
 * A phase with `windowS` runs that long (its rate gives the projected drain time); the last
 * runs until every prescription of the backlog is final.
 */
async function delivery(
  bench: Bench,
  client: ApiCredentials,
  sandboxUrl: string,
  phases: Array<{
    name: string;
    env: Record<string, string>;
    windowS?: number;
    nodeArgs?: string[];
  }>,
): Promise<void> {
  const { o, db } = bench;
  const schema = 'bench_delivery';
  const n = o.deliveryJobs;
  const paused = await bench.startService('service [delivery paused]', { QUEUE_SCHEMA: schema });
  const enqueue = await bench.measure(
    paused,
    { scenario: 'delivery', case: `enqueue ${n}`, target: 'service' },
    () => runAmount(paused.url, req.registrar(client.headers), o.connections, n),
  );
  await bench.stop(paused);
  const count = async (sql: string, params: unknown[] = []) =>
    (await db.pool.query<{ n: number }>(sql, params)).rows[0].n;
  const jobs = await count(
    `SELECT count(*)::int AS n FROM ${schema}.job WHERE name = $1 AND state = 'created'`,
    [MINISTRY_QUEUE],
  );
  log(
    `delivery: ${jobs} jobs queued in ${schema} (${enqueue.load.status['201'] ?? 0} registrations)`,
  );
  const states = async () =>
    (
      await db.pool.query<{ completed: number; failed: number; pending: number }>(
        `SELECT count(*) FILTER (WHERE estado = 'COMPLETED')::int AS completed,
                count(*) FILTER (WHERE estado = 'FAILED')::int AS failed,
                count(*) FILTER (WHERE estado = 'PENDING')::int AS pending
           FROM recetas WHERE client_id = $1`,
        [client.id],
      )
    ).rows[0];

  const results: DeliveryPhase[] = [];
  let drained = false;
  for (const phase of phases) {
    if (drained) break;
    if (o.quietWaitS > 0) await waitQuiet(o.quietWaitS);
    const start = await states();
    const spawnAt = performance.now();
    const svc = await bench.startService(
      `service [delivery on, ${phase.name}]`,
      { QUEUE_SCHEMA: schema, MINISTRY_DELIVERY_ENABLED: 'true', ...phase.env },
      phase.nodeArgs,
    );
    const readyAt = spawnAt + svc.readyMs;
    const rssSampler = sampleRss(svc.pid);
    const cpuSampler = sampleCpu(svc.pid);
    const timeline: Array<{ t_s: number; done: number }> = [];
    const limitMs = phase.windowS ? phase.windowS * 1000 : Math.max(300_000, start.pending * 100);
    let last = start;
    let doneAt: number | undefined;
    for (;;) {
      last = await states();
      const now = performance.now();
      const done = last.completed + last.failed - start.completed - start.failed;
      timeline.push({ t_s: round2((now - spawnAt) / 1000), done });
      if (last.pending === 0) {
        doneAt = now;
        break;
      }
      if (now - readyAt > limitMs) break;
      await delay(250);
    }
    const endAt = performance.now();
    const cpu = cpuSampler.stop();
    const rss = rssSampler.stop();
    await bench.stop(svc);
    const settled = await states();
    const processed = settled.completed + settled.failed - start.completed - start.failed;
    // pg-boss completes a job after its handler's transaction: the queue empties last.
    const left = await count(
      `SELECT count(*)::int AS n FROM ${schema}.job WHERE name = $1 AND state < 'completed'`,
      [MINISTRY_QUEUE],
    );
    const at = (frac: number) => timeline.find((p) => p.done >= frac * processed);
    const a = at(0.1);
    const b = at(0.9);
    const steady =
      a && b && b.t_s > a.t_s ? round1((b.done - a.done) / (b.t_s - a.t_s)) : undefined;
    const seconds = ((doneAt ?? endAt) - spawnAt) / 1000;
    const rate = steady ?? processed / Math.max(seconds, 0.001);
    const result: DeliveryPhase = {
      phase: phase.name,
      backlog_at_start: start.pending,
      processed,
      seconds_from_spawn: round2(seconds),
      ready_ms: round1(svc.readyMs),
      drained: settled.pending === 0,
      jobs_per_s: round1(processed / Math.max(seconds, 0.001)),
      steady_jobs_per_s: steady ?? null,
      projected_drain_s_for_backlog: round1(n / Math.max(rate, 0.001)),
      failed_total: settled.failed,
      queue_jobs_unfinished_after_stop: left,
      cpu,
      cpu_ms_per_job: {
        service: round2((cpu.target * seconds * 1000) / Math.max(processed, 1)),
        postgres: round2((cpu.postgres * seconds * 1000) / Math.max(processed, 1)),
        sandbox_and_bench: round2((cpu.bench * seconds * 1000) / Math.max(processed, 1)),
      },
      rss,
    };
    results.push(result);
    drained = settled.pending === 0;
    log(
      `delivery [${phase.name}]: ${processed} jobs in ${result.seconds_from_spawn} s from spawn ` +
        `(${result.jobs_per_s} jobs/s, steady ${result.steady_jobs_per_s ?? '?'}; ` +
        `${n} would take ${result.projected_drain_s_for_backlog} s), ${settled.pending} left, ` +
        `RSS max ${rss.maxMb} MB; cores: service ${cpu.target}, postgres ${cpu.postgres}, bench ${cpu.bench}`,
    );
  }
  const punteros = (await fetch(`${sandboxUrl}/__sandbox/ministerio/punteros`).then((r) =>
    r.json(),
  )) as { punteros: Array<{ recepciones: number }> };
  const summary: DeliveryResult = {
    jobs,
    enqueue_ok_rps: enqueue.load.ok_rps,
    phases: results,
    drained,
    ministry_pointers: punteros.punteros.length,
    ministry_repeat_deliveries: punteros.punteros.filter((p) => p.recepciones > 1).length,
  };
  bench.extra.delivery = summary;
}

interface DeliveryPhase {
  phase: string;
  backlog_at_start: number;
  processed: number;
  seconds_from_spawn: number;
  ready_ms: number;
  drained: boolean;
  jobs_per_s: number;
  steady_jobs_per_s: number | null;
  projected_drain_s_for_backlog: number;
  failed_total: number;
  queue_jobs_unfinished_after_stop: number;
  cpu: CpuShare;
  cpu_ms_per_job: { service: number; postgres: number; sandbox_and_bench: number };
  rss: RssStats;
}

interface DeliveryResult {
  jobs: number;
  enqueue_ok_rps: number;
  phases: DeliveryPhase[];
  drained: boolean;
  ministry_pointers: number;
  ministry_repeat_deliveries: number;
}

async function report(bench: Bench, startedAt: Date, loadStart: number[]): Promise<void> {
  const { o, db } = bench;
  const rows = tableRows(bench.runs);
  const find = (scenario: string, casePrefix: string, mode: 'max' | 'fixed', target = 'service') =>
    rows.find(
      (r) =>
        r.scenario === scenario &&
        r.case.startsWith(casePrefix) &&
        r.mode.startsWith(mode) &&
        r.target === target,
    );
  /** The same case's p99 for the references, so a miss shows whether bare code meets it. */
  const refP99 = (scenario: string, casePrefix: string) => {
    const shown = ['floor', 'baseline']
      .map((t) => [t, find(scenario, casePrefix, 'fixed', t)] as const)
      .filter(([, r]) => r)
      .map(([t, r]) => `${t} ${r?.p99} ms`);
    return shown.length ? `; ${shown.join(', ')}` : '';
  };
  const checks: TargetCheck[] = [];
  const regMax = find('registrar', '', 'max');
  const regBase = find('registrar', '', 'max', 'baseline');
  const regFloor = find('registrar', '', 'max', 'floor');
  if (regMax && regBase)
    checks.push({
      target: 'registrar max throughput vs baseline',
      goal: '≥ 70% of baseline at 64 connections',
      measured: `${regMax.rps.toFixed(0)} vs ${regBase.rps.toFixed(0)} req/s = ${Math.round((100 * regMax.rps) / regBase.rps)}%${regFloor ? ` (floor ${regFloor.rps.toFixed(0)} = ${Math.round((100 * regFloor.rps) / regBase.rps)}%)` : ''}`,
      met: regMax.rps >= 0.7 * regBase.rps,
    });
  const regFixed = find('registrar', '', 'fixed');
  if (regFixed)
    checks.push({
      target: `registrar p99 at half the baseline's max (${regFixed.offered} req/s)`,
      goal: 'p99 ≤ 25 ms, offered rate sustained',
      measured: `p99 ${regFixed.p99} ms at ${regFixed.rps.toFixed(0)} ok req/s${refP99('registrar', '')}`,
      met: regFixed.p99 <= 25 && regFixed.rps >= 0.95 * (regFixed.offered ?? 0),
    });
  const listarTargets = [
    ...new Set(rows.filter((r) => r.scenario === 'listar').map((r) => r.target)),
  ].filter((t) => t.startsWith('service'));
  for (const t of listarTargets) {
    const tag = t === 'service' ? '' : ` — ${t}`;
    const big1 = find('listar', `${label(o.bigRows)} rows, page 1`, 'fixed', t);
    const small1 = find('listar', `${label(o.smallRows)} rows, page 1`, 'fixed', t);
    if (big1)
      checks.push({
        target: `listar p99 at ${label(o.bigRows)} rows, ${o.fixedRate} req/s${tag}`,
        goal: 'p99 ≤ 25 ms, offered rate sustained',
        measured: `p99 ${big1.p99} ms at ${big1.rps.toFixed(0)} ok req/s${tag ? '' : refP99('listar', `${label(o.bigRows)} rows, page 1`)}`,
        met: big1.p99 <= 25 && big1.rps >= 0.95 * o.fixedRate,
      });
    if (big1 && small1)
      checks.push({
        target: `listar p50 growth ${label(o.smallRows)} → ${label(o.bigRows)} rows (at ${o.fixedRate} req/s)${tag}`,
        goal: `p50(${label(o.bigRows)}) ≤ 2 × p50(${label(o.smallRows)})`,
        measured: `${big1.p50} ms vs ${small1.p50} ms = ${(big1.p50 / Math.max(small1.p50, 0.01)).toFixed(1)}×`,
        met: big1.rps > 0 && small1.rps > 0 ? big1.p50 <= 2 * small1.p50 : null,
      });
  }
  const busc = find('buscar', `${label(o.catalogSize)} items, mixed`, 'fixed');
  const buscCold = find('buscar', `${label(o.catalogSize)} items, cold`, 'fixed');
  if (buscCold)
    checks.push({
      target: `buscar p99, every request a cache miss, ${o.fixedRate} req/s`,
      goal: 'p99 ≤ 25 ms, offered rate sustained',
      measured: `p99 ${buscCold.p99} ms at ${buscCold.rps.toFixed(0)} ok req/s`,
      met: buscCold.p99 <= 25 && buscCold.rps >= 0.95 * o.fixedRate,
    });
  if (busc)
    checks.push({
      target: `buscar p99 on ${busc.case}, ${o.fixedRate} req/s`,
      goal: 'p99 ≤ 25 ms, offered rate sustained',
      measured: `p99 ${busc.p99} ms at ${busc.rps.toFixed(0)} ok req/s`,
      met: busc.p99 <= 25 && busc.rps >= 0.95 * o.fixedRate,
    });
  const serviceRuns = bench.runs.filter((r) => r.target === 'service');
  const deliveryResult = bench.extra.delivery as DeliveryResult | undefined;
  const delivered = deliveryResult?.phases ?? [];
  const rssMax = Math.max(
    0,
    ...serviceRuns.map((r) => r.rss.maxMb),
    ...delivered.map((d) => d.rss.maxMb),
  );
  checks.push({
    target: 'service RSS during the runs',
    goal: '≤ 300 MB',
    measured: `max ${rssMax} MB`,
    met: rssMax > 0 ? rssMax <= 300 : null,
  });
  const readies = bench.startups.filter((s) => !s.name.includes('cpu-prof')).map((s) => s.ready_ms);
  if (readies.length)
    checks.push({
      target: 'ready (spawn → /health/ready 200) on PostgreSQL',
      goal: '≤ 3000 ms',
      measured: `max ${Math.max(...readies)} ms, median ${median(readies)} ms over ${readies.length} starts`,
      met: Math.max(...readies) <= 3000,
    });

  const pg = await db.pool.query<{ version: string }>('SELECT version()');
  const settings = await db.pool.query<{ name: string; setting: string; unit: string | null }>(
    `SELECT name, setting, unit FROM pg_settings WHERE name IN ('shared_buffers', 'work_mem',
       'max_parallel_workers_per_gather', 'synchronous_commit', 'effective_cache_size', 'max_connections', 'jit')`,
  );
  const finishedAt = new Date();
  const results = {
    version: 1,
    mode: o.quick ? 'quick' : 'full',
    started_at: startedAt.toISOString(),
    finished_at: finishedAt.toISOString(),
    duration_s: Math.round((finishedAt.getTime() - startedAt.getTime()) / 1000),
    machine: {
      cpus: os.cpus().length,
      cpu_model: os.cpus()[0]?.model,
      memory_gb: round1(os.totalmem() / 2 ** 30),
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      loadavg_start: loadStart.map(round2),
      loadavg_end: os.loadavg().map(round2),
    },
    postgres: {
      version: pg.rows[0].version,
      settings: Object.fromEntries(
        settings.rows.map((s) => [s.name, `${s.setting}${s.unit ?? ''}`]),
      ),
    },
    settings: {
      connections: o.connections,
      rounds: o.rounds,
      listar_rounds: o.listarRounds,
      max_duration_s: o.maxS,
      fixed_duration_s: o.fixedS,
      fixed_rate: o.fixedRate,
      fixed_rate_shape:
        o.fixedShape === 'paced'
          ? 'open loop, evenly spaced arrivals (runPaced), latency from each due time'
          : '10 staggered autocannon instances (overallRate = rate/10, 4 connections each)',
      big_rows: o.bigRows,
      small_rows: o.smallRows,
      deep_page: o.deepPage,
      catalog_size: o.catalogSize,
      delivery_jobs: o.deliveryJobs,
      service_node_args: SERVICE_NODE_ARGS,
      service_env_overrides: Object.fromEntries(
        SERVICE_KNOBS.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]),
      ),
    },
    ...bench.extra,
    incidents: bench.incidents,
    table: rows,
    targets: checks,
    startups: bench.startups,
    explain: bench.explain.map(({ plan, ...e }) => ({ ...e, plan })),
    profiles: bench.profiles,
    runs: bench.runs,
  };
  const json = JSON.stringify(results, null, 2);
  writeFileSync(join(RESULTS, 'latest.json'), json);
  writeFileSync(
    join(RESULTS, `${results.mode}-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`),
    json,
  );
  const profileText = bench.profiles.map((p) => formatProfile(p.scenario, p.summary)).join('\n\n');
  if (profileText) writeFileSync(join(RESULTS, 'cpu-profiles-summary.log'), profileText);

  out('');
  out(
    `# Benchmark results (${results.mode}, ${results.duration_s} s, ${results.machine.cpus} cores, ${results.machine.node})`,
  );
  out('');
  out(formatTable(rows));
  out('');
  out('Targets:');
  out(formatTargets(checks));
  if (deliveryResult) {
    const d = deliveryResult;
    out('');
    out(
      `Ministry delivery: ${d.jobs} jobs queued (enqueued at ${d.enqueue_ok_rps} req/s); drained: ${d.drained}; ` +
        `pointers held by the ministry ${d.ministry_pointers}, delivered more than once ${d.ministry_repeat_deliveries}`,
    );
    for (const p of d.phases)
      out(
        `  ${p.phase}: ${p.processed} of ${p.backlog_at_start} in ${p.seconds_from_spawn} s from spawn = ${p.jobs_per_s} jobs/s ` +
          `(steady ${p.steady_jobs_per_s ?? '?'}); ${d.jobs} jobs at this rate: ${p.projected_drain_s_for_backlog} s; ` +
          `CPU ms/job: service ${p.cpu_ms_per_job.service}, postgres ${p.cpu_ms_per_job.postgres}; RSS max ${p.rss.maxMb} MB`,
      );
  }
  if (bench.explain.length) {
    out('');
    out(
      'EXPLAIN (ANALYZE, BUFFERS) — execution time / median of plain runs (plans in bench/results/explain.log):',
    );
    for (const e of bench.explain)
      out(
        `  ${e.execution_ms.toFixed(2).padStart(9)} ms / ${(e.median_ms ?? NaN).toFixed(2).padStart(9)} ms  ${e.name}`,
      );
  }
  if (profileText) {
    out('');
    out(profileText);
  }
  out('');
  out(`Startup: ${bench.startups.map((s) => `${s.name} ${s.ready_ms} ms`).join('; ')}`);
  out(`Written: bench/results/latest.json`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(
      `bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  },
);
