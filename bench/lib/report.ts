import type { LoadResult } from './load.js';
import type { CpuShare, HeapStats, RssStats } from './proc.js';

/**
 * service: the service as deployed; baseline: bare node:http + pg with the same SQL; floor:
 * the same SQL and answers served by bare NestJS on platform-express (the stack's own price).
 */
export type Target = 'service' | 'baseline' | 'floor';

/** One measured load run. */
export interface RunRecord {
  scenario: string;
  case: string;
  target: Target;
  /** Service settings that differ from the defaults (levers). */
  variant?: string;
  round?: number;
  load: LoadResult;
  rss: RssStats;
  /** The service's V8 heap right after the run (from /metrics). */
  heap_after?: HeapStats;
  /** Where the machine's CPU went during the run (cores). */
  cpu?: CpuShare;
  /** The idle check made before the run (the machine is shared). */
  quiet_before?: { waited_s: number; busy_cores: number; quiet: boolean };
  /** Bytes of log output the process wrote per completed request. */
  log_bytes_per_request?: number;
}

export interface TableRow {
  scenario: string;
  case: string;
  mode: string;
  target: string;
  rounds: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  errors: number;
  non2xx: number;
  rss_max_mb: number;
  /**
   * this row / baseline (req/s for max runs, p50 for fixed-rate runs); set on service and
   * floor rows.
   */
  ratio?: number;
  offered?: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};

/** One row per scenario/case/mode/target/variant: the round with the median req/s. */
export function tableRows(runs: RunRecord[]): TableRow[] {
  const groups = new Map<string, RunRecord[]>();
  for (const r of runs) {
    const k = [r.scenario, r.case, r.load.mode, r.variant ?? '', r.target].join('|');
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  const rows: TableRow[] = [];
  for (const list of groups.values()) {
    const m = median(list.map((r) => r.load.ok_rps));
    const pick = list.find((r) => r.load.ok_rps === m) ?? list[0];
    rows.push({
      scenario: pick.scenario,
      case: pick.case,
      mode:
        pick.load.mode === 'fixed'
          ? `fixed ${pick.load.offered_rps} rps`
          : `max c=${pick.load.connections}`,
      target: pick.variant ? `${pick.target} [${pick.variant}]` : pick.target,
      rounds: list.length,
      rps: pick.load.ok_rps,
      p50: pick.load.latency_ms.p50,
      p90: pick.load.latency_ms.p90,
      p99: pick.load.latency_ms.p99,
      errors: list.reduce((a, r) => a + r.load.errors, 0),
      non2xx: list.reduce((a, r) => a + r.load.non2xx, 0),
      rss_max_mb: Math.max(...list.map((r) => r.rss.maxMb)),
      ...(pick.load.offered_rps !== undefined ? { offered: pick.load.offered_rps } : {}),
    });
  }
  for (const row of rows) {
    if (row.target.startsWith('baseline')) continue;
    const base = rows.find(
      (b) =>
        b.target === 'baseline' &&
        b.scenario === row.scenario &&
        b.case === row.case &&
        b.mode === row.mode,
    );
    if (!base) continue;
    row.ratio = row.mode.startsWith('max')
      ? Math.round((100 * row.rps) / Math.max(base.rps, 0.01)) / 100
      : Math.round((100 * row.p50) / Math.max(base.p50, 0.01)) / 100;
  }
  return rows;
}

export function formatTable(rows: TableRow[]): string {
  const head = [
    'scenario',
    'case',
    'mode',
    'target',
    'n',
    'ok req/s',
    'p50 ms',
    'p90 ms',
    'p99 ms',
    'err',
    'non2xx',
    'RSS MB',
    'x/base',
  ];
  const body = rows.map((r) => [
    r.scenario,
    r.case,
    r.mode,
    r.target,
    String(r.rounds),
    r.rps.toFixed(0),
    String(r.p50),
    String(r.p90),
    String(r.p99),
    String(r.errors),
    String(r.non2xx),
    r.rss_max_mb.toFixed(0),
    r.ratio === undefined
      ? ''
      : r.mode.startsWith('max')
        ? `${r.ratio.toFixed(2)} (rps)`
        : `${r.ratio.toFixed(2)} (p50)`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) =>
    '| ' +
    cells.map((c, i) => (i >= 4 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ') +
    ' |';
  return [
    line(head),
    '|' +
      widths.map((w, i) => (i >= 4 ? '-'.repeat(w + 1) + ':' : '-'.repeat(w + 2))).join('|') +
      '|',
    ...body.map(line),
  ].join('\n');
}

export interface TargetCheck {
  target: string;
  goal: string;
  measured: string;
  met: boolean | null;
}

export function formatTargets(checks: TargetCheck[]): string {
  return checks
    .map(
      (c) =>
        `${c.met === null ? 'n/a ' : c.met ? 'MET ' : 'MISS'}  ${c.target}: ${c.measured}  (goal: ${c.goal})`,
    )
    .join('\n');
}
