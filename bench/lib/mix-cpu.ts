import os from 'node:os';
import type pg from 'pg';
import { CLK_TCK, machineTicks, postgresTicks, procTicks, treeTicks } from './cpu.js';
import { round2 } from './proc.js';

/** Where the CPU went over a measured window: cores, and µs per answered request. */
export interface MixCpu {
  window_s: number;
  cores: {
    /** The service's process and its workers (its process tree). */
    service: number;
    /** The PostgreSQL backends connected to the bench's database (pg_stat_activity). */
    postgres_bench_db: number;
    /**
     * The PostgreSQL server of the bench database: its postmaster and every process under it
     * (WAL writer, checkpointer, autovacuum; other databases on that server too).
     */
    postgres_all: number;
    sandbox: number;
    /** The bench process: the load generator (and the token refresher). */
    generator: number;
    machine: number;
    /** The machine less all of the above: other people's work on a shared machine. */
    other: number;
  };
  /** Per request answered in the window (any status). */
  us_per_request: {
    service: number;
    postgres_bench_db: number;
    postgres_all: number;
    sandbox: number;
    generator: number;
  };
}

/**
 * The postmaster of the server `pool` connects to (the parent of one of its backends), when it
 * runs on this machine; undefined otherwise (then every postgres process on the machine counts).
 */
export async function postmasterOf(pool: pg.Pool): Promise<number | undefined> {
  const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const t = procTicks(rows[0].pid);
  return t?.comm === 'postgres' ? t.ppid : undefined;
}

/**
 * Reads CPU at the window's start and end. The bench database's backends are found in
 * pg_stat_activity once a second (each one's CPU from /proc, from when it was first seen, or
 * from zero when it started during the window); one that ends between two looks loses at most
 * its last second.
 */
export function mixCpuSampler(o: {
  servicePid: number;
  sandboxPid: number;
  pool: pg.Pool;
  dbName: string;
  postmaster?: number;
}) {
  const server = () => (o.postmaster ? treeTicks(o.postmaster) : postgresTicks());
  const base = new Map<number, number>();
  const last = new Map<number, number>();
  let timer: NodeJS.Timeout | undefined;
  let first = true;
  const look = async () => {
    const { rows } = await o.pool.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name <> 'bench-admin'`,
      [o.dbName],
    );
    for (const { pid } of rows) {
      const t = procTicks(pid);
      if (!t) continue;
      if (!base.has(pid)) base.set(pid, first ? t.ticks : 0);
      last.set(pid, t.ticks);
    }
    first = false;
  };
  let started: {
    at: number;
    machine: ReturnType<typeof machineTicks>;
    service: number;
    sandbox: number;
    pgAll: number;
    bench: NodeJS.CpuUsage;
    firstLook: Promise<void>;
  };
  return {
    start(): void {
      started = {
        at: performance.now(),
        machine: machineTicks(),
        service: treeTicks(o.servicePid),
        sandbox: treeTicks(o.sandboxPid),
        pgAll: server(),
        bench: process.cpuUsage(),
        firstLook: look().catch(() => undefined),
      };
      timer = setInterval(() => void look().catch(() => undefined), 1000);
    },
    /** Reads at once (the window's end); resolves with the result for `answered` requests. */
    async stop(): Promise<(answered: number) => MixCpu> {
      clearInterval(timer);
      const s = started;
      const seconds = (performance.now() - s.at) / 1000;
      const m = machineTicks();
      const service = treeTicks(o.servicePid) - s.service;
      const sandbox = treeTicks(o.sandboxPid) - s.sandbox;
      const pgAll = server() - s.pgAll;
      const b = process.cpuUsage(s.bench);
      await s.firstLook;
      await look().catch(() => undefined);
      let pgDb = 0;
      for (const [pid, t] of last) pgDb += t - (base.get(pid) ?? 0);
      const cores = (ticks: number) => Math.max(0, ticks) / CLK_TCK / seconds;
      const c = {
        service: cores(service),
        postgres_bench_db: cores(pgDb),
        postgres_all: cores(pgAll),
        sandbox: cores(sandbox),
        generator: (b.user + b.system) / 1e6 / seconds,
        machine:
          ((m.busy - s.machine.busy) / Math.max(m.total - s.machine.total, 1)) * os.cpus().length,
      };
      const per = (x: number, answered: number) =>
        Math.round((x * seconds * 1e6) / Math.max(answered, 1));
      return (answered) => ({
        window_s: round2(seconds),
        cores: {
          service: round2(c.service),
          postgres_bench_db: round2(c.postgres_bench_db),
          postgres_all: round2(c.postgres_all),
          sandbox: round2(c.sandbox),
          generator: round2(c.generator),
          machine: round2(c.machine),
          other: round2(
            Math.max(0, c.machine - c.service - c.postgres_all - c.sandbox - c.generator),
          ),
        },
        us_per_request: {
          service: per(c.service, answered),
          postgres_bench_db: per(c.postgres_bench_db, answered),
          postgres_all: per(c.postgres_all, answered),
          sandbox: per(c.sandbox, answered),
          generator: per(c.generator, answered),
        },
      });
    },
  };
}
