import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { AbLine } from '../scenarios/ab.js';
import type { DeliveryResult } from '../scenarios/delivery.js';
import { RESULTS, ROOT, SERVICE_KNOBS, serviceNodeArgs, type Bench } from './bench.js';
import { formatProfile } from './cpuprofile.js';
import { out } from './log.js';
import { round1, round2 } from './proc.js';
import { checkTargets, formatTargets, targetsPreamble } from './report.js';
import { formatTable, tableRows } from './table.js';

/** Writes bench/results/latest.json (and a timestamped copy) and prints the results. */
export async function writeResults(
  bench: Bench,
  startedAt: Date,
  loadStart: number[],
  ab?: AbLine[],
): Promise<void> {
  const { o, db } = bench;
  const rows = tableRows(bench.runs);
  const checks = ab ? [] : checkTargets(rows, bench.startups, bench.runtimes, o, bench.skipped);
  const pg = await db.pool.query<{ version: string }>('SELECT version()');
  const settings = await db.pool.query<{ name: string; setting: string; unit: string | null }>(
    `SELECT name, setting, unit FROM pg_settings WHERE name IN ('shared_buffers', 'work_mem',
       'max_parallel_workers_per_gather', 'synchronous_commit', 'effective_cache_size', 'max_connections', 'jit')`,
  );
  const finishedAt = new Date();
  const mode = `${o.quick ? 'quick' : 'full'}${ab ? '-ab' : ''}`;
  const results = {
    version: 2,
    mode,
    started_at: startedAt.toISOString(),
    finished_at: finishedAt.toISOString(),
    duration_s: Math.round((finishedAt.getTime() - startedAt.getTime()) / 1000),
    machine: {
      cpus: os.cpus().length,
      cpu_model: os.cpus()[0]?.model,
      memory_gb: round1(os.totalmem() / 2 ** 30),
      bench_node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      loadavg_start: loadStart.map(round2),
      loadavg_end: os.loadavg().map(round2),
    },
    runtimes: bench.runtimes,
    postgres: {
      version: pg.rows[0].version,
      settings: Object.fromEntries(
        settings.rows.map((s) => [s.name, `${s.setting}${s.unit ?? ''}`]),
      ),
    },
    settings: {
      scenarios: [...o.scenarios],
      connections: o.connections,
      rounds: o.rounds,
      listar_rounds: o.listarRounds,
      ...(ab ? { ab_rounds: o.abRounds } : {}),
      max_duration_s: o.maxS,
      short_max_duration_s: o.shortMaxS,
      fixed_duration_s: o.fixedS,
      fixed_rate: o.fixedRate ?? "half the service's own median max of the case, per runtime",
      fixed_rate_shape:
        o.fixedShape === 'paced'
          ? 'open loop, evenly spaced arrivals (runPaced), latency from each due time'
          : '10 staggered autocannon instances (overallRate = rate/10, 4 connections each)',
      floor: o.floor,
      peer: o.peer,
      big_rows: o.bigRows,
      small_rows: o.smallRows,
      deep_page: o.deepPage,
      catalog_size: o.catalogSize,
      delivery_jobs: o.deliveryJobs,
      service_node_args: serviceNodeArgs(ROOT),
      service_env_overrides: Object.fromEntries(
        SERVICE_KNOBS.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]),
      ),
    },
    ...bench.extra,
    skipped: bench.skipped,
    incidents: bench.incidents,
    table: rows,
    targets: checks,
    startups: bench.startups,
    explain: bench.explain,
    profiles: bench.profiles,
    runs: bench.runs,
  };
  const json = JSON.stringify(results, null, 2);
  writeFileSync(join(RESULTS, 'latest.json'), json);
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  writeFileSync(join(RESULTS, `${mode}-${stamp}.json`), json);
  const profileText = bench.profiles.map((p) => formatProfile(p.scenario, p.summary)).join('\n\n');
  if (profileText) writeFileSync(join(RESULTS, 'cpu-profiles-summary.log'), profileText);

  const nodes = bench.runtimes.map((r) => `node ${r.id} = ${r.version}`).join(', ');
  out('');
  out(
    `# Benchmark results (${mode}, ${results.duration_s} s, ${results.machine.cpus} cores; ${nodes})`,
  );
  out('');
  out(formatTable(rows));
  if (ab) {
    const ref = (bench.extra.ab as { ref: string }).ref;
    out('');
    out(`A/B: the current build against ${ref}, ${o.abRounds} interleaved rounds (medians):`);
    for (const l of ab)
      out(
        `  [node ${l.runtime}] ${l.scenario} / ${l.case}: current ${l.current_rps} vs ${ref} ` +
          `${l.other_rps} req/s = ×${l.ratio.toFixed(2)}; CPU µs/req ${l.current_cpu_us} vs ` +
          `${l.other_cpu_us} (rounds: ${l.current_runs.join('/')} vs ${l.other_runs.join('/')})`,
      );
  } else {
    out('');
    out('Targets (issue 21):');
    out(targetsPreamble());
    out('');
    out(formatTargets(checks));
  }
  for (const [s, why] of Object.entries(bench.skipped)) out(`Skipped ${s}: ${why}`);
  const deliveryResult = bench.extra.delivery as DeliveryResult | undefined;
  if (deliveryResult) {
    const d = deliveryResult;
    out('');
    out(
      `Ministry delivery: ${d.jobs} jobs queued (enqueued at ${d.enqueue_ok_rps} req/s); drained: ${d.drained}; ` +
        `pointers held by the ministry ${d.ministry_pointers}, delivered more than once ${d.ministry_repeat_deliveries}`,
    );
    for (const p of d.phases)
      out(
        `  ${p.phase} (node ${p.runtime}): ${p.processed} of ${p.backlog_at_start} in ${p.seconds_from_spawn} s from spawn = ${p.jobs_per_s} jobs/s ` +
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
