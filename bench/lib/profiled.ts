import { join } from 'node:path';
import { RESULTS, type Bench, type Build } from './bench.js';
import { summariseProfile, type ProfileSummary } from './cpuprofile.js';
import { delay, type RunningProcess } from './proc.js';
import type { RuntimeId } from './runtime.js';

/** A service under `node --cpu-prof`, whose profile is read once it has exited. */
export interface ProfiledService {
  svc: RunningProcess;
  /** Runs `load` and keeps its span as a window of the profile (startup and warm-up stay out). */
  window<T>(load: () => Promise<T>): Promise<T>;
  /** Stops the service; each window's summary, in the order they ran. */
  stop(top?: number): Promise<ProfileSummary[]>;
}

/**
 * Starts the service (of the current tree, or of `build`) writing `bench/results/<file>`. The
 * profile is written when the process exits and ends then, so each window is kept as its
 * distance from the exit.
 */
export async function startProfiled(
  bench: Bench,
  opts: { name: string; rt: RuntimeId; file: string; env?: Record<string, string>; build?: Build },
): Promise<ProfiledService> {
  const svc = await bench.startService({
    name: opts.name,
    rt: opts.rt,
    ...(opts.env ? { env: opts.env } : {}),
    ...(opts.build ? { build: opts.build } : {}),
    nodeArgs: ['--cpu-prof', '--cpu-prof-dir', RESULTS, '--cpu-prof-name', opts.file],
  });
  const windows: Array<{ start: number; end: number }> = [];
  return {
    svc,
    async window(load) {
      const start = performance.now();
      const result = await load();
      windows.push({ start, end: performance.now() });
      return result;
    },
    async stop(top) {
      await bench.stop(svc);
      const exitAt = performance.now();
      await delay(200);
      return windows.map((w) =>
        summariseProfile(
          join(RESULTS, opts.file),
          { fromEndMs: exitAt - w.start, toEndMs: exitAt - w.end },
          top,
        ),
      );
    },
  };
}
