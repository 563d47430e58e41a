import type { Bench } from './bench.js';
import { runFixed, runMax, runPaced, type LoadResult, type RequestFactory } from './load.js';
import { median } from './log.js';
import type { RunningProcess } from './proc.js';
import type { RuntimeId } from './runtime.js';
import type { RunRecord, Target } from './table.js';

/** One process in a comparison, with the requests it gets. */
export interface Contender {
  target: Target;
  runtime: RuntimeId;
  proc: RunningProcess;
  factory: RequestFactory;
  /** Another build of the service (--ab). */
  build?: string;
}

/** The fixed-rate run of the chosen arrival shape (--fixed-shape). */
export function fixedRun(
  bench: Bench,
  url: string,
  factory: RequestFactory,
  rate: number,
  durationS: number,
): Promise<LoadResult> {
  return bench.o.fixedShape === 'paced'
    ? runPaced(url, factory, rate, durationS)
    : runFixed(url, factory, rate, durationS);
}

/** Each contender's warm-up: a short max run, not recorded. */
export async function warm(bench: Bench, contenders: Contender[]): Promise<void> {
  for (const c of contenders)
    await runMax(c.proc.url, c.factory, bench.o.connections, bench.o.warmS);
}

/**
 * Max-throughput rounds, interleaved: odd rounds in the given order, even rounds reversed
 * (A B B A …), so a drift of the shared machine hits every process alike. Contenders of both
 * runtimes and of both builds (--ab) take turns in the same rounds.
 */
export async function maxRounds(
  bench: Bench,
  meta: { scenario: string; case: string },
  contenders: Contender[],
  rounds: number,
  durationS = bench.o.maxS,
  firstRound = 1,
): Promise<RunRecord[]> {
  const records: RunRecord[] = [];
  for (let round = firstRound; round < firstRound + rounds; round++) {
    const order = round % 2 === 1 ? contenders : [...contenders].reverse();
    for (const c of order)
      records.push(
        await bench.measure(
          c.proc,
          {
            ...meta,
            target: c.target,
            runtime: c.runtime,
            round,
            ...(c.build ? { build: c.build } : {}),
          },
          () => runMax(c.proc.url, c.factory, bench.o.connections, durationS),
        ),
      );
  }
  return records;
}

/**
 * Half the service's own median max on `runtime` (the fixed rate of the p99 targets), or
 * --fixed-rate when given.
 */
export function halfOwnMax(bench: Bench, records: RunRecord[], runtime: RuntimeId): number {
  if (bench.o.fixedRate !== undefined) return bench.o.fixedRate;
  const own = records
    .filter((r) => r.target === 'service' && !r.build && r.runtime === runtime)
    .map((r) => r.load.ok_rps);
  return Math.max(10, Math.round((own.length ? median(own) : 20) / 2));
}

/** Each contender at its runtime's rate (`rateOf`), one after the other. */
export async function fixedRounds(
  bench: Bench,
  meta: { scenario: string; case: string },
  contenders: Contender[],
  rateOf: (runtime: RuntimeId) => number,
): Promise<RunRecord[]> {
  const records: RunRecord[] = [];
  for (const c of contenders) {
    const rate = rateOf(c.runtime);
    records.push(
      await bench.measure(c.proc, { ...meta, target: c.target, runtime: c.runtime }, () =>
        fixedRun(bench, c.proc.url, c.factory, rate, bench.o.fixedS),
      ),
    );
  }
  return records;
}
