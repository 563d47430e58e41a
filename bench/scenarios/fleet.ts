import type { Bench } from '../lib/bench.js';
import type { ApiCredentials } from '../lib/db.js';
import { log } from '../lib/log.js';
import type { RunningProcess } from '../lib/proc.js';
import type { Contender } from '../lib/rounds.js';
import type { RuntimeId } from '../lib/runtime.js';
import type { Setup } from '../lib/setup.js';
import type { Target } from '../lib/table.js';

/** The processes of the load scenarios, one set per runtime. */
export interface Fleet {
  service: Map<RuntimeId, RunningProcess>;
  /** baseline, floor and peer, while registrar or listar need them. */
  refs: Map<RuntimeId, Partial<Record<Exclude<Target, 'service'>, RunningProcess>>>;
}

/** What a scenario gets. */
export interface Ctx {
  bench: Bench;
  setup: Setup;
  fleet: Fleet;
}

/** The baseline's and the floor's stand-in for authentication: the client id in a header. */
export const asBench = (c: ApiCredentials) => ({ 'x-bench-client': c.id });

/** Starts the service on every runtime, and the references when `withRefs`. */
export async function startFleet(bench: Bench, withRefs: boolean): Promise<Fleet> {
  const fleet: Fleet = { service: new Map(), refs: new Map() };
  for (const rt of bench.o.runtimes) {
    fleet.service.set(rt, await bench.startService({ name: 'service', rt }));
    if (!withRefs) continue;
    const refs: Fleet['refs'] extends Map<RuntimeId, infer R> ? R : never = {
      baseline: await bench.startReference('baseline', rt),
    };
    if (bench.o.floor) refs.floor = await bench.startReference('floor', rt);
    if (bench.o.peer) refs.peer = await bench.startReference('peer', rt);
    fleet.refs.set(rt, refs);
  }
  return fleet;
}

export async function stopRefs(bench: Bench, fleet: Fleet): Promise<void> {
  for (const refs of fleet.refs.values()) for (const p of Object.values(refs)) await bench.stop(p);
  fleet.refs.clear();
}

export async function stopFleet(bench: Bench, fleet: Fleet): Promise<void> {
  await stopRefs(bench, fleet);
  for (const p of fleet.service.values()) await bench.stop(p);
  fleet.service.clear();
  log('load scenarios done');
}

/**
 * The contenders of registrar and listar on every runtime: the service and the peer get the
 * service's requests (`api`), the baseline and the floor the bench-header ones (`bare`).
 */
export function allContenders(
  ctx: Ctx,
  api: Contender['factory'],
  bare: Contender['factory'],
): Contender[] {
  const list: Contender[] = [];
  for (const rt of ctx.bench.o.runtimes) {
    const svc = ctx.fleet.service.get(rt);
    if (svc) list.push({ target: 'service', runtime: rt, proc: svc, factory: api });
    const refs = ctx.fleet.refs.get(rt) ?? {};
    if (refs.baseline)
      list.push({ target: 'baseline', runtime: rt, proc: refs.baseline, factory: bare });
    if (refs.floor) list.push({ target: 'floor', runtime: rt, proc: refs.floor, factory: bare });
    if (refs.peer) list.push({ target: 'peer', runtime: rt, proc: refs.peer, factory: api });
  }
  return list;
}

/** The services of every runtime, with `factory`. */
export const services = (ctx: Ctx, factory: Contender['factory']): Contender[] =>
  [...ctx.fleet.service.entries()].map(([rt, proc]) => ({
    target: 'service',
    runtime: rt,
    proc,
    factory,
  }));

/** The contenders that also run at the fixed rates: the service, and in full runs the baseline and the floor. */
export const fixedContenders = (ctx: Ctx, list: Contender[]) =>
  list.filter(
    (c) =>
      c.target === 'service' ||
      (ctx.bench.o.fixedBaseline && (c.target === 'baseline' || c.target === 'floor')),
  );
