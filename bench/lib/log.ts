import type { LoadResult } from './load.js';

const t0 = performance.now();

/** Seconds since the bench started. */
export const elapsedS = () => Math.round((performance.now() - t0) / 1000);

/** Progress, timestamped, to stderr. */
export function log(msg: string): void {
  const s = elapsedS();
  const stamp = `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
  process.stderr.write(`[bench ${stamp}] ${msg}\n`);
}

/** Results, to stdout. */
export const out = (text: string) => process.stdout.write(`${text}\n`);

/** 1000000 → 1M, 10000 → 10k. */
export const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);

export const brief = (l: LoadResult) =>
  `${l.ok_rps.toFixed(0)} ok req/s, p50 ${l.latency_ms.p50} p90 ${l.latency_ms.p90} p99 ${l.latency_ms.p99} ms` +
  (l.errors || l.non2xx ? `, ${l.errors} errors, ${l.non2xx} non-2xx` : '');

/** The lower middle value (the value of a real run, never an average of two). */
export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};
