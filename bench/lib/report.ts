import type { Startup } from './bench.js';
import { label, median } from './log.js';
import type { Options } from './options.js';
import type { Runtime, RuntimeId } from './runtime.js';
import type { TableRow } from './table.js';

/**
 * Issue 21's targets, restated. All measured in the same run, on real PostgreSQL, on this
 * 2-core machine; per runtime where it applies (Node 24 is the reference: it is what ships).
 */
export const TARGETS = {
  runtimes:
    "Runtimes: measure on both. Node 24 is the reference (it is what ships); Node 20 is the floor of support (the README's minimum).",
  registrar:
    'Registrar at 64 connections: at least 75% of the bare baseline on Node 24, and at least 65% on Node 20.',
  cpu: "CPU: per registration and per listing, at most 1.6× the framework floor's.",
  p99: "p99 ≤ 25 ms at a fixed rate of half the service's own maximum, for registrar, listar (1M rows), buscar, dispensar and verification by CUIR.",
  peer: "A conventional peer (registrar and listar as NestJS's documentation teaches): the service does at least 1.5× its throughput.",
  resources: 'Resources: RSS ≤ 250 MB at saturation; ready ≤ 2 s on PostgreSQL.',
} as const;

export const REGISTRAR_VS_BASELINE: Record<RuntimeId, number> = { '24': 0.75, '20': 0.65 };
export const CPU_VS_FLOOR = 1.6;
export const P99_MS = 25;
export const PEER_FACTOR = 1.5;
export const RSS_MB = 250;
export const READY_MS = 2000;
/** Issue 18: dispensar and verification by CUIR at this fixed rate, p99 ≤ P99_MS. */
export const ISSUE_18_RATE = 200;
/** The case-name prefix of those runs (beside the ones at half the service's own max). */
export const ISSUE_18_CASE = `${ISSUE_18_RATE} req/s (issue 18)`;
/** Issue 19: the printable prescription's p99 at this fixed rate is at most DOCUMENTO_P99_MS. */
export const DOCUMENTO_RATE = 20;
export const DOCUMENTO_P99_MS = 150;

export interface TargetCheck {
  target: string;
  /** The Node major it was measured on, where it applies. */
  runtime?: RuntimeId;
  goal: string;
  /** The measured figure and what it is compared with. */
  measured: string;
  /** null: not measured, or not a target (shown for context). */
  met: boolean | null;
}

const n0 = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (a: number, b: number) => `${Math.round((100 * a) / Math.max(b, 0.01))}%`;
const times = (a: number, b: number) => `${(a / Math.max(b, 0.01)).toFixed(2)}×`;

/** Every target line, per runtime, from the table rows (the median round of each). */
export function checkTargets(
  rows: TableRow[],
  startups: Startup[],
  runtimes: Runtime[],
  o: Options,
  skipped: Record<string, string>,
): TargetCheck[] {
  const checks: TargetCheck[] = [];
  checks.push({
    target: 'runtimes measured',
    goal: 'both; Node 24 the reference',
    measured: runtimes.map((r) => `node ${r.id} = ${r.version} (${r.source})`).join('; '),
    met: runtimes.length === 2,
  });
  const big1 = `${label(o.bigRows)} rows, page 1`;
  for (const rt of runtimes.map((r) => r.id)) {
    const find = (scenario: string, prefix: string, mode: 'max' | 'fixed', target = 'service') =>
      rows.find(
        (r) =>
          r.scenario === scenario &&
          r.case.startsWith(prefix) &&
          r.mode.startsWith(mode) &&
          r.target === target &&
          r.runtime === rt,
      );
    const add = (c: Omit<TargetCheck, 'runtime'>) => checks.push({ ...c, runtime: rt });

    const reg = find('registrar', '', 'max');
    const regBase = find('registrar', '', 'max', 'baseline');
    if (reg && regBase)
      add({
        target: 'registrar throughput vs the bare baseline, 64 connections',
        goal: `≥ ${REGISTRAR_VS_BASELINE[rt] * 100}% of the baseline's req/s`,
        measured: `service ${n0(reg.rps)} vs the baseline's ${n0(regBase.rps)} req/s = ${pct(reg.rps, regBase.rps)}`,
        met: reg.rps >= REGISTRAR_VS_BASELINE[rt] * regBase.rps,
      });

    const cpuCases = [
      ['registrar', '', 'registration'],
      ...rows
        .filter((r) => r.scenario === 'listar' && r.target === 'service' && r.runtime === rt)
        .filter((r) => r.mode.startsWith('max'))
        .map((r) => ['listar', r.case, `listing (${r.case})`]),
    ];
    for (const [scenario, prefix, what] of cpuCases) {
      const s = find(scenario, prefix, 'max');
      const f = find(scenario, prefix, 'max', 'floor');
      if (s?.cpu_us && f?.cpu_us)
        add({
          target: `CPU per ${what} vs the framework floor's, 64 connections`,
          goal: `≤ ${CPU_VS_FLOOR}× the floor's CPU per request`,
          measured: `service ${n0(s.cpu_us)} vs the floor's ${n0(f.cpu_us)} µs = ${times(s.cpu_us, f.cpu_us)}`,
          met: s.cpu_us <= CPU_VS_FLOOR * f.cpu_us,
        });
    }

    const p99Cases: Array<[string, string, string]> = [
      ['registrar', '', 'registrar'],
      ['listar', big1, `listar, ${big1}`],
      ['buscar', `${label(o.catalogSize)} items, mixed`, 'buscar, the mix'],
      ['dispensar', 'fresh', 'dispensar'],
      ['verificar-cuir', `${label(o.bigRows)}-row`, 'verification by CUIR'],
    ];
    for (const [scenario, prefix, what] of p99Cases) {
      const fixed = find(scenario, prefix, 'fixed');
      const max = find(scenario, prefix, 'max');
      const target = `p99 of ${what} at half the service's own max`;
      const goal = `p99 ≤ ${P99_MS} ms, ≥ 95% of the offered rate answered 2xx`;
      if (!fixed) {
        const why = skipped[scenario] ?? 'not measured in this run';
        if (o.scenarios.has(scenario as never) || skipped[scenario])
          add({ target, goal, measured: why, met: null });
        continue;
      }
      const refs = ['floor', 'baseline']
        .map((t) => [t, find(scenario, prefix, 'fixed', t)] as const)
        .filter(([, r]) => r)
        .map(([t, r]) => `${t} ${r?.p99} ms`);
      add({
        target,
        goal,
        measured:
          `p99 ${fixed.p99} ms at ${n0(fixed.rps)} ok req/s of ${fixed.offered} offered` +
          ` (the service's max ${max ? n0(max.rps) : '?'})${refs.length ? `; same rate: ${refs.join(', ')}` : ''}`,
        met: fixed.p99 <= P99_MS && fixed.rps >= 0.95 * (fixed.offered ?? 0),
      });
    }
    // Issues 18 and 19: fixed rates of their own.
    const fixedCases: Array<[string, string, string, number]> = [
      ['dispensar', ISSUE_18_CASE, 'dispensar at 200 req/s (issue 18)', P99_MS],
      ['verificar-cuir', ISSUE_18_CASE, 'verification by CUIR at 200 req/s (issue 18)', P99_MS],
      ['documento', '', 'the printable prescription at 20 req/s (issue 19)', DOCUMENTO_P99_MS],
    ];
    for (const [scenario, prefix, what, limit] of fixedCases) {
      const fixed = find(scenario, prefix, 'fixed');
      const target = `p99 of ${what}`;
      const goal = `p99 ≤ ${limit} ms, ≥ 95% of the offered rate answered 2xx`;
      if (!fixed) {
        if (o.scenarios.has(scenario as never) || skipped[scenario])
          add({
            target,
            goal,
            measured: skipped[scenario] ?? 'not measured in this run',
            met: null,
          });
        continue;
      }
      add({
        target,
        goal,
        measured: `p99 ${fixed.p99} ms at ${n0(fixed.rps)} ok req/s of ${fixed.offered} offered`,
        met: fixed.p99 <= limit && fixed.rps >= 0.95 * (fixed.offered ?? 0),
      });
    }
    const cold = find('buscar', `${label(o.catalogSize)} items, cold`, 'fixed');
    if (cold)
      add({
        target: 'p99 of buscar, every request a cache miss (not a target: context)',
        goal: `p99 ≤ ${P99_MS} ms`,
        measured: `p99 ${cold.p99} ms at ${n0(cold.rps)} ok req/s of ${cold.offered} offered`,
        met: null,
      });

    const peerCases = rows.filter(
      (r) =>
        r.target === 'peer' &&
        r.runtime === rt &&
        r.mode.startsWith('max') &&
        (r.scenario === 'registrar' || r.scenario === 'listar'),
    );
    for (const p of peerCases) {
      const s = find(p.scenario, p.case, 'max');
      if (s)
        add({
          target: `${p.scenario} (${p.case}) throughput vs the conventional NestJS peer`,
          goal: `≥ ${PEER_FACTOR}× the peer's req/s`,
          measured: `service ${n0(s.rps)} vs the peer's ${n0(p.rps)} req/s = ${times(s.rps, p.rps)}`,
          met: s.rps >= PEER_FACTOR * p.rps,
        });
    }

    const saturated = rows.filter(
      (r) => r.target === 'service' && r.runtime === rt && r.mode.startsWith('max'),
    );
    if (saturated.length) {
      const rss = Math.max(...saturated.map((r) => r.rss_max_mb));
      add({
        target: 'service RSS at saturation (max-throughput runs)',
        goal: `≤ ${RSS_MB} MB`,
        measured: `max ${rss} MB over ${saturated.length} cases`,
        met: rss <= RSS_MB,
      });
    }
    const readies = startups
      .filter((s) => s.target === 'service' && s.runtime === rt && !s.build)
      .filter((s) => !s.name.includes('cpu-prof'))
      .map((s) => s.ready_ms);
    if (readies.length)
      add({
        target: 'service ready (spawn → /health/ready 200) on PostgreSQL',
        goal: `≤ ${READY_MS} ms`,
        measured: `max ${Math.max(...readies)} ms, median ${median(readies)} ms over ${readies.length} starts`,
        met: Math.max(...readies) <= READY_MS,
      });
  }
  const r24 = rows.find(
    (r) =>
      r.scenario === 'registrar' &&
      r.target === 'service' &&
      r.runtime === '24' &&
      r.mode.startsWith('max'),
  );
  const r20 = rows.find(
    (r) =>
      r.scenario === 'registrar' &&
      r.target === 'service' &&
      r.runtime === '20' &&
      r.mode.startsWith('max'),
  );
  if (r24 && r20)
    checks.push({
      target: 'Node 24 over Node 20, same build, registrar at 64 connections (context)',
      goal: 'the runtime alone (issue 21: 12–30%)',
      measured: `${n0(r24.rps)} vs ${n0(r20.rps)} req/s = ${times(r24.rps, r20.rps)}`,
      met: null,
    });
  return checks;
}

export function formatTargets(checks: TargetCheck[]): string {
  return checks
    .map(
      (c) =>
        `${c.met === null ? 'n/a ' : c.met ? 'MET ' : 'MISS'}  ${c.runtime ? `[node ${c.runtime}] ` : ''}` +
        `${c.target}: ${c.measured}  (goal: ${c.goal})`,
    )
    .join('\n');
}

/** The targets as issue 21 states them, for the top of the targets block. */
export const targetsPreamble = () =>
  Object.values(TARGETS)
    .map((t) => `  - ${t}`)
    .join('\n');
