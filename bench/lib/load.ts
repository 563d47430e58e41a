import autocannon, { type AutocannonRequest, type AutocannonResult } from 'autocannon';
import http from 'node:http';
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

/**
 * A fixed offered rate with evenly spaced arrivals, open loop (as wrk2 does): request i is due
 * at start + i/rate whether or not earlier ones have been answered, and its latency runs from
 * that due time to the end of its response, so time spent waiting behind a slow answer counts
 * (no coordinated omission). Requests go over keep-alive connections, at most `maxSockets` at
 * once (more wait in the agent's queue, and that wait counts too). This is what "latency at a
 * fixed offered rate" means; runFixed's autocannon slices send bursts instead (see BENCHMARKS.md).
 */
export async function runPaced(
  url: string,
  factory: RequestFactory,
  rate: number,
  durationS: number,
  maxSockets = 64,
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const target = new URL(url);
  const latencies: number[] = [];
  const status: Record<string, number> = {};
  let errors = 0;
  let inFlight = 0;
  let peak = 0;
  const total = Math.round(rate * durationS);
  const interval = 1000 / rate;
  const start = performance.now();
  const finished: Array<Promise<void>> = [];

  const send = (due: number): Promise<void> =>
    new Promise((resolve) => {
      const spec = factory();
      inFlight++;
      peak = Math.max(peak, inFlight);
      const done = (code?: number) => {
        inFlight--;
        if (code === undefined) errors++;
        else {
          status[code] = (status[code] ?? 0) + 1;
          latencies.push(performance.now() - due);
        }
        resolve();
      };
      const req = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          method: spec.method,
          path: spec.path,
          headers: {
            ...spec.headers,
            ...(spec.body !== undefined
              ? {
                  'content-type': 'application/json',
                  'content-length': Buffer.byteLength(spec.body),
                }
              : {}),
          },
          timeout: 30_000,
        },
        (res) => {
          res.on('data', () => undefined);
          res.on('end', () => done(res.statusCode));
          res.on('error', () => done());
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => done());
      req.end(spec.body);
    });

  let sent = 0;
  while (sent < total) {
    const now = performance.now();
    const due = Math.min(total, Math.floor((now - start) / interval) + 1);
    for (; sent < due; sent++) finished.push(send(start + sent * interval));
    // Sleep until the next arrival is due (timer granularity is ~1 ms; late arrivals are sent
    // at once and their lateness counts in their latency).
    await delay(Math.max(0, start + sent * interval - performance.now()));
  }
  await Promise.all(finished);
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();

  const sorted = latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    sorted.length
      ? round2(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)])
      : 0;
  const ok = Object.entries(status)
    .filter(([c]) => c.startsWith('2'))
    .reduce((a, [, n]) => a + n, 0);
  const answered = sorted.length;
  return {
    mode: 'fixed',
    connections: peak,
    offered_rps: rate,
    duration_s: round2(elapsed),
    requests: answered,
    // Over the time until the last answer: an overloaded service drains late, and shows less.
    rps: round2(answered / elapsed),
    ok_rps: round2(ok / elapsed),
    latency_ms: {
      mean: round2(answered ? sorted.reduce((a, b) => a + b, 0) / answered : 0),
      p50: pct(50),
      p90: pct(90),
      p99: pct(99),
      max: round2(sorted[sorted.length - 1] ?? 0),
    },
    errors,
    non2xx: answered - ok,
    status,
  };
}
