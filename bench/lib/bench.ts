import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LIST_COUNT_CAP } from '../../src/recetas/consulta/listado.sql.js';
import type { ProfileSummary } from './cpuprofile.js';
import { sampleCpu, waitQuiet } from './cpu.js';
import type { BenchDatabase } from './db.js';
import type { ExplainEntry } from './explain.js';
import type { LoadResult } from './load.js';
import { brief, elapsedS, log } from './log.js';
import type { Options } from './options.js';
import { heapOf, round1, sampleRss, startNodeProcess, type RunningProcess } from './proc.js';
import type { RunRecord, Target } from './table.js';
import { runtimeEnv, type Runtime, type RuntimeId } from './runtime.js';
import { managed } from './managed.js';

/** The repository (dist/bench/lib/bench.js → ../../..). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const RESULTS = join(ROOT, 'bench', 'results');

/**
 * The node flags `npm start` (and the Dockerfile) run the service with, read from a tree's
 * package.json start script, so the service is measured as it is deployed.
 */
export function serviceNodeArgs(root: string): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  // `npm start` may build first (`… && [exec] node <flags> dist/src/main.js`): the flags of the
  // node command that runs the service.
  const command = pkg.scripts.start.split('&&').find((c) => c.includes('dist/src/main.js'))!;
  const words = command.trim().split(/\s+/);
  return words.slice(words.indexOf('node') + 1, words.indexOf('dist/src/main.js'));
}

/** Another build of the service (--ab): its tree, and the label its rows carry. */
export interface Build {
  label: string;
  root: string;
  sha?: string;
}

export interface Startup {
  name: string;
  target: Target;
  runtime: RuntimeId;
  node: string;
  build?: string;
  listen_ms: number;
  ready_ms: number;
}

/** What a measured run is of. */
export interface RunMeta {
  scenario: string;
  case: string;
  target: Target;
  runtime: RuntimeId;
  variant?: string;
  round?: number;
  build?: string;
}

/** Settings of the service that an operator could have set in the bench's own environment. */
export const SERVICE_KNOBS = [
  'LOG_LEVEL',
  'DATABASE_POOL_SIZE',
  'AUTH_CACHE_TTL_MS',
  'RATE_LIMIT_STORE',
  'MINISTRY_WORKER_CONCURRENCY',
  'QUEUE_POLL_INTERVAL_SECONDS',
  'REQUEST_TIMEOUT_MS',
  'REGISTRY_CACHE_TTL_SECONDS',
];

/** The processes of a run and everything measured on them. */
export class Bench {
  readonly runs: RunRecord[] = [];
  readonly startups: Startup[] = [];
  readonly processes = new Set<RunningProcess>();
  readonly extra: Record<string, unknown> = {};
  readonly incidents: Array<Record<string, unknown>> = [];
  /** Scenarios that could not run, and why (e.g. a route the service does not have yet). */
  readonly skipped: Record<string, string> = {};
  profiles: Array<{ scenario: string; summary: ProfileSummary }> = [];
  explain: ExplainEntry[] = [];
  serviceEnv: Record<string, string> = {};
  /** Credentials the peer accepts (it looks the client up; it does not hash secrets). */
  peerCredentials: Array<{ key: string; secret: string }> = [];

  constructor(
    readonly o: Options,
    readonly db: BenchDatabase,
    readonly runtimes: Runtime[],
  ) {}

  runtime(id: RuntimeId): Runtime {
    const rt = this.runtimes.find((r) => r.id === id);
    if (!rt) throw new Error(`runtime ${id} not resolved`);
    return rt;
  }

  /** The service (`node <start flags> dist/src/main.js`) of the current tree or of `build`. */
  async startService(opts: {
    name: string;
    rt: RuntimeId;
    env?: Record<string, string>;
    nodeArgs?: string[];
    build?: Build;
  }): Promise<RunningProcess> {
    const rt = this.runtime(opts.rt);
    const root = opts.build?.root ?? ROOT;
    const name = `${opts.name} [node ${rt.id}${opts.build ? `, ${opts.build.label}` : ''}]`;
    const p = await startNodeProcess({
      name,
      script: 'dist/src/main.js',
      cwd: root,
      execPath: rt.execPath,
      nodeVersion: rt.version,
      env: { ...this.serviceEnv, ...(opts.env ?? {}), ...runtimeEnv(rt) },
      nodeArgs: [...serviceNodeArgs(root), ...(opts.nodeArgs ?? [])],
      readyPath: '/health/ready',
    });
    this.started(p, 'service', rt, opts.build?.label);
    return this.manage(p, () => this.startService(opts));
  }

  /**
   * A reference process on the bench's database with the service's pool size and count cap:
   * the bare baseline (node:http + pg), the framework floor (bare NestJS, same SQL) or the
   * conventional NestJS peer (bench/peer/).
   */
  async startReference(
    target: 'baseline' | 'floor' | 'peer',
    id: RuntimeId,
  ): Promise<RunningProcess> {
    const rt = this.runtime(id);
    const script = {
      baseline: 'dist/bench/baseline-server.js',
      floor: 'dist/bench/floor-server.js',
      peer: 'dist/bench/peer/main.js',
    }[target];
    const p = await startNodeProcess({
      name: `${target} [node ${rt.id}]`,
      script,
      cwd: ROOT,
      execPath: rt.execPath,
      nodeVersion: rt.version,
      env: {
        DATABASE_URL: this.db.url,
        DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE ?? '10',
        QUEUE_SCHEMA: 'pgboss',
        BASELINE_LIST_COUNT_CAP: String(LIST_COUNT_CAP),
        PEER_CREDENTIALS: JSON.stringify(this.peerCredentials),
        ...runtimeEnv(rt),
      },
      readyPath: '/health/ready',
    });
    this.started(p, target, rt);
    return this.manage(p, () => this.startReference(target, id));
  }

  private started(p: RunningProcess, target: Target, rt: Runtime, build?: string): void {
    this.processes.add(p);
    this.startups.push({
      name: p.name,
      target,
      runtime: rt.id,
      node: rt.version,
      ...(build ? { build } : {}),
      listen_ms: round1(p.listenMs),
      ready_ms: round1(p.readyMs),
    });
    log(`${p.name} ready in ${p.readyMs.toFixed(0)} ms (pid ${p.pid}, ${p.url}, ${rt.version})`);
  }

  private manage(p: RunningProcess, start: () => Promise<RunningProcess>): RunningProcess {
    return managed(p, start, this.processes, (dead, how) => {
      const file = join(RESULTS, `incident-${Date.now()}.log`);
      writeFileSync(file, dead.tail());
      this.incidents.push({
        process: dead.name,
        pid: dead.pid,
        exit: how,
        at_s: elapsedS(),
        output_tail: file,
      });
      log(
        `${dead.name} (pid ${dead.pid}) had exited (code ${how?.code}, signal ${how?.signal}); ` +
          `its last output is in ${file}; restarting it`,
      );
    });
  }

  async stop(p: RunningProcess | undefined): Promise<void> {
    if (!p) return;
    await p.stop();
    this.processes.delete(p);
  }

  /** One load run against `p`, with its RSS and CPU sampled and its log volume counted. */
  async measure(
    p: RunningProcess,
    meta: RunMeta,
    run: () => Promise<LoadResult>,
  ): Promise<RunRecord> {
    if (p.exit() && p.restart) await p.restart();
    const o = this.o;
    const quiet = o.quietWaitS > 0 ? await waitQuiet(o.quietWaitS) : undefined;
    if (quiet && !quiet.quiet)
      log(
        `machine still busy (${quiet.busy_cores} cores) after ${quiet.waited_s} s: measuring anyway`,
      );
    const bytes = p.outputBytes();
    const sampler = sampleRss(p.pid);
    const cpuSampler = sampleCpu(p.pid);
    const load = await run();
    const cpu = cpuSampler.stop();
    const rss = sampler.stop();
    const heap = meta.target === 'service' ? await heapOf(p.url) : undefined;
    const perOk = (cores: number) => Math.round((cores * 1e6) / Math.max(load.ok_rps, 0.01));
    const record: RunRecord = {
      ...meta,
      node: p.node,
      load,
      rss,
      ...(heap ? { heap_after: heap } : {}),
      cpu,
      // Undefined without answers to share the CPU among.
      ...(load.ok_rps >= 1
        ? { cpu_us_per_ok: { process: perOk(cpu.target), postgres: perOk(cpu.postgres) } }
        : {}),
      ...(quiet ? { quiet_before: quiet } : {}),
      log_bytes_per_request: round1((p.outputBytes() - bytes) / Math.max(load.requests, 1)),
    };
    this.runs.push(record);
    const what = [meta.scenario, meta.case, meta.variant, meta.round && `round ${meta.round}`]
      .filter(Boolean)
      .join(' / ');
    const mode = load.mode === 'fixed' ? `fixed ${load.offered_rps} rps` : `c=${load.connections}`;
    log(
      `${p.name}: ${what} (${mode}): ${brief(load)}, RSS max ${rss.maxMb} MB; ` +
        `${record.cpu_us_per_ok?.process ?? '-'} µs CPU/req; cores: target ${cpu.target}, ` +
        `postgres ${cpu.postgres}, bench ${cpu.bench}, other ${cpu.other}`,
    );
    return record;
  }
}
