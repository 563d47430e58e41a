/**
 * `npm run bench -- --scale` (issue 30, item 4): are the hot paths' costs flat as the store
 * grows? One run, one service, one database:
 *
 * 1. At the start the database holds the usual 1M-row listing client (sealed DNIs, this month)
 *    and every case is measured: registrar, listar (page 1, a deep page, by documento),
 *    verification by CUIR, dispensar — each at a fixed paced rate, the same in both phases.
 * 2. Then `--scale-rows` prescriptions (default 50M) and `--scale-events` events (default twice
 *    as many) are seeded over `--scale-months` past months (default 60) and `--scale-clients`
 *    clients (lib/scale-seed.ts), and every case is measured again. Verification by CUIR then
 *    draws from every prescription, not only this month's.
 * 3. The sealer seals everything (`auditoria sellar`, as often as it takes) and `auditoria
 *    verificar` checks it all, then `--desde` a seal nine tenths along: their rates.
 * 4. Bytes per prescription and per event, and the 5-year projection at 2 million prescriptions a day.
 *
 * Results: stdout, and bench/results/scale-latest.json (with a timestamped copy).
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Bench } from '../lib/bench.js';
import { RESULTS, ROOT } from '../lib/bench.js';
import type { RequestFactory } from '../lib/load.js';
import { runPaced } from '../lib/load.js';
import { label, log, out } from '../lib/log.js';
import { round1, round2, type RunningProcess } from '../lib/proc.js';
import * as req from '../lib/requests.js';
import { dniOf, scaleCuir, sealingKeys, seedScale } from '../lib/scale-seed.js';
import { PEPPER, setUp, type Setup } from '../lib/setup.js';
import type { RuntimeId } from '../lib/runtime.js';
import type { RunRecord } from '../lib/table.js';
import { DispensablePool } from './dispensar.js';

const run = promisify(execFile);

/** A national repository's volume (issue 30): prescriptions a day, and the years kept. */
const PER_DAY = 2_000_000;
const YEARS = 5;

interface Case {
  name: string;
  /** Requests per second, paced, the same in both phases. */
  rate: number;
  factory: RequestFactory;
  /** Before the warm-up and the run (the dispensations' prescriptions). */
  prepare?: (n: number) => Promise<void>;
}

interface PhaseResult {
  case: string;
  rate: number;
  p50: number;
  p90: number;
  p99: number;
  ok: number;
  non2xx: number;
  cpu_us_per_ok?: { process: number; postgres: number };
}

export async function scale(bench: Bench, sandboxUrl: string, startedAt: Date): Promise<void> {
  const o = bench.o;
  const s = o.scale!;
  const loadStart = os.loadavg();
  const setup = await setUp(bench, sandboxUrl);
  const rt = o.runtimes[0];
  const svc = await bench.startService({ name: 'service', rt });
  const pool = new DispensablePool(bench, setup.clients.reg);
  const start = o.bigRows;

  const first = await phase(bench, svc, rt, cases(bench, setup, svc, pool, start), 'start');
  log(`phase 1 done; seeding ${s.rows} prescriptions and ${s.events} events`);

  const clients = [setup.clients.big.id, ...(await moreClients(bench, s.clients - 1))];
  const keys = sealingKeys(bench.serviceEnv.PATIENT_DATA_KEYS, PEPPER);
  const seed = await seedScale(bench.db.url, {
    rows: s.rows,
    events: s.events,
    months: s.months,
    clients,
    dispenser: setup.clients.disp.id,
    firstG: start + 1,
    keys,
  });
  const analyzeStart = performance.now();
  await bench.db.pool.query('ANALYZE recetas, recetas_cuir, receta_historial, auditoria_eventos');
  const analyzeS = round1((performance.now() - analyzeStart) / 1000);
  log(`seeded in ${seed.seconds} s; ANALYZE of the partitioned tables ${analyzeS} s`);

  const total = start + s.rows;
  const second = await phase(bench, svc, rt, cases(bench, setup, svc, pool, total), 'scaled');
  await bench.stop(svc);

  const sealing = await sealAll(bench);
  const verifying = await verifyRates(bench);
  const sizes = await sizesOf(bench);

  const report = {
    version: 1,
    mode: 'scale',
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpu_model: os.cpus()[0]?.model,
      memory_gb: round1(os.totalmem() / 2 ** 30),
      loadavg_start: loadStart.map(round2),
      loadavg_end: os.loadavg().map(round2),
    },
    runtime: bench.runtime(rt).version,
    settings: { ...s, start_rows: start, fixed_duration_s: o.fixedS },
    seed: { ...seed, analyze_s: analyzeS },
    phases: { start: first, scaled: second },
    sealing,
    verifying,
    sizes,
  };
  const file = join(RESULTS, `scale-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(report, null, 2));
  writeFileSync(join(RESULTS, 'scale-latest.json'), JSON.stringify(report, null, 2));
  print(report, label(start), label(total));
  log(`results: ${file}`);
}

/** The cases, with verification by CUIR over the first `rows` seeded prescriptions. */
function cases(
  bench: Bench,
  setup: Setup,
  svc: RunningProcess,
  pool: DispensablePool,
  rows: number,
): Case[] {
  const { big, reg, disp } = setup.clients;
  const w = setup.window;
  let n = 0;
  let d = 0;
  // Strides coprime with the row counts: every row is asked once before any twice.
  const cuir = () => scaleCuir(1 + ((n++ * 7919) % rows));
  let m = 0;
  const recent = () => scaleCuir(1 + ((m++ * 7919) % bench.o.bigRows));
  // Patients of the 1M-row client's prescriptions (g 1 … 1M), each a different one.
  const documento = () => dniOf(1 + ((d++ * 104_729) % bench.o.bigRows));
  const listarPath = (page: number, extra = '') =>
    `/v1/recetas/listar?fecha_desde=${encodeURIComponent(w.desde)}` +
    `&fecha_hasta=${encodeURIComponent(w.hasta)}&page=${page}&per_page=50${extra}`;
  return [
    { name: 'registrar', rate: 200, factory: req.registrar(reg.headers, reg.cuirs) },
    {
      name: 'listar, page 1',
      rate: 100,
      factory: () => ({ method: 'GET', path: listarPath(1), headers: big.headers }),
    },
    {
      name: `listar, page ${bench.o.deepPage}`,
      rate: 50,
      factory: () => ({ method: 'GET', path: listarPath(bench.o.deepPage), headers: big.headers }),
    },
    {
      name: 'listar by documento',
      rate: 100,
      factory: () => ({
        method: 'GET',
        path: listarPath(1, `&documento=${documento()}`),
        headers: big.headers,
      }),
    },
    // The prescriptions a pharmacy verifies are recent ones (valid 30 days): this month's 1M. Then
    // any of them, the first phase's 1M or years of them (mostly cold, read from disk).
    {
      name: 'verificar by CUIR, this month',
      rate: 200,
      factory: req.verificarCuir(disp.headers, recent),
    },
    {
      name: 'verificar by CUIR, any month',
      rate: 200,
      factory: req.verificarCuir(disp.headers, cuir),
    },
    {
      name: 'dispensar',
      rate: 100,
      factory: req.dispensar(disp.headers, pool.next),
      prepare: (k) => pool.fill(svc, k),
    },
  ];
}

const WARM_S = 3;

async function phase(
  bench: Bench,
  svc: RunningProcess,
  runtime: RuntimeId,
  list: Case[],
  name: string,
): Promise<PhaseResult[]> {
  const results: PhaseResult[] = [];
  // Every case once before any is measured (plans, caches, the JIT), in both phases alike.
  for (const c of list) {
    await c.prepare?.(Math.ceil(c.rate * WARM_S * 1.1) + 50);
    await runPaced(svc.url, c.factory, c.rate, WARM_S);
  }
  for (const c of list) {
    await c.prepare?.(Math.ceil(c.rate * (WARM_S + bench.o.fixedS) * 1.1) + 50);
    await runPaced(svc.url, c.factory, c.rate, WARM_S);
    const r: RunRecord = await bench.measure(
      svc,
      { scenario: 'scale', case: `${name}: ${c.name}`, target: 'service', runtime },
      () => runPaced(svc.url, c.factory, c.rate, bench.o.fixedS),
    );
    results.push({
      case: c.name,
      rate: c.rate,
      p50: r.load.latency_ms.p50,
      p90: r.load.latency_ms.p90,
      p99: r.load.latency_ms.p99,
      ok: r.load.requests - r.load.non2xx,
      non2xx: r.load.non2xx,
      ...(r.cpu_us_per_ok ? { cpu_us_per_ok: r.cpu_us_per_ok } : {}),
    });
  }
  return results;
}

/** Clients that own the seeded prescriptions beside the listing one (rows only: no credentials). */
async function moreClients(bench: Bench, n: number): Promise<string[]> {
  const { rows } = await bench.db.pool.query<{ id: string }>(
    `INSERT INTO api_clients (name, key, secret_hash)
     SELECT 'bench-scale-' || i, 'bench-scale-key-' || i || '-' || gen_random_uuid(), 'not a secret'
       FROM generate_series(1, $1::int) i
     RETURNING id::text`,
    [n],
  );
  return rows.map((r) => r.id);
}

/** The service's CLI on the bench database. */
async function cli(bench: Bench, args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['dist/src/cli/main.js', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...bench.serviceEnv, LOG_LEVEL: 'warn' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/**
 * `auditoria sellar` until nothing is left (each run seals at most 20 seals of 50,000 events):
 * the wall time, and the rate without each run's start (the time of a run with nothing to seal).
 */
async function sealAll(bench: Bench) {
  const t0 = performance.now();
  let runs = 0;
  let events = 0;
  let seals = 0;
  for (;;) {
    const r = JSON.parse(await cli(bench, ['auditoria', 'sellar', '--json'])) as {
      seals?: Array<{ eventos: number }>;
    };
    runs++;
    const written = r.seals ?? [];
    if (written.length === 0) break;
    seals += written.length;
    events += written.reduce((a, x) => a + x.eventos, 0);
    if (runs % 10 === 0) log(`sealed ${events} events in ${seals} seals`);
  }
  const wallS = (performance.now() - t0) / 1000;
  const idle0 = performance.now();
  await cli(bench, ['auditoria', 'sellar', '--json']);
  const startS = (performance.now() - idle0) / 1000;
  const netS = Math.max(0.001, wallS - runs * startS);
  log(`sealed ${events} events in ${seals} seals, ${round1(wallS)} s (${runs} runs)`);
  return {
    events,
    seals,
    runs,
    wall_s: round1(wallS),
    run_start_s: round2(startS),
    events_per_s: Math.round(events / wallS),
    events_per_s_without_starts: Math.round(events / netS),
  };
}

interface VerifyReport {
  ok: boolean;
  eventos: number;
  sellos: number;
  ultimo_sello: { id: string } | null;
  problemas: string[];
}

async function timedVerify(bench: Bench, args: string[]) {
  const t0 = performance.now();
  let text: string;
  try {
    text = await cli(bench, ['auditoria', 'verificar', '--json', ...args]);
  } catch (err) {
    // Exit 1 is a failed check: its report is on stdout all the same.
    text = (err as { stdout?: string }).stdout ?? '';
  }
  const s = (performance.now() - t0) / 1000;
  const r = JSON.parse(text) as VerifyReport;
  if (!r.ok) throw new Error(`verify ${args.join(' ')} failed: ${r.problemas.join('; ')}`);
  return {
    events: r.eventos,
    seals: r.sellos,
    s: round1(s),
    events_per_s: Math.round(r.eventos / s),
  };
}

async function verifyRates(bench: Bench) {
  const { rows } = await bench.db.pool.query<{ last: string }>(
    'SELECT max(id)::text AS last FROM auditoria_sellos',
  );
  const last = Number(rows[0].last);
  const fixed = await timedVerify(bench, ['--desde', String(last)]);
  log(`verify: the command's fixed cost ${fixed.s} s`);
  const full = await timedVerify(bench, []);
  log(`verify, full: ${full.events} events in ${full.s} s`);
  const from = Math.floor(last * 0.9);
  const tail = await timedVerify(bench, ['--desde', String(from)]);
  const net = (r: { events: number; s: number }) =>
    Math.round(r.events / Math.max(0.001, r.s - fixed.s));
  return {
    full: { ...full, events_per_s_without_start: net(full) },
    desde: { from, ...tail, events_per_s_without_start: net(tail) },
    start_s: fixed.s,
  };
}

/** On-disk bytes (heap, TOAST, indexes) of each family of tables, per row, and the projection. */
async function sizesOf(bench: Bench) {
  const q = bench.db.pool;
  const size = async (table: string) => {
    const { rows } = await q.query<{ bytes: string; partitions: number }>(
      `SELECT COALESCE(sum(pg_total_relation_size(c.oid)), 0)::text AS bytes, count(*)::int AS partitions
         FROM pg_class c WHERE c.oid = $1::regclass
            OR c.oid IN (SELECT relid FROM pg_partition_tree($1::regclass))`,
      [table],
    );
    return { bytes: Number(rows[0].bytes), partitions: Math.max(0, rows[0].partitions - 1) };
  };
  const count = async (table: string) =>
    Number((await q.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`)).rows[0].n);
  const recetas = await count('recetas');
  const eventos = await count('auditoria_eventos');
  const families = {
    recetas: await size('recetas'),
    recetas_cuir: await size('recetas_cuir'),
    receta_historial: await size('receta_historial'),
    auditoria_eventos: await size('auditoria_eventos'),
    auditoria_sellos: await size('auditoria_sellos'),
  };
  const perReceta =
    (families.recetas.bytes + families.recetas_cuir.bytes + families.receta_historial.bytes) /
    recetas;
  const perEvento = families.auditoria_eventos.bytes / eventos;
  const fiveYears = PER_DAY * 365 * YEARS;
  const eventsPerReceta = eventos / recetas;
  const database = Number(
    (await q.query<{ b: string }>('SELECT pg_database_size(current_database())::text AS b')).rows[0]
      .b,
  );
  return {
    rows: { recetas, auditoria_eventos: eventos },
    families,
    database_bytes: database,
    bytes_per_prescription: Math.round(perReceta),
    bytes_per_event: Math.round(perEvento),
    projection: {
      prescriptions: fiveYears,
      events: Math.round(fiveYears * eventsPerReceta),
      events_per_prescription: round2(eventsPerReceta),
      prescriptions_tb: round2((fiveYears * perReceta) / 1e12),
      events_tb: round2((fiveYears * eventsPerReceta * perEvento) / 1e12),
    },
  };
}

type Report = {
  phases: { start: PhaseResult[]; scaled: PhaseResult[] };
  seed: { seconds: number; analyze_s: number };
  sealing: Awaited<ReturnType<typeof sealAll>>;
  verifying: Awaited<ReturnType<typeof verifyRates>>;
  sizes: Awaited<ReturnType<typeof sizesOf>>;
};

function print(r: Report, small: string, big: string): void {
  out(`\nFlat costs (paced fixed rates; p50 / p99 ms at ${small} and at ${big} prescriptions):`);
  out(
    `| case | rate | p50 ${small} | p50 ${big} | × | p99 ${small} | p99 ${big} | × | PG µs/req ${small} → ${big} |`,
  );
  out('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const a of r.phases.start) {
    const b = r.phases.scaled.find((x) => x.case === a.case)!;
    const x = (u: number, v: number) => (u > 0 ? (v / u).toFixed(2) : '-');
    out(
      `| ${a.case} | ${a.rate} | ${a.p50} | ${b.p50} | ${x(a.p50, b.p50)} | ${a.p99} | ${b.p99} | ` +
        `${x(a.p99, b.p99)} | ${a.cpu_us_per_ok?.postgres ?? '-'} → ${b.cpu_us_per_ok?.postgres ?? '-'} |` +
        (a.non2xx || b.non2xx ? ` non-2xx ${a.non2xx} / ${b.non2xx}` : ''),
    );
  }
  const z = r.sizes;
  out(
    `\nSizes: ${z.rows.recetas} prescriptions, ${z.bytes_per_prescription} B each (with their CUIR ` +
      `and history rows, indexes included); ${z.rows.auditoria_eventos} events, ${z.bytes_per_event} B each; ` +
      `database ${(z.database_bytes / 1e9).toFixed(1)} GB. 5 years at ${PER_DAY} a day: ` +
      `${z.projection.prescriptions_tb} TB of prescriptions, ${z.projection.events_tb} TB of events ` +
      `(${z.projection.events_per_prescription} events each).`,
  );
  out(
    `Seed ${r.seed.seconds} s, ANALYZE ${r.seed.analyze_s} s. Seal: ${r.sealing.events} events in ` +
      `${r.sealing.seals} seals, ${r.sealing.wall_s} s (${r.sealing.events_per_s}/s; ` +
      `${r.sealing.events_per_s_without_starts}/s without the ${r.sealing.runs} command starts).`,
  );
  const v = r.verifying;
  out(
    `Verify, full: ${v.full.events} events in ${v.full.seals} seals, ${v.full.s} s ` +
      `(${v.full.events_per_s}/s; ${v.full.events_per_s_without_start}/s without the command's ${v.start_s} s start). ` +
      `--desde ${v.desde.from}: ${v.desde.events} events, ${v.desde.s} s (${v.desde.events_per_s_without_start}/s without the start).`,
  );
}
