import type { MixCpu } from './mix-cpu.js';
import type { OpSummary } from './mix-stats.js';
import type { percentiles } from './open-loop.js';

/** One open-loop run of the mix at one multiple. */
export interface MixRun {
  multiple: number;
  warmup_s: number;
  duration_s: number;
  ops: Record<string, OpSummary>;
  total: OpSummary;
  cpu: MixCpu;
  generator_lag_ms: ReturnType<typeof percentiles>;
  peak_in_flight: number;
  /** From the schedule's end until the last answer (or timeout). */
  drain_ms: number;
  /** From the schedule's end until /health/ready answered 200 (polled every 100 ms). */
  ready_after_ms?: number | null;
  /** The data the mix drew from, after the run. */
  pools: Record<string, number>;
  /** Set when the service had exited by the end of the run (it is restarted for the next). */
  service_exit?: { code: number | null; signal: string | null };
}

export interface CapacityStep {
  multiple: number;
  within: boolean;
  why: string[];
  run: MixRun;
}

export interface CapacityReport {
  p99_limit_ms: number;
  steps: CapacityStep[];
  /** The highest multiple within the limit (null: not even the first step). */
  capacity: number | null;
  /** True when the search stopped at --capacity-max without a step outside the limit. */
  capped: boolean;
  flood?: {
    run: MixRun;
    goodput_at_capacity: number;
    goodput_at_flood: number;
    goodput_ratio: number;
    served_p99_ms: number;
    s5xx: number;
    no_answer: number;
    dropped: number;
    ready_after_ms: number | null;
  };
}

const n = (x: number) => Math.round(x).toLocaleString('en-US');
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

function markdown(head: string[], rows: string[][], left = 1): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    '| ' +
    cells.map((c, i) => (i < left ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ') +
    ' |';
  const rule =
    '|' +
    widths.map((w, i) => (i < left ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') +
    '|';
  return [line(head), rule, ...rows.map(line)].join('\n');
}

const byStatus = (s: OpSummary, f: (c: number) => boolean) =>
  Object.entries(s.status)
    .filter(([c]) => f(Number(c)))
    .map(([c, k]) => `${c}:${k}`)
    .join(' ');

/** The per-operation table of one run, the total last. */
export function formatRun(r: MixRun): string {
  const head = [
    'operation',
    'rate/s',
    'offered',
    '2xx',
    '4xx (by status)',
    '429 (no R-A)',
    '503 (no R-A)',
    '500',
    '5xx',
    'no answer',
    'dropped',
    'other err',
    'p50 ms',
    'p90 ms',
    'p99 ms',
    'max ms',
    'p99 2xx ms',
    'goodput/s',
  ];
  const row = (name: string, s: OpSummary) => [
    name,
    s.rate.toFixed(1),
    n(s.offered) + (s.skipped ? ` (+${s.skipped} skipped)` : ''),
    n(s.ok),
    s.s4xx ? `${s.s4xx} (${byStatus(s, (c) => c >= 400 && c < 500)})` : '0',
    `${s.s429} (${s.s429_without_retry_after})`,
    `${s.s503} (${s.s503_without_retry_after})`,
    String(s.s500),
    s.s5xx ? `${s.s5xx} (${byStatus(s, (c) => c >= 500)})` : '0',
    String(s.no_answer),
    String(s.dropped),
    String(s.refused + Object.values(s.client_errors).reduce((a, b) => a + b, 0)),
    ms(s.latency_ms.p50),
    ms(s.latency_ms.p90),
    ms(s.latency_ms.p99),
    ms(s.latency_ms.max),
    ms(s.latency_2xx_ms.p99),
    s.goodput.toFixed(1),
  ];
  const rows = [...Object.entries(r.ops).map(([k, s]) => row(k, s)), row('**all**', r.total)];
  const died = r.service_exit
    ? `\n\n**The service exited during this run** (code ${r.service_exit.code}, signal ${r.service_exit.signal}).`
    : '';
  return markdown(head, rows) + died;
}

/** The CPU split and the generator's own figures, under a run's table. */
export function formatRunNotes(r: MixRun): string {
  const c = r.cpu;
  const part = (name: string, cores: number, us?: number) =>
    `${name} ${cores.toFixed(2)} cores${us === undefined ? '' : ` = ${n(us)} µs/req`}`;
  const lag = r.generator_lag_ms;
  const unanswered = Object.entries(r.total.errors_by_code);
  return [
    ...(unanswered.length
      ? [`Unanswered, by kind and code: ${unanswered.map(([k, v]) => `${k} ${n(v)}`).join(', ')}`]
      : []),
    `CPU over the ${c.window_s} s window, per answered request: ` +
      [
        part('service (process tree)', c.cores.service, c.us_per_request.service),
        part(
          'PostgreSQL bench-database backends',
          c.cores.postgres_bench_db,
          c.us_per_request.postgres_bench_db,
        ),
        part(
          'PostgreSQL server (every process)',
          c.cores.postgres_all,
          c.us_per_request.postgres_all,
        ),
        part('sandbox', c.cores.sandbox, c.us_per_request.sandbox),
        part('load generator', c.cores.generator, c.us_per_request.generator),
        part('machine', c.cores.machine),
        part('other', c.cores.other),
      ].join('; '),
    `Generator: sent p50 ${ms(lag.p50)} / p99 ${ms(lag.p99)} / max ${ms(lag.max)} ms after due; ` +
      `peak ${n(r.peak_in_flight)} requests in flight; answers drained ${n(r.drain_ms)} ms after ` +
      `the schedule ended` +
      (r.ready_after_ms === undefined
        ? ''
        : `; /health/ready 200 ${r.ready_after_ms === null ? 'never (60 s)' : `${n(r.ready_after_ms)} ms`} after it`) +
      `. Pools after: ${Object.entries(r.pools)
        .map(([k, v]) => `${k} ${n(v)}`)
        .join(', ')}`,
  ].join('\n');
}

/** The capacity search's steps, and the flood at twice the capacity. */
export function formatCapacity(c: CapacityReport): string {
  const worst = (run: MixRun) => {
    const [name, s] = Object.entries(run.ops).sort(
      (a, b) => b[1].latency_ms.p99 - a[1].latency_ms.p99,
    )[0] ?? ['-', undefined];
    return s ? `${ms(s.latency_ms.p99)} (${name})` : '-';
  };
  const rows = c.steps.map((s) => [
    `×${s.multiple}`,
    s.run.total.rate.toFixed(0),
    s.run.total.goodput.toFixed(1),
    worst(s.run),
    String(s.run.total.s5xx),
    String(s.run.total.no_answer + s.run.total.dropped + s.run.total.refused),
    s.within ? 'yes' : `no: ${s.why.slice(0, 3).join(', ')}${s.why.length > 3 ? ', …' : ''}`,
  ]);
  const out = [
    markdown(
      [
        'multiple',
        'offered/s',
        'goodput/s',
        'worst p99 ms (op)',
        '5xx',
        'unanswered',
        `within ${c.p99_limit_ms} ms, no 5xx`,
      ],
      rows,
    ),
    '',
    c.capacity === null
      ? c.steps.length
        ? `Capacity: below ×${c.steps[0].multiple} (no step within the limit).`
        : 'Capacity: no step run (--capacity-step is above --capacity-max).'
      : `Capacity: ×${c.capacity} (${n(c.steps.find((s) => s.multiple === c.capacity)!.run.total.rate)} requests/s offered)` +
        (c.capped ? ', at least: the search stopped at --capacity-max' : '') +
        '.',
  ];
  const f = c.flood;
  if (f)
    out.push(
      `Flood at ×${f.run.multiple} (twice the capacity): goodput ${f.goodput_at_flood.toFixed(1)}/s = ` +
        `${f.goodput_ratio.toFixed(2)} × the ${f.goodput_at_capacity.toFixed(1)}/s at capacity (SPEC 13: ≥ 0.80); ` +
        `served p99 ${ms(f.served_p99_ms)} ms (≤ 1000); 5xx ${f.s5xx}, no answer ${f.no_answer}, ` +
        `dropped ${f.dropped}; /health/ready 200 ` +
        (f.ready_after_ms === null ? 'not within 60 s' : `${n(f.ready_after_ms)} ms`) +
        ' after the flood ended.',
    );
  return out.join('\n');
}
