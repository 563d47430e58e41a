import { percentiles, type Sent } from './open-loop.js';
import { round2 } from './proc.js';

type Pcts = ReturnType<typeof percentiles>;

/** One operation's (or the whole mix's) figures over a measured window. */
export interface OpSummary {
  /** Requests per second offered at this multiple. */
  rate: number;
  /** Sent: due in the window (those that could be built). */
  offered: number;
  /** Due in the window but nothing to act on yet (not sent): a bench shortfall, should be 0. */
  skipped: number;
  ok: number;
  /** Every HTTP status answered, by code. */
  status: Record<string, number>;
  s4xx: number;
  s429: number;
  s429_without_retry_after: number;
  s503: number;
  s503_without_retry_after: number;
  s500: number;
  /** Every 5xx, 503 included. */
  s5xx: number;
  no_answer: number;
  dropped: number;
  refused: number;
  /** The client's own failures (e.g. out of file descriptors), by code. */
  client_errors: Record<string, number>;
  /** Every request without an answer, by kind and code (`dropped:ECONNRESET`). */
  errors_by_code: Record<string, number>;
  /** From each request's due time: every answer, and the 2xx only. */
  latency_ms: Pcts;
  latency_2xx_ms: Pcts;
  /** 2xx per second of the window. */
  goodput: number;
}

interface Acc {
  sent: number;
  skipped: number;
  status: Record<string, number>;
  noRa429: number;
  noRa503: number;
  noAnswer: number;
  dropped: number;
  refused: number;
  client: Record<string, number>;
  codes: Record<string, number>;
  all: number[];
  ok: number[];
}

const acc = (): Acc => ({
  sent: 0,
  skipped: 0,
  status: {},
  noRa429: 0,
  noRa503: 0,
  noAnswer: 0,
  dropped: 0,
  refused: 0,
  client: {},
  codes: {},
  all: [],
  ok: [],
});

/** Collects every measured request of a run, per operation, and the generator's lateness. */
export class MixRecorder {
  private readonly ops = new Map<string, Acc>();
  private readonly total = acc();
  private readonly lags: number[] = [];

  constructor(names: string[]) {
    for (const n of names) this.ops.set(n, acc());
  }

  private accsOf(op: string): Acc[] {
    let a = this.ops.get(op);
    if (!a) this.ops.set(op, (a = acc()));
    return [a, this.total];
  }

  skipped(op: string): void {
    for (const a of this.accsOf(op)) a.skipped++;
  }

  record(s: Sent): void {
    this.lags.push(s.lagMs);
    for (const a of this.accsOf(s.op)) {
      a.sent++;
      const o = s.outcome;
      if ('status' in o) {
        a.status[o.status] = (a.status[o.status] ?? 0) + 1;
        a.all.push(s.latencyMs);
        if (o.status >= 200 && o.status < 300) a.ok.push(s.latencyMs);
        if (o.status === 429 && !o.retryAfter) a.noRa429++;
        if (o.status === 503 && !o.retryAfter) a.noRa503++;
        continue;
      }
      const key = `${o.error}:${o.code}`;
      a.codes[key] = (a.codes[key] ?? 0) + 1;
      if (o.error === 'no_answer') a.noAnswer++;
      else if (o.error === 'dropped') a.dropped++;
      else if (o.error === 'refused') a.refused++;
      else a.client[o.code] = (a.client[o.code] ?? 0) + 1;
    }
  }

  /** Per operation and in total, over a window of `windowS` at `rates` (per operation). */
  summary(
    windowS: number,
    rates: Record<string, number>,
  ): {
    ops: Record<string, OpSummary>;
    total: OpSummary;
    generator_lag_ms: Pcts;
  } {
    const ops: Record<string, OpSummary> = {};
    for (const [name, a] of this.ops) ops[name] = summarise(a, windowS, rates[name] ?? 0);
    const totalRate = Object.values(rates).reduce((x, y) => x + y, 0);
    return {
      ops,
      total: summarise(this.total, windowS, totalRate),
      generator_lag_ms: percentiles(this.lags),
    };
  }
}

function summarise(a: Acc, windowS: number, rate: number): OpSummary {
  const count = (f: (code: number) => boolean) =>
    Object.entries(a.status)
      .filter(([c]) => f(Number(c)))
      .reduce((x, [, n]) => x + n, 0);
  const ok = count((c) => c >= 200 && c < 300);
  return {
    rate: round2(rate),
    offered: a.sent,
    skipped: a.skipped,
    ok,
    status: a.status,
    s4xx: count((c) => c >= 400 && c < 500),
    s429: a.status[429] ?? 0,
    s429_without_retry_after: a.noRa429,
    s503: a.status[503] ?? 0,
    s503_without_retry_after: a.noRa503,
    s500: a.status[500] ?? 0,
    s5xx: count((c) => c >= 500),
    no_answer: a.noAnswer,
    dropped: a.dropped,
    refused: a.refused,
    client_errors: a.client,
    errors_by_code: a.codes,
    latency_ms: percentiles(a.all),
    latency_2xx_ms: percentiles(a.ok),
    goodput: round2(ok / Math.max(windowS, 1e-9)),
  };
}

/** Whether a run is within the capacity's bounds: every p99 ≤ the limit, no 5xx, every request answered. */
export function withinCapacity(
  ops: Record<string, OpSummary>,
  p99LimitMs: number,
): { ok: boolean; why: string[] } {
  const why: string[] = [];
  for (const [name, s] of Object.entries(ops)) {
    if (s.latency_ms.p99 > p99LimitMs) why.push(`${name} p99 ${s.latency_ms.p99} ms`);
    if (s.s5xx) why.push(`${name} ${s.s5xx} × 5xx`);
    const lost = s.no_answer + s.dropped + s.refused;
    if (lost) why.push(`${name} ${lost} unanswered`);
    const client = Object.values(s.client_errors).reduce((a, b) => a + b, 0);
    if (client) why.push(`${name} ${client} client-side errors`);
  }
  return { ok: why.length === 0, why };
}
