import { MINISTERIO_QUEUE } from '../../src/recetas/notificacion/ministerio-delivery.sql.js';
import type { Bench } from '../lib/bench.js';
import { sampleCpu, waitQuiet, type CpuShare } from '../lib/cpu.js';
import type { Registrant } from '../lib/cuir-supply.js';
import { runAmount } from '../lib/load.js';
import { log } from '../lib/log.js';
import { delay, round1, round2, sampleRss, type RssStats } from '../lib/proc.js';
import * as req from '../lib/requests.js';

/**
 * Scenario 5: a backlog of `deliveryJobs` notifications enqueued by registering with delivery
 * paused (in a queue schema of its own, so the other scenarios' jobs stay out of it), then
 * drained by services with delivery on, phase after phase, each on what the previous one left.
 * A phase with `windowS` runs that long (its rate gives the projected drain time); the last
 * runs until every prescription of the backlog is final. On the reference runtime (24 when
 * measured).
 */
export async function delivery(
  bench: Bench,
  client: Registrant,
  sandboxUrl: string,
  phases: Array<{
    name: string;
    env: Record<string, string>;
    windowS?: number;
    nodeArgs?: string[];
  }>,
): Promise<void> {
  const { o, db } = bench;
  const schema = 'bench_delivery';
  const n = o.deliveryJobs;
  const rt = o.runtimes[0];
  const paused = await bench.startService({
    name: 'service [delivery paused]',
    rt,
    env: { QUEUE_SCHEMA: schema },
  });
  const enqueue = await bench.measure(
    paused,
    { scenario: 'delivery', case: `enqueue ${n}`, target: 'service', runtime: rt },
    () => runAmount(paused.url, req.registrar(client.headers, client.cuirs), o.connections, n),
  );
  await bench.stop(paused);
  const count = async (sql: string, params: unknown[] = []) =>
    (await db.pool.query<{ n: number }>(sql, params)).rows[0].n;
  const jobs = await count(
    `SELECT count(*)::int AS n FROM ${schema}.job WHERE name = $1 AND state = 'created'`,
    [MINISTERIO_QUEUE],
  );
  log(
    `delivery: ${jobs} jobs queued in ${schema} (${enqueue.load.status['201'] ?? 0} registrations)`,
  );
  const states = async () =>
    (
      await db.pool.query<{ completed: number; failed: number; pending: number }>(
        `SELECT count(*) FILTER (WHERE estado = 'COMPLETED')::int AS completed,
                count(*) FILTER (WHERE estado = 'FAILED')::int AS failed,
                count(*) FILTER (WHERE estado = 'PENDING')::int AS pending
           FROM recetas WHERE client_id = $1`,
        [client.id],
      )
    ).rows[0];

  const results: DeliveryPhase[] = [];
  let drained = false;
  for (const phase of phases) {
    if (drained) break;
    if (o.quietWaitS > 0) await waitQuiet(o.quietWaitS);
    const start = await states();
    const spawnAt = performance.now();
    const svc = await bench.startService({
      name: `service [delivery on, ${phase.name}]`,
      rt,
      env: { QUEUE_SCHEMA: schema, MINISTRY_DELIVERY_ENABLED: 'true', ...phase.env },
      ...(phase.nodeArgs ? { nodeArgs: phase.nodeArgs } : {}),
    });
    const readyAt = spawnAt + svc.readyMs;
    const rssSampler = sampleRss(svc.pid);
    const cpuSampler = sampleCpu(svc.pid);
    const timeline: Array<{ t_s: number; done: number }> = [];
    const limitMs = phase.windowS ? phase.windowS * 1000 : Math.max(300_000, start.pending * 100);
    let last = start;
    let doneAt: number | undefined;
    for (;;) {
      last = await states();
      const now = performance.now();
      const done = last.completed + last.failed - start.completed - start.failed;
      timeline.push({ t_s: round2((now - spawnAt) / 1000), done });
      if (last.pending === 0) {
        doneAt = now;
        break;
      }
      if (now - readyAt > limitMs) break;
      await delay(250);
    }
    const endAt = performance.now();
    const cpu = cpuSampler.stop();
    const rss = rssSampler.stop();
    await bench.stop(svc);
    const settled = await states();
    const processed = settled.completed + settled.failed - start.completed - start.failed;
    // pg-boss completes a job after its handler's transaction: the queue empties last.
    const left = await count(
      `SELECT count(*)::int AS n FROM ${schema}.job WHERE name = $1 AND state < 'completed'`,
      [MINISTERIO_QUEUE],
    );
    const at = (frac: number) => timeline.find((p) => p.done >= frac * processed);
    const a = at(0.1);
    const b = at(0.9);
    const steady =
      a && b && b.t_s > a.t_s ? round1((b.done - a.done) / (b.t_s - a.t_s)) : undefined;
    const seconds = ((doneAt ?? endAt) - spawnAt) / 1000;
    const rate = steady ?? processed / Math.max(seconds, 0.001);
    const result: DeliveryPhase = {
      phase: phase.name,
      runtime: rt,
      node: svc.node,
      backlog_at_start: start.pending,
      processed,
      seconds_from_spawn: round2(seconds),
      ready_ms: round1(svc.readyMs),
      drained: settled.pending === 0,
      jobs_per_s: round1(processed / Math.max(seconds, 0.001)),
      steady_jobs_per_s: steady ?? null,
      projected_drain_s_for_backlog: round1(n / Math.max(rate, 0.001)),
      failed_total: settled.failed,
      queue_jobs_unfinished_after_stop: left,
      cpu,
      cpu_ms_per_job: {
        service: round2((cpu.target * seconds * 1000) / Math.max(processed, 1)),
        postgres: round2((cpu.postgres * seconds * 1000) / Math.max(processed, 1)),
        sandbox_and_bench: round2((cpu.bench * seconds * 1000) / Math.max(processed, 1)),
      },
      rss,
    };
    results.push(result);
    drained = settled.pending === 0;
    log(
      `delivery [${phase.name}]: ${processed} jobs in ${result.seconds_from_spawn} s from spawn ` +
        `(${result.jobs_per_s} jobs/s, steady ${result.steady_jobs_per_s ?? '?'}; ` +
        `${n} would take ${result.projected_drain_s_for_backlog} s), ${settled.pending} left, ` +
        `RSS max ${rss.maxMb} MB; cores: service ${cpu.target}, postgres ${cpu.postgres}, bench ${cpu.bench}`,
    );
  }
  const punteros = (await fetch(`${sandboxUrl}/__sandbox/ministerio/punteros`).then((r) =>
    r.json(),
  )) as { punteros: Array<{ recepciones: number }> };
  const summary: DeliveryResult = {
    jobs,
    enqueue_ok_rps: enqueue.load.ok_rps,
    phases: results,
    drained,
    ministry_pointers: punteros.punteros.length,
    ministry_repeat_deliveries: punteros.punteros.filter((p) => p.recepciones > 1).length,
  };
  bench.extra.delivery = summary;
}

export interface DeliveryPhase {
  phase: string;
  runtime: string;
  node: string;
  backlog_at_start: number;
  processed: number;
  seconds_from_spawn: number;
  ready_ms: number;
  drained: boolean;
  jobs_per_s: number;
  steady_jobs_per_s: number | null;
  projected_drain_s_for_backlog: number;
  failed_total: number;
  queue_jobs_unfinished_after_stop: number;
  cpu: CpuShare;
  cpu_ms_per_job: { service: number; postgres: number; sandbox_and_bench: number };
  rss: RssStats;
}

export interface DeliveryResult {
  jobs: number;
  enqueue_ok_rps: number;
  phases: DeliveryPhase[];
  drained: boolean;
  ministry_pointers: number;
  ministry_repeat_deliveries: number;
}
