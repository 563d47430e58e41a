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
