import type { ProfileSummary } from './cpuprofile.js';

/** One side of a profiled A/B: its summary (every function kept) and the answers it gave. */
export interface ProfiledSide {
  label: string;
  summary: ProfileSummary;
  requests: number;
}

/**
 * Two profiles of the same load side by side, in µs of busy CPU per answered request (not in
 * shares, which hide a cost that grew everywhere): packages by self time, then the functions
 * whose self time differs most. Equal rates on both sides, so batching does not differ either.
 */
export function formatProfileDiff(a: ProfiledSide, b: ProfiledSide, top = 30): string {
  const perReq = (s: ProfiledSide, pct: number) =>
    (s.summary.busy_ms * 1000 * pct) / 100 / Math.max(s.requests, 1);
  const table = (
    title: string,
    pick: (s: ProfileSummary) => Array<{ name: string; pct: number; where?: string }>,
  ) => {
    const rows = new Map<string, { a: number; b: number; where?: string }>();
    for (const [side, key] of [
      [a, 'a'],
      [b, 'b'],
    ] as const)
      for (const e of pick(side.summary)) {
        const r = rows.get(e.name) ?? { a: 0, b: 0, where: e.where };
        r[key] = perReq(side, e.pct);
        rows.set(e.name, r);
      }
    const ranked = [...rows.entries()]
      .sort((x, y) => Math.abs(y[1].a - y[1].b) - Math.abs(x[1].a - x[1].b))
      .slice(0, top);
    return [
      `${title} (µs/req: ${a.label} | ${b.label} | difference):`,
      ...ranked.map(
        ([name, r]) =>
          `  ${r.a.toFixed(1).padStart(7)} ${r.b.toFixed(1).padStart(7)} ${(r.a - r.b).toFixed(1).padStart(7)}  ${name}${r.where ? `  (${r.where})` : ''}`,
      ),
    ].join('\n');
  };
  const busy = (s: ProfiledSide) =>
    ((s.summary.busy_ms * 1000) / Math.max(s.requests, 1)).toFixed(1);
  return [
    `## profiled A/B: busy µs/req ${a.label} ${busy(a)} | ${b.label} ${busy(b)}`,
    table('self time by package', (s) => s.packages_self),
    table('inclusive by package', (s) => s.packages_inclusive),
    table('concerns (inclusive)', (s) => s.concerns),
    table('functions by self time', (s) => s.functions_self),
  ].join('\n');
}
