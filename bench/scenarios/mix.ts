/**
 * `npm run bench -- --mix=national` (SPEC 13, "The national peak mix"): the Argentine peak,
 * open loop, against one service on PostgreSQL with the sandbox in its own process. One run at
 * `--rate` for `--duration` after `--warmup`, or with `--capacity` the search for the highest
 * multiple within the p99 limit and then a flood at twice it. Results: stdout (markdown), and
 * bench/results/mix-national-latest.json with a timestamped copy. See BENCHMARKS.md.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { RESULTS, ROOT, serviceNodeArgs, type Bench, type Build } from '../lib/bench.js';
import { log, out } from '../lib/log.js';
import { mixCpuSampler, postmasterOf } from '../lib/mix-cpu.js';
import {
  formatCapacity,
  formatRun,
  formatRunNotes,
  type CapacityReport,
  type CapacityStep,
  type MixRun,
} from '../lib/mix-report.js';
import { NATIONAL_MIX, type MixState } from '../lib/mix-requests.js';
import {
  CITIZENS,
  MIX_ENV,
  PHARMACIES,
  PLATFORMS,
  seeded,
  seedThroughApi,
  setUpMix,
} from '../lib/mix-setup.js';
import { MixRecorder, withinCapacity } from '../lib/mix-stats.js';
import { runOpenLoop, Sender } from '../lib/open-loop.js';
import { delay, round1, round2, type RunningProcess } from '../lib/proc.js';

interface Ctx {
  bench: Bench;
  svc: RunningProcess;
  sandbox: RunningProcess;
  state: MixState;
  sender: Sender;
  random: () => number;
  postmaster?: number;
}

export async function mix(
  bench: Bench,
  sandbox: RunningProcess,
  startedAt: Date,
  build?: Build,
): Promise<void> {
  const { o } = bench;
  const m = o.mix!;
  const loadStart = os.loadavg();
  const random = seeded(20_261_128);
  const { state, tokens } = await setUpMix(bench, sandbox.url, random);
  const profileDir = join(RESULTS, `profile-mix-${startedAt.toISOString().replace(/[:.]/g, '-')}`);
  const svc = await bench.startService({
    name: 'service',
    rt: o.runtimes[0],
    build,
    nodeArgs: m.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  });
  if (m.profile) log(`profiles of the service's processes go to ${profileDir}`);
  const ctx: Ctx = {
    bench,
    svc,
    sandbox,
    state,
    sender: new Sender(svc.url, m.timeoutS * 1000),
    random,
    postmaster: await postmasterOf(bench.db.pool),
  };
  try {
    await seedThroughApi(ctx.sender, state, m.seedPrescriptions);
    await ctx.sender.drained();
    let run: MixRun | undefined;
    let capacity: CapacityReport | undefined;
    let perOp: PerOp[] | undefined;
    if (m.capacity) capacity = await searchCapacity(ctx);
    else if (m.perOp) {
      perOp = [];
      for (const op of NATIONAL_MIX.map((x) => x.name).filter((x) => !m.ops || m.ops.includes(x))) {
        // The work an operation leaves behind (the registrations' ministry deliveries) is
        // counted in its own window, not in the next operation's.
        await quiet(ctx);
        const idle = await idleCores(ctx);
        perOp.push({
          op,
          idle,
          run: await runAt(ctx, m.rate, m.warmupS, m.durationS, false, [op]),
        });
      }
    } else run = await runAt(ctx, m.rate, m.warmupS, m.durationS, false);
    await report(bench, startedAt, loadStart, run, capacity, perOp);
  } finally {
    tokens.stop();
    ctx.sender.close();
  }
}

/** One open-loop run at `multiple`; `readiness`: poll /health/ready from the schedule's end. */
async function runAt(
  ctx: Ctx,
  multiple: number,
  warmupS: number,
  durationS: number,
  readiness: boolean,
  only?: readonly string[],
): Promise<MixRun> {
  await ensureAlive(ctx);
  const { bench, svc, sandbox, state, sender, random } = ctx;
  const m = bench.o.mix!;
  log(
    `mix ×${multiple}: ${warmupS} s warm-up, then ${durationS} s measured (${m.arrivals} arrivals)`,
  );
  const wanted = only ?? m.ops;
  const ops = state.ops().filter((op) => !wanted || wanted.includes(op.name));
  const rec = new MixRecorder(ops.map((op) => op.name));
  const cpu = mixCpuSampler({
    servicePid: svc.pid,
    sandboxPid: sandbox.pid,
    pool: bench.db.pool,
    dbName: bench.db.name,
    postmaster: ctx.postmaster,
  });
  let cpuAt: ReturnType<typeof cpu.stop> | undefined;
  sender.peakInFlight = sender.inFlight;
  const { endedAt } = await runOpenLoop({
    sender,
    ops,
    multiple,
    warmupS,
    durationS,
    arrivals: m.arrivals,
    random,
    record: (s) => rec.record(s),
    skipped: (op) => rec.skipped(op),
    onWindowStart: () => cpu.start(),
    onWindowEnd: () => {
      cpuAt = cpu.stop();
    },
  });
  const ready = readiness ? readyAfter(svc.url, endedAt) : undefined;
  await sender.drained();
  const drainMs = performance.now() - endedAt;
  const rates = Object.fromEntries(ops.map((op) => [op.name, op.rate * multiple]));
  const summary = rec.summary(durationS, rates);
  const answered = Object.values(summary.total.status).reduce((a, b) => a + b, 0);
  const run: MixRun = {
    multiple,
    warmup_s: warmupS,
    duration_s: durationS,
    ...summary,
    cpu: (await cpuAt!)(answered),
    peak_in_flight: sender.peakInFlight,
    drain_ms: round1(drainMs),
    ...(ready ? { ready_after_ms: await ready } : {}),
    pools: state.sizes,
  };
  const died = svc.exit();
  if (died) {
    run.service_exit = died;
    log(`the service exited during the run (code ${died.code}, signal ${died.signal})`);
  }
  const t = run.total;
  log(
    `mix ×${multiple}: ${t.goodput} 2xx/s of ${t.rate.toFixed(0)} offered, p99 ${t.latency_ms.p99} ms, ` +
      `5xx ${t.s5xx}, no answer ${t.no_answer}, dropped ${t.dropped}; service ${run.cpu.cores.service} cores, ` +
      `generator ${run.cpu.cores.generator} cores`,
  );
  return run;
}

/** One operation alone, and the cores the service and PostgreSQL used idle just before it. */
interface PerOp {
  op: string;
  idle: { service: number; postgres: number };
  run: MixRun;
}

/** The cores the service and PostgreSQL use with no load for 5 s (pollers, timers). */
async function idleCores(ctx: Ctx): Promise<PerOp['idle']> {
  const cpu = mixCpuSampler({
    servicePid: ctx.svc.pid,
    sandboxPid: ctx.sandbox.pid,
    pool: ctx.bench.db.pool,
    dbName: ctx.bench.db.name,
    postmaster: ctx.postmaster,
  });
  cpu.start();
  await delay(5000);
  const c = (await cpu.stop())(1).cores;
  return { service: c.service, postgres: c.postgres_all };
}

/**
 * Until the ministry's backlog is empty (every registration delivered: the deliveries are a
 * registration's own work), at most two minutes, then two quiet seconds.
 */
async function quiet(ctx: Ctx): Promise<void> {
  const backlog = async () => {
    const text = await fetch(`${ctx.svc.url}/metrics`)
      .then((r) => r.text())
      .catch(() => '');
    return Number(/^ministry_backlog_transactions (\d+)/m.exec(text)?.[1] ?? NaN);
  };
  const until = performance.now() + 120_000;
  while (performance.now() < until && (await backlog()) !== 0) await delay(500);
  await delay(2000);
}

/** A service that died in an earlier run is started again (the incident recorded), with a new sender. */
async function ensureAlive(ctx: Ctx): Promise<void> {
  if (!ctx.svc.exit() || !ctx.svc.restart) return;
  await ctx.svc.restart();
  ctx.sender.close();
  ctx.sender = new Sender(ctx.svc.url, ctx.bench.o.mix!.timeoutS * 1000);
}

/** ms from `since` until /health/ready answers 200, polled every 100 ms; null past 60 s. */
async function readyAfter(url: string, since: number): Promise<number | null> {
  for (;;) {
    const t = performance.now();
    const ok = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(5000) })
      .then(async (r) => {
        await r.arrayBuffer();
        return r.status === 200;
      })
      .catch(() => false);
    if (ok) return round1(performance.now() - since);
    if (performance.now() - since > 60_000) return null;
    await delay(Math.max(0, 100 - (performance.now() - t)));
  }
}

/**
 * Steps of `--capacity-step` upwards until a step leaves the bounds (a p99 over the limit, a
 * 5xx, a request unanswered), then `--bisect` halvings between the last step within and the
 * first outside; then the flood at twice the capacity found. Between steps the service is left
 * to settle (answers drained, ready, two quiet seconds).
 */
async function searchCapacity(ctx: Ctx): Promise<CapacityReport> {
  const c = ctx.bench.o.mix!.capacity!;
  const steps: CapacityStep[] = [];
  const step = async (multiple: number): Promise<boolean> => {
    const run = await runAt(ctx, multiple, c.stepWarmupS, c.stepS, false);
    const v = withinCapacity(run.ops, c.p99LimitMs);
    steps.push({ multiple, within: v.ok, why: v.why, run });
    log(`capacity step ×${multiple}: ${v.ok ? 'within' : `outside (${v.why.join(', ')})`}`);
    await readyAfter(ctx.svc.url, performance.now());
    await delay(2000);
    return v.ok;
  };
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  let within = 0;
  let outside: number | undefined;
  for (let i = 1; r3(i * c.step) <= c.max; i++) {
    const x = r3(i * c.step);
    if (await step(x)) within = x;
    else {
      outside = x;
      break;
    }
  }
  if (outside !== undefined)
    for (let i = 0; i < c.bisections; i++) {
      const mid = r3((within + outside) / 2);
      if (mid <= within || mid >= outside) break;
      if (await step(mid)) within = mid;
      else outside = mid;
    }
  const result: CapacityReport = {
    p99_limit_ms: c.p99LimitMs,
    steps,
    capacity: within > 0 ? within : null,
    capped: outside === undefined,
  };
  if (!result.capacity) return result;
  const at = steps.find((s) => s.multiple === within)!.run;
  const flood = await runAt(ctx, r3(2 * within), c.stepWarmupS, ctx.bench.o.mix!.durationS, true);
  result.flood = {
    run: flood,
    goodput_at_capacity: at.total.goodput,
    goodput_at_flood: flood.total.goodput,
    goodput_ratio: round2(flood.total.goodput / Math.max(at.total.goodput, 1e-9)),
    served_p99_ms: flood.total.latency_2xx_ms.p99,
    s5xx: flood.total.s5xx,
    no_answer: flood.total.no_answer,
    dropped: flood.total.dropped,
    ready_after_ms: flood.ready_after_ms ?? null,
  };
  return result;
}

async function report(
  bench: Bench,
  startedAt: Date,
  loadStart: number[],
  run: MixRun | undefined,
  capacity: CapacityReport | undefined,
  perOp?: PerOp[],
): Promise<void> {
  const { o, db } = bench;
  const m = o.mix!;
  const pg = await db.pool.query<{ version: string }>('SELECT version()');
  const result = {
    version: 1,
    mode: 'mix-national',
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpu_model: os.cpus()[0]?.model,
      memory_gb: round1(os.totalmem() / 2 ** 30),
      bench_node: process.version,
      loadavg_start: loadStart.map(round2),
      loadavg_end: os.loadavg().map(round2),
    },
    runtime: bench.runtime(o.runtimes[0]).version,
    postgres: pg.rows[0].version,
    settings: {
      ...m,
      mix_per_second_at_x1: NATIONAL_MIX,
      platforms: PLATFORMS,
      pharmacies: PHARMACIES,
      citizens: CITIZENS,
      service_node_args: serviceNodeArgs(ROOT),
      service_env: { ...MIX_ENV, ...m.env },
      latency: 'from each request due time to its answer; open loop, no cap on connections',
    },
    ...(run ? { run } : {}),
    ...(capacity ? { capacity } : {}),
    ...(perOp ? { per_op: perOp } : {}),
    startups: bench.startups,
    incidents: bench.incidents,
  };
  const json = JSON.stringify(result, null, 2);
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  writeFileSync(join(RESULTS, `mix-national-${stamp}.json`), json);
  writeFileSync(join(RESULTS, 'mix-national-latest.json'), json);

  out('');
  out(`# The national mix (${result.runtime}, ${result.machine.cpus} cores)`);
  const show = (title: string, r: MixRun) => {
    out('');
    out(`## ${title}`);
    out('');
    out(formatRun(r));
    out('');
    out(formatRunNotes(r));
  };
  if (run) show(`×${run.multiple}: ${run.duration_s} s after ${run.warmup_s} s of warm-up`, run);
  if (perOp) {
    out('');
    out(
      `## Each operation alone, at its rate ×${perOp[0]?.run.multiple}: CPU per answered request`,
    );
    out('');
    out(
      'Net of the cores each used idle in the 5 s before (pollers, timers): (cores − idle) ÷ 2xx/s.',
    );
    out('');
    out(
      '| operation | rate/s | 2xx/s | p50 ms | p99 ms | service µs/req | PostgreSQL µs/req | idle service / PG cores |',
    );
    out('|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const { op, idle, run: r } of perOp) {
      const t = r.total;
      const net = (cores: number, idleCores: number) =>
        Math.round((Math.max(0, cores - idleCores) * 1e6) / Math.max(t.goodput, 1));
      out(
        `| ${op} | ${t.rate.toFixed(1)} | ${t.goodput} | ${t.latency_ms.p50} | ${t.latency_ms.p99} | ${net(r.cpu.cores.service, idle.service)} | ${net(r.cpu.cores.postgres_all, idle.postgres)} | ${idle.service} / ${idle.postgres} |`,
      );
    }
  }
  if (capacity) {
    out('');
    out(`## Capacity (every p99 ≤ ${capacity.p99_limit_ms} ms, no 5xx, every request answered)`);
    out('');
    out(formatCapacity(capacity));
    const at = capacity.steps.find((s) => s.multiple === capacity.capacity);
    if (at) show(`At capacity, ×${at.multiple}`, at.run);
    if (capacity.flood) show(`The flood, ×${capacity.flood.run.multiple}`, capacity.flood.run);
  }
  out('');
  out(`Written: bench/results/mix-national-latest.json (and mix-national-${stamp}.json)`);
}
