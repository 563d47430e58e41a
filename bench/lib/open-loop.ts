import http from 'node:http';
import type { RequestSpec } from './load.js';
import { delay, round2 } from './proc.js';

/** One request an operation sends, and what it learns from the answer (a CUIR, an id). */
export interface Planned {
  spec: RequestSpec;
  /** Called with the status and (when `keepBody`) the body of every answer. */
  onAnswer?: (status: number, body: string) => void;
  keepBody?: boolean;
}

/** An operation of an open-loop mix: its rate at ×1, and its next request. */
export interface LoopOp {
  name: string;
  /** Requests per second at ×1. */
  rate: number;
  /** Undefined when there is nothing to act on yet (counted as skipped, not sent). */
  next(): Planned | undefined;
}

/** How one request ended: an HTTP status, or why there was none. */
export type Outcome =
  | { status: number; retryAfter: boolean }
  | { error: 'no_answer' | 'dropped' | 'refused' | 'client'; code: string };

/** Sends requests over one keep-alive agent with no cap on sockets, each with a client timeout. */
export class Sender {
  private readonly agent = new http.Agent({
    keepAlive: true,
    maxSockets: Infinity,
    maxFreeSockets: 4096,
  });
  private readonly target: URL;
  inFlight = 0;
  peakInFlight = 0;
  private idle: Array<() => void> = [];

  constructor(
    url: string,
    private readonly timeoutMs: number,
  ) {
    this.target = new URL(url);
  }

  send(p: Planned, done: (o: Outcome) => void): void {
    const { spec } = p;
    this.inFlight++;
    this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
    let ended = false;
    let timedOut = false;
    const finish = (o: Outcome, body = '') => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      if ('status' in o) p.onAnswer?.(o.status, body);
      done(o);
      if (--this.inFlight === 0) for (const f of this.idle.splice(0)) f();
    };
    const failed = (err: NodeJS.ErrnoException) => {
      if (timedOut) return finish({ error: 'no_answer', code: 'timeout' });
      const code = err.code ?? err.message;
      if (code === 'ECONNREFUSED') return finish({ error: 'refused', code });
      // The connection went away under a request (reset, closed before or during the answer).
      if (['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE'].includes(code))
        return finish({ error: 'dropped', code });
      // The client's own limits (file descriptors, ports): the bench's failure, not the server's.
      finish({ error: 'client', code });
    };
    const headers: Record<string, string | number> = { ...spec.headers };
    if (spec.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(spec.body);
    }
    const req = http.request(
      {
        agent: this.agent,
        host: this.target.hostname,
        port: this.target.port,
        method: spec.method,
        path: spec.path,
        headers,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const retryAfter = res.headers['retry-after'] !== undefined;
        const chunks: Buffer[] = [];
        if (p.keepBody) res.on('data', (c: Buffer) => chunks.push(c));
        else res.resume();
        res.on('end', () => finish({ status, retryAfter }, Buffer.concat(chunks).toString()));
        res.on('aborted', () =>
          failed(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })),
        );
        res.on('error', failed);
      },
    );
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy(new Error('no answer'));
    }, this.timeoutMs);
    req.on('error', failed);
    req.end(spec.body);
  }

  /** Resolves when nothing is in flight. */
  drained(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  close(): void {
    this.agent.destroy();
  }
}

/** `n` requests of `next`, at most `concurrency` at once (the seed, before the timed load). */
export async function runClosed(
  sender: Sender,
  next: () => Planned | undefined,
  n: number,
  concurrency: number,
): Promise<Record<string, number>> {
  const status: Record<string, number> = {};
  let left = n;
  const lane = async () => {
    while (left > 0) {
      left--;
      const p = next();
      if (!p) {
        status.skipped = (status.skipped ?? 0) + 1;
        continue;
      }
      const o = await new Promise<Outcome>((resolve) => sender.send(p, resolve));
      const k = 'status' in o ? String(o.status) : o.error;
      status[k] = (status[k] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return status;
}

/** What the loop hands to its recorder for each request due in the measured window. */
export interface Sent {
  op: string;
  /** ms from its due time to its answer (or to the error). */
  latencyMs: number;
  /** ms from its due time until it was actually sent (the generator's own lateness). */
  lagMs: number;
  outcome: Outcome;
}

export interface LoopOptions {
  sender: Sender;
  ops: LoopOp[];
  multiple: number;
  warmupS: number;
  durationS: number;
  arrivals: 'poisson' | 'even';
  random: () => number;
  /** Every request due in the window, once it ended; and the ones that could not be built. */
  record(s: Sent): void;
  skipped(op: string): void;
  /** At the window's start and end (the CPU readings), and when the last request was sent. */
  onWindowStart?(): void;
  onWindowEnd?(): void;
}

/**
 * Open loop: each operation's arrivals follow its own schedule (Poisson, or evenly spaced with a
 * random phase) at rate × multiple, and each request is sent at its due time whatever is still
 * in flight; its latency runs from that due time, so a late send or a queue anywhere counts.
 * Requests due in the warm-up are sent but not recorded. Resolves when the schedule has ended
 * (not when the answers are in: `sender.drained()`), with the time it ended.
 */
export async function runOpenLoop(o: LoopOptions): Promise<{ endedAt: number }> {
  const start = performance.now();
  const windowStart = start + o.warmupS * 1000;
  const end = windowStart + o.durationS * 1000;
  const gap = (rate: number) =>
    o.arrivals === 'poisson' ? -Math.log(1 - o.random()) * (1000 / rate) : 1000 / rate;
  const lanes = o.ops
    .filter((op) => op.rate * o.multiple > 0)
    .map((op) => {
      const rate = op.rate * o.multiple;
      return { op, rate, due: start + (o.arrivals === 'even' ? o.random() : 1) * gap(rate) };
    });
  let windowOpen = false;
  for (;;) {
    const now = performance.now();
    if (!windowOpen && now >= windowStart) {
      windowOpen = true;
      o.onWindowStart?.();
    }
    let soonest = Infinity;
    for (const lane of lanes) {
      while (lane.due <= now && lane.due < end) {
        fire(o, lane.op, lane.due, lane.due >= windowStart);
        lane.due += gap(lane.rate);
      }
      if (lane.due < end) soonest = Math.min(soonest, lane.due);
    }
    if (soonest === Infinity) break;
    const wait = Math.min(soonest, windowOpen ? Infinity : windowStart) - performance.now();
    await delay(Math.max(0, wait));
  }
  if (!windowOpen) o.onWindowStart?.();
  o.onWindowEnd?.();
  return { endedAt: performance.now() };
}

function fire(o: LoopOptions, op: LoopOp, due: number, measured: boolean): void {
  const p = op.next();
  if (!p) {
    if (measured) o.skipped(op.name);
    return;
  }
  const lagMs = performance.now() - due;
  o.sender.send(p, (outcome) => {
    if (measured) o.record({ op: op.name, latencyMs: performance.now() - due, lagMs, outcome });
  });
}

/** p50/p90/p99/max of a list of ms (sorted in place). */
export function percentiles(xs: number[]): { p50: number; p90: number; p99: number; max: number } {
  xs.sort((a, b) => a - b);
  const at = (p: number) =>
    xs.length ? round2(xs[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]) : 0;
  return { p50: at(50), p90: at(90), p99: at(99), max: round2(xs[xs.length - 1] ?? 0) };
}
