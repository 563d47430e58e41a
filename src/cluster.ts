import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { RateLimiterClusterMaster } from 'rate-limiter-flexible';
import { authSettings } from './auth/auth.settings.js';
import { startDependencies } from './bootstrap.js';
import { serveClusterMetrics } from './common/metrics/cluster-metrics.js';
import type { AppConfig } from './config/app-config.js';

/** A worker's message: it listens (and, the first, the demo client it made). */
export interface WorkerReady {
  type: 'prs:ready';
  url: string;
  demo?: { key: string; secret: string } | null;
}

/** What the primary tells a worker, besides the service's settings. */
const WORKER = { index: 'PRS_WORKER_INDEX', sandbox: 'PRS_SANDBOX_URL' } as const;

/** Restarts within this window that mean a worker cannot start: the service stops instead. */
const CRASH_WINDOW_MS = 60_000;
const CRASH_LIMIT = 10;

/** The worker's place (1…N) and the sandbox its primary started, for a cluster's worker. */
export function workerPlace(env: NodeJS.ProcessEnv): { index: number; sandboxUrl?: string } {
  return { index: Number(env[WORKER.index] ?? 1), sandboxUrl: env[WORKER.sandbox] || undefined };
}

/**
 * A cluster's primary (SPEC 13): starts what exists once (the migration credentials stay here),
 * forks WEB_CONCURRENCY workers, and hosts the rate limits' counters and the metrics' aggregate.
 * Once-per-service jobs run in worker 1 only. A dead worker is replaced; SIGTERM drains them all.
 */
export async function runPrimary(
  config: AppConfig,
  logger: Logger,
  onReady: (ready: WorkerReady[], deps: { sandboxUrl?: string; embeddedDir?: string }) => void,
): Promise<void> {
  const deps = await startDependencies(config, logger);
  new RateLimiterClusterMaster();
  serveClusterMetrics();

  const workers = config.http.workers;
  const envOf = (index: number): Record<string, string> => ({
    DATABASE_URL: deps.config.database.url as string,
    // Empty is unset to the config.
    DATABASE_MIGRATION_URL: '',
    [WORKER.index]: String(index),
    ...(deps.sandboxUrl ? { [WORKER.sandbox]: deps.sandboxUrl } : {}),
    ...(index === 1
      ? { DEMO_CLIENT: String(config.settings(authSettings).demoClient) }
      : {
          AUDIT_SEAL_SECONDS: '0',
          CATALOG_SYNC_INTERVAL_MINUTES: '0',
          CATALOG_SYNC_ON_START: 'false',
          DEMO_CLIENT: 'false',
        }),
  });
  const places = new Map<Worker, number>();
  const fork = (index: number) => places.set(cluster.fork(envOf(index)), index);

  let stopping = false;
  const ready = new Map<number, WorkerReady>();
  const restarts: number[] = [];
  cluster.on('message', (worker, msg: WorkerReady) => {
    if (msg?.type !== 'prs:ready') return;
    const first = ready.size < workers;
    ready.set(places.get(worker) ?? 0, msg);
    if (first && ready.size === workers)
      onReady(
        [...ready.entries()].sort(([a], [b]) => a - b).map(([, r]) => r),
        deps,
      );
  });
  cluster.on('exit', (worker, code, signal) => {
    const index = places.get(worker) ?? 1;
    places.delete(worker);
    if (stopping) return;
    const now = Date.now();
    restarts.push(now);
    while (restarts[0] < now - CRASH_WINDOW_MS) restarts.shift();
    if (restarts.length > CRASH_LIMIT) {
      logger.fatal(
        { restarts: restarts.length },
        `workers keep dying (${restarts.length} in ${CRASH_WINDOW_MS / 1000} s): stopping the service`,
      );
      void shutdown(1);
      return;
    }
    logger.warn({ worker: index, code, signal }, 'a worker died: starting another in its place');
    fork(index);
  });

  const shutdown = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down: draining every worker');
    const exits = [...places.keys()].map(
      (w) =>
        new Promise<void>((resolve) => (w.isDead() ? resolve() : w.once('exit', () => resolve()))),
    );
    for (const w of places.keys()) w.process.kill('SIGTERM');
    const force = setTimeout(() => {
      for (const w of places.keys()) w.process.kill('SIGKILL');
    }, config.http.shutdownGraceMs + 2000).unref();
    await Promise.all(exits);
    clearTimeout(force);
    await deps.stop();
    logger.flush(() => process.exit(exitCode));
  };
  process.on('SIGTERM', () => void shutdown(0));
  process.on('SIGINT', () => void shutdown(0));

  for (let i = 1; i <= workers; i++) fork(i);
}
