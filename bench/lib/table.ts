import type { CpuShare } from './cpu.js';
import type { LoadResult } from './load.js';
import { median } from './log.js';
import type { HeapStats, RssStats } from './proc.js';

/**
 * service: the service as deployed; baseline: bare node:http + pg with the same SQL; floor:
 * the same SQL and answers served by bare NestJS on platform-express (the stack's own price);
 * peer: registrar and listar written the way NestJS's documentation teaches (bench/peer/).
 */
export type Target = 'service' | 'baseline' | 'floor' | 'peer';

/** One measured load run. */
export interface RunRecord {
  scenario: string;
  case: string;
  target: Target;
  /** The Node major the process ran on (24: what ships; 20: the floor of support). */
  runtime: string;
  /** Its exact version. */
  node: string;
  /** Service settings that differ from the defaults (levers). */
  variant?: string;
  /** Another build of the service (--ab): the git ref it was built from. */
  build?: string;
  round?: number;
  load: LoadResult;
  rss: RssStats;
  /** The service's V8 heap right after the run (from /metrics). */
  heap_after?: HeapStats;
  /** Where the machine's CPU went during the run (cores). */
  cpu?: CpuShare;
  /** CPU time per 2xx answer over the run: the process under test's, and PostgreSQL's. */
  cpu_us_per_ok?: { process: number; postgres: number };
  /** The idle check made before the run (the machine is shared). */
  quiet_before?: { waited_s: number; busy_cores: number; quiet: boolean };
  /** Bytes of log output the process wrote per completed request. */
  log_bytes_per_request?: number;
}

export interface TableRow {
  scenario: string;
  case: string;
  mode: string;
  /** target, with the build (`service@<ref>`) and the variant (`[LOG_LEVEL=warn]`). */
  target: string;
  runtime: string;
  node: string;
  rounds: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  errors: number;
  non2xx: number;
  rss_max_mb: number;
  /** Of the round shown (the median one). */
  cpu_us: number | null;
  pg_us: number | null;
  /** Every round's ok req/s. */
  runs_rps: number[];
  /** this row / baseline (req/s for max runs, p50 for fixed-rate runs), same runtime. */
  ratio?: number;
  /** service / peer (req/s, max runs), same runtime. */
  peer_ratio?: number;
  offered?: number;
}

/** One row per scenario/case/mode/target/build/variant/runtime: the round with the median req/s. */
export function tableRows(runs: RunRecord[]): TableRow[] {
  const groups = new Map<string, RunRecord[]>();
  for (const r of runs) {
    const k = [r.scenario, r.case, r.load.mode, r.variant, r.build, r.target, r.runtime].join('|');
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  const rows: TableRow[] = [];
  for (const list of groups.values()) {
    const m = median(list.map((r) => r.load.ok_rps));
    const pick = list.find((r) => r.load.ok_rps === m) ?? list[0];
    const name = `${pick.target}${pick.build ? `@${pick.build}` : ''}`;
    rows.push({
      scenario: pick.scenario,
      case: pick.case,
      mode:
        pick.load.mode === 'fixed'
          ? `fixed ${pick.load.offered_rps} rps`
          : `max c=${pick.load.connections}`,
      target: pick.variant ? `${name} [${pick.variant}]` : name,
      runtime: pick.runtime,
      node: pick.node,
      rounds: list.length,
      rps: pick.load.ok_rps,
      p50: pick.load.latency_ms.p50,
      p90: pick.load.latency_ms.p90,
      p99: pick.load.latency_ms.p99,
      errors: list.reduce((a, r) => a + r.load.errors, 0),
      non2xx: list.reduce((a, r) => a + r.load.non2xx, 0),
      rss_max_mb: Math.max(...list.map((r) => r.rss.maxMb)),
      cpu_us: pick.cpu_us_per_ok?.process ?? null,
      pg_us: pick.cpu_us_per_ok?.postgres ?? null,
      runs_rps: list.map((r) => Math.round(r.load.ok_rps)),
      ...(pick.load.offered_rps !== undefined ? { offered: pick.load.offered_rps } : {}),
    });
  }
  const same = (a: TableRow, b: TableRow) =>
    a.scenario === b.scenario && a.case === b.case && a.mode === b.mode && a.runtime === b.runtime;
  for (const row of rows) {
    if (row.target === 'baseline') continue;
    // No ratio over a reference that answered nothing (it failed: its rows show the non-2xx).
    const base = rows.find((b) => b.target === 'baseline' && same(b, row) && b.rps >= 1);
    if (base)
      row.ratio = row.mode.startsWith('max')
        ? Math.round((100 * row.rps) / Math.max(base.rps, 0.01)) / 100
        : Math.round((100 * row.p50) / Math.max(base.p50, 0.01)) / 100;
    const peer = rows.find((b) => b.target === 'peer' && same(b, row) && b.rps >= 1);
    if (peer && row.target.startsWith('service') && row.mode.startsWith('max'))
      row.peer_ratio = Math.round((100 * row.rps) / Math.max(peer.rps, 0.01)) / 100;
  }
  return rows;
}

export function formatTable(rows: TableRow[]): string {
  const head = [
    'scenario',
    'case',
    'mode',
    'target',
    'node',
    'n',
    'ok req/s',
    'p50 ms',
    'p90 ms',
    'p99 ms',
    'err',
    'non2xx',
    'RSS MB',
    'CPU µs/req',
    'PG µs/req',
    'x/base',
    'x/peer',
    'runs',
  ];
  const body = rows.map((r) => [
    r.scenario,
    r.case,
    r.mode,
    r.target,
    r.node,
    String(r.rounds),
    r.rps.toFixed(0),
    String(r.p50),
    String(r.p90),
    String(r.p99),
    String(r.errors),
    String(r.non2xx),
    r.rss_max_mb.toFixed(0),
    r.cpu_us === null ? '' : String(r.cpu_us),
    r.pg_us === null ? '' : String(r.pg_us),
    r.ratio === undefined
      ? ''
      : r.mode.startsWith('max')
        ? `${r.ratio.toFixed(2)} (rps)`
        : `${r.ratio.toFixed(2)} (p50)`,
    r.peer_ratio === undefined ? '' : r.peer_ratio.toFixed(2),
    r.rounds > 1 ? r.runs_rps.join('/') : '',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const right = (i: number) => i >= 5 && i < head.length - 1;
  const line = (cells: string[]) =>
    '| ' +
    cells.map((c, i) => (right(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ') +
    ' |';
  return [
    line(head),
    '|' +
      widths.map((w, i) => (right(i) ? '-'.repeat(w + 1) + ':' : '-'.repeat(w + 2))).join('|') +
      '|',
    ...body.map(line),
  ].join('\n');
}
