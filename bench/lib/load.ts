import autocannon, { type AutocannonRequest, type AutocannonResult } from 'autocannon';
import { delay, round2 } from './proc.js';

/** One HTTP request of a scenario; called for every request sent, so bodies can be unique. */
export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}
export type RequestFactory = () => RequestSpec;

export interface LoadResult {
  mode: 'max' | 'fixed' | 'amount';
  connections: number;
  /** Offered rate (fixed mode). */
  offered_rps?: number;
  duration_s: number;
  requests: number;
  /** Completed requests per second, any status. */
  rps: number;
  /** 2xx per second. */
  ok_rps: number;
  latency_ms: { mean: number; p50: number; p90: number; p99: number; max: number };
  /** Connection errors + timeouts. */
  errors: number;
  non2xx: number;
  status: Record<string, number>;
}

function requestsOf(factory: RequestFactory): AutocannonRequest[] {
  return [
    {
      setupRequest: (req) => {
        const spec = factory();
        return {
          ...req,
          method: spec.method,
          path: spec.path,
          headers: spec.headers,
          ...(spec.body !== undefined ? { body: spec.body } : {}),
        };
      },
    },
  ];
}

function summarise(
  r: AutocannonResult,
  mode: LoadResult['mode'],
  connections: number,
  durationS: number,
  offered?: number,
): LoadResult {
  const status: Record<string, number> = {};
  for (const [code, s] of Object.entries(r.statusCodeStats ?? {})) status[code] = s.count;
  const total = r.requests.total;
  return {
    mode,
    connections,
    ...(offered !== undefined ? { offered_rps: offered } : {}),
    duration_s: round2(durationS),
    requests: total,
    rps: round2(total / durationS),
    ok_rps: round2(r['2xx'] / durationS),
    latency_ms: {
      mean: round2(r.latency.mean),
      p50: r.latency.p50,
      p90: r.latency.p90,
      p99: r.latency.p99,
      max: r.latency.max,
    },
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    status,
  };
}

/** Closed loop at `connections` for `durationS`: the maximum throughput. */
export async function runMax(
  url: string,
  factory: RequestFactory,
  connections: number,
  durationS: number,
): Promise<LoadResult> {
  const started = performance.now();
  const r = await autocannon({
    url,
    connections,
    duration: durationS,
    timeout: 30,
    requests: requestsOf(factory),
  });
  return summarise(r, 'max', connections, (performance.now() - started) / 1000);
}

/** Exactly `amount` requests over `connections` (used to enqueue the delivery backlog). */
export async function runAmount(
  url: string,
  factory: RequestFactory,
  connections: number,
  amount: number,
): Promise<LoadResult> {
  const started = performance.now();
  const r = await autocannon({
    url,
    connections,
    amount,
    timeout: 30,
    requests: requestsOf(factory),
  });
  return summarise(r, 'amount', connections, (performance.now() - started) / 1000);
}

/**
 * A fixed offered rate with autocannon's `overallRate`. One autocannon instance releases its
 * whole per-second budget at the start of each second (every connection sends back to back
 * until its share is used), which measures a once-a-second burst rather than a steady rate.
 * So the rate is split over `slices` instances started 1/slices of a second apart, each with
 * `overallRate = rate/slices` over `connectionsPerSlice` connections: arrivals come in
 * `slices` small bursts per second. Their raw histograms are merged into one result.
 * `slices: 1` gives plain autocannon behaviour.
 */
export async function runFixed(
  url: string,
  factory: RequestFactory,
  rate: number,
  durationS: number,
  slices = 10,
  connectionsPerSlice = 4,
): Promise<LoadResult> {
  const n = Math.max(1, Math.min(slices, Math.floor(rate)));
  const shares = Array.from(
    { length: n },
    (_, i) => Math.floor(rate / n) + (i < Math.round(rate) % n ? 1 : 0),
  );
  const started = performance.now();
  const raws = await Promise.all(
    shares.map(async (share, i) => {
      await delay((1000 / n) * i);
      return autocannon({
        url,
        connections: Math.min(connectionsPerSlice, share),
        overallRate: share,
        duration: durationS,
        timeout: 30,
        skipAggregateResult: true,
        requests: requestsOf(factory),
      });
    }),
  );
  const elapsed = (performance.now() - started) / 1000 - (1 - 1 / n);
  const merged = autocannon.aggregateResult(raws, { url });
  const connections = shares.reduce((a, s) => a + Math.min(connectionsPerSlice, s), 0);
  return summarise(merged, 'fixed', connections, Math.max(elapsed, durationS), rate);
}
