import * as req from '../lib/requests.js';
import { fixedRounds, halfOwnMax, maxRounds, warm } from '../lib/rounds.js';
import type { RuntimeId } from '../lib/runtime.js';
import { allContenders, asBench, fixedContenders, type Ctx } from './fleet.js';

/**
 * POST /v1/recetas/registrar, a unique CUIR and Idempotency-Key per request: max throughput
 * at 64 connections, service, baseline, floor and peer of both runtimes in the same rounds;
 * then each runtime's service at half its own median max (and, in full runs, the baseline and
 * the floor at that same rate).
 */
export async function registrar(ctx: Ctx): Promise<void> {
  const { bench, setup } = ctx;
  const c = setup.clients.reg;
  const contenders = allContenders(
    ctx,
    req.registrar(c.headers, c.cuirs),
    req.registrar(asBench(c), c.cuirs),
  );
  const meta = { scenario: 'registrar', case: 'unique CUIR + key' };
  await warm(bench, contenders);
  const max = await maxRounds(bench, meta, contenders, bench.o.rounds);
  const rates = Object.fromEntries(
    bench.o.runtimes.map((rt) => [rt, halfOwnMax(bench, max, rt)]),
  ) as Record<RuntimeId, number>;
  bench.extra.registrar_fixed_rate = rates;
  await fixedRounds(bench, meta, fixedContenders(ctx, contenders), (rt) => rates[rt]);
}

/**
 * registrar-contenido: the same registrations carrying every SPEC 9.2 member (FULL_CONTENT:
 * the patient, the coverage, the diagnosis, an item with every member), at max throughput; the
 * service and, when registrar started them, the baseline and the floor (the peer's DTO knows
 * no such members).
 */
export async function registrarContenido(ctx: Ctx): Promise<void> {
  const { bench, setup } = ctx;
  const c = setup.clients.reg;
  const contenders = allContenders(
    ctx,
    req.registrar(c.headers, c.cuirs, undefined, true),
    req.registrar(asBench(c), c.cuirs, undefined, true),
  ).filter((k) => k.target !== 'peer');
  const meta = { scenario: 'registrar-contenido', case: 'unique CUIR + key, every member' };
  await warm(bench, contenders);
  await maxRounds(bench, meta, contenders, bench.o.rounds);
}
