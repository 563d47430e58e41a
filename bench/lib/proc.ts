import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** A Node process under test (the service, the baseline, the floor, the peer), as the bench started it. */
export interface RunningProcess {
  name: string;
  pid: number;
  /** The `node --version` it runs on. */
  node: string;
  url: string;
  /** From spawn to the `listening on` line. */
  listenMs: number;
  /** From spawn to the first 200 of the ready path (`/health/ready` for the service). */
  readyMs: number;
  /** Bytes the process wrote to stdout + stderr so far (its logs). */
  outputBytes(): number;
  /** The last few kB of its output (for errors). */
  tail(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
  exited: Promise<number | null>;
  /** Undefined while it runs; how it ended once it has. */
  exit(): { code: number | null; signal: string | null } | undefined;
  /** Starts it again, exactly as it was started (a process that died under load). */
  restart?(): Promise<RunningProcess>;
}

export interface StartOptions {
  name: string;
  script: string;
  cwd: string;
  env: Record<string, string>;
  nodeArgs?: string[];
  /** The node binary (default: the bench's own) and its `--version`. */
  execPath?: string;
  nodeVersion?: string;
  /** Polled until it answers 200; omit to count the `listening on` line as ready. */
  readyPath?: string;
  timeoutMs?: number;
}

const TAIL_BYTES = 16_384;

/** Spawns `<execPath> [nodeArgs] script`, waits for `listening on http://…` and then for readiness. */
export async function startNodeProcess(opts: StartOptions): Promise<RunningProcess> {
  const started = performance.now();
  const child: ChildProcess = spawn(
    opts.execPath ?? process.execPath,
    [...(opts.nodeArgs ?? []), opts.script],
    {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let bytes = 0;
  let tail = '';
  let url: string | undefined;
  let listenMs = 0;
  let onListen: ((u: string) => void) | undefined;
  const collect = (chunk: Buffer) => {
    bytes += chunk.length;
    tail = (tail + chunk.toString()).slice(-TAIL_BYTES);
    if (!url) {
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(tail);
      if (m) {
        url = m[1];
        listenMs = performance.now() - started;
        onListen?.(url);
      }
    }
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  let ended: { code: number | null; signal: string | null } | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => {
      ended = { code, signal };
      resolve(code);
    }),
  );

  const timeoutMs = opts.timeoutMs ?? 60_000;
  const fail = async (why: string): Promise<never> => {
    child.kill('SIGKILL');
    await exited;
    throw new Error(`${opts.name}: ${why}\n--- output ---\n${tail}`);
  };
  const listening = await Promise.race([
    new Promise<string>((resolve) => {
      if (url) resolve(url);
      else onListen = resolve;
    }),
    exited.then(() => 'exited' as const),
    delay(timeoutMs).then(() => 'timeout' as const),
  ]);
  if (listening === 'exited') return fail('exited before listening');
  if (listening === 'timeout') return fail(`not listening after ${timeoutMs} ms`);
  const base = listening;

  let readyMs = listenMs;
  if (opts.readyPath) {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const ok = await fetch(base + opts.readyPath)
        .then(async (r) => {
          await r.arrayBuffer();
          return r.status === 200;
        })
        .catch(() => false);
      if (ok) break;
      if (performance.now() > deadline) return fail(`${opts.readyPath} not 200 in time`);
      await delay(10);
    }
    readyMs = performance.now() - started;
  }

  return {
    name: opts.name,
    pid: child.pid as number,
    node: opts.nodeVersion ?? process.version,
    url: base,
    listenMs,
    readyMs,
    outputBytes: () => bytes,
    tail: () => tail,
    exited,
    exit: () => ended,
    async stop(graceMs = 20_000) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill('SIGTERM');
      const code = await Promise.race([exited, delay(graceMs).then(() => 'late' as const)]);
      if (code !== 'late') return code;
      child.kill('SIGKILL');
      return exited;
    },
  };
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resident set size of a process, from /proc (Linux), in MB; undefined once it is gone. */
export function rssMb(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

export interface RssStats {
  maxMb: number;
  meanMb: number;
  samples: number;
}

/** Samples a process's RSS every `intervalMs` until stopped. */
export function sampleRss(pid: number, intervalMs = 200): { stop(): RssStats } {
  const values: number[] = [];
  const take = () => {
    const v = rssMb(pid);
    if (v !== undefined) values.push(v);
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      const max = values.length ? Math.max(...values) : 0;
      const mean = values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
      return { maxMb: round1(max), meanMb: round1(mean), samples: values.length };
    },
  };
}

export const round1 = (n: number) => Math.round(n * 10) / 10;
export const round2 = (n: number) => Math.round(n * 100) / 100;

export interface HeapStats {
  used_mb: number;
  total_mb: number;
  external_mb: number;
}

/** The service's V8 heap from its Prometheus default metrics (best effort: undefined if absent). */
export async function heapOf(baseUrl: string): Promise<HeapStats | undefined> {
  try {
    const text = await (await fetch(`${baseUrl}/metrics`)).text();
    const g = (name: string) => {
      const m = new RegExp(`^${name} ([\\d.e+]+)`, 'm').exec(text);
      return m ? round1(Number(m[1]) / 1048576) : NaN;
    };
    const used = g('nodejs_heap_size_used_bytes');
    if (Number.isNaN(used)) return undefined;
    return {
      used_mb: used,
      total_mb: g('nodejs_heap_size_total_bytes'),
      external_mb: g('nodejs_external_memory_bytes'),
    };
  } catch {
    return undefined;
  }
}
