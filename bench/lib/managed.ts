import type { RunningProcess } from './proc.js';

/**
 * A handle that follows restarts: if the process died (a crash, or killed by someone else on
 * this shared machine), Bench.measure() calls restart(), which records the incident through
 * `onDeath` and starts it again before the run. `processes` (the ones to stop at the end)
 * always holds the handle, never a dead process.
 */
export function managed(
  first: RunningProcess,
  start: () => Promise<RunningProcess>,
  processes: Set<RunningProcess>,
  onDeath: (dead: RunningProcess, how: ReturnType<RunningProcess['exit']>) => void,
): RunningProcess {
  let cur = first;
  const handle: RunningProcess = {
    get name() {
      return cur.name;
    },
    get pid() {
      return cur.pid;
    },
    get node() {
      return cur.node;
    },
    get url() {
      return cur.url;
    },
    get listenMs() {
      return cur.listenMs;
    },
    get readyMs() {
      return cur.readyMs;
    },
    get exited() {
      return cur.exited;
    },
    outputBytes: () => cur.outputBytes(),
    tail: () => cur.tail(),
    exit: () => cur.exit(),
    stop: (graceMs?: number) => cur.stop(graceMs),
    restart: async () => {
      const dead = cur;
      onDeath(dead, dead.exit());
      processes.delete(dead);
      const next = await start();
      processes.delete(next);
      cur = next;
      processes.add(handle);
      return handle;
    },
  };
  processes.delete(first);
  processes.add(handle);
  return handle;
}
