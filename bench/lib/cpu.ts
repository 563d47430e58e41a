import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { delay, round1, round2 } from './proc.js';

/** CPU time used, in cores (1.0 = one core busy for the whole window). */
export interface CpuShare {
  /** Every core of the machine, from /proc/stat. */
  machine: number;
  /** The process under load (service or baseline). */
  target: number;
  /** Every `postgres` process on the machine (other users' databases included). */
  postgres: number;
  /** This bench process (autocannon, the sandbox). */
  bench: number;
  /** The rest: other work on the machine while the run lasted (noise). */
  other: number;
}

export const CLK_TCK = 100;

export function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

export function procTicks(
  pid: number | string,
): { comm: string; ppid: number; ticks: number; reaped: number } | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = s.lastIndexOf(')');
    const comm = s.slice(s.indexOf('(') + 1, close);
    const f = s.slice(close + 2).split(' ');
    // Fields after the command: state is [0], utime [11], stime [12], cutime [13], cstime [14].
    return {
      comm,
      ppid: Number(f[1]),
      ticks: Number(f[11]) + Number(f[12]),
      reaped: Number(f[13]) + Number(f[14]),
    };
  } catch {
    return undefined;
  }
}

/**
 * CPU of every `postgres` process so far: the live ones' own time plus the time of the
 * children the postmaster has reaped (`cutime`), so backends and parallel workers that exit
 * during a run are counted too: the difference of two readings is what PostgreSQL used.
 */
export function postgresTicks(): number {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const t = procTicks(pid);
    if (t && t.comm === 'postgres') total += t.ticks + t.reaped;
  }
  return total;
}

/**
 * CPU of a process and of every descendant alive (a service's workers), each with what its own
 * reaped children used: a worker that exited is still counted, through its parent's `cutime`.
 */
export function treeTicks(root: number): number {
  const children = new Map<number, number[]>();
  const ticks = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const t = procTicks(name);
    if (!t) continue;
    const pid = Number(name);
    ticks.set(pid, t.ticks + t.reaped);
    children.set(t.ppid, [...(children.get(t.ppid) ?? []), pid]);
  }
  let total = 0;
  const todo = [root];
  while (todo.length) {
    const pid = todo.pop()!;
    total += ticks.get(pid) ?? 0;
    todo.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Measures where the machine's CPU went between start and stop (Linux /proc). */
export function sampleCpu(targetPid: number): { stop(): CpuShare } {
  const started = performance.now();
  const m0 = machineTicks();
  const t0 = procTicks(targetPid)?.ticks ?? 0;
  const pg0 = postgresTicks();
  const b0 = process.cpuUsage();
  const cores = os.cpus().length;
  return {
    stop() {
      const seconds = (performance.now() - started) / 1000;
      const m1 = machineTicks();
      const t1 = procTicks(targetPid)?.ticks ?? t0;
      const pg = postgresTicks() - pg0;
      const b = process.cpuUsage(b0);
      const machine = ((m1.busy - m0.busy) / Math.max(m1.total - m0.total, 1)) * cores;
      const target = (t1 - t0) / CLK_TCK / seconds;
      const postgres = pg / CLK_TCK / seconds;
      const bench = (b.user + b.system) / 1e6 / seconds;
      return {
        machine: round2(machine),
        target: round2(target),
        postgres: round2(postgres),
        bench: round2(bench),
        other: round2(Math.max(0, machine - target - postgres - bench)),
      };
    },
  };
}

/**
 * The machine is shared (other engineers' builds and test suites run on the same 2 cores):
 * before a measured run, wait until the whole machine has been nearly idle for a second
 * (busy ≤ `thresholdCores`; the bench's own processes are idle between runs), for at most
 * `maxWaitS`. Returns how long it waited and the last busy reading.
 */
export async function waitQuiet(
  maxWaitS: number,
  thresholdCores = 0.3,
): Promise<{ waited_s: number; busy_cores: number; quiet: boolean }> {
  const started = performance.now();
  const cores = os.cpus().length;
  for (;;) {
    const a = machineTicks();
    await delay(1000);
    const b = machineTicks();
    const busy = round2(((b.busy - a.busy) / Math.max(b.total - a.total, 1)) * cores);
    const waited = round1((performance.now() - started) / 1000);
    if (busy <= thresholdCores) return { waited_s: waited, busy_cores: busy, quiet: true };
    if (waited >= maxWaitS) return { waited_s: waited, busy_cores: busy, quiet: false };
  }
}
