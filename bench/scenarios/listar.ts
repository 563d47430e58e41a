import { label } from '../lib/log.js';
import * as req from '../lib/requests.js';
import { fixedRounds, halfOwnMax, maxRounds, warm } from '../lib/rounds.js';
import { allContenders, asBench, fixedContenders, type Ctx } from './fleet.js';

/** The listing cases: the big client at page 1 and at the deep page, the small one at page 1. */
export function listarCases(ctx: Ctx) {
  const { o } = ctx.bench;
  const { big, small } = ctx.setup.clients;
  return [
    { name: `${label(o.bigRows)} rows, page 1`, c: big, page: 1 },
    { name: `${label(o.bigRows)} rows, page ${o.deepPage}`, c: big, page: o.deepPage },
    { name: `${label(o.smallRows)} rows, page 1`, c: small, page: 1 },
  ];
}

/**
 * GET /v1/recetas/listar, 30-day window, per_page 50, each case: max throughput at 64
 * connections (service, baseline, floor and peer of both runtimes in the same rounds), then
 * each runtime's service at half its own median max of that case (full runs: the baseline
 * and the floor too, at that rate).
 */
export async function listar(ctx: Ctx): Promise<void> {
  const { bench, setup } = ctx;
  const { window } = setup;
  const small = setup.clients.small;
  await warm(
    bench,
    allContenders(ctx, req.listar(small.headers, window, 1), req.listar(asBench(small), window, 1)),
  );
  const rates: Record<string, Record<string, number>> = {};
  const cases = listarCases(ctx);
  const perCase = [];
  for (const k of cases) {
    const contenders = allContenders(
      ctx,
      req.listar(k.c.headers, window, k.page),
      req.listar(asBench(k.c), window, k.page),
    );
    const meta = { scenario: 'listar', case: k.name };
    const max = await maxRounds(bench, meta, contenders, bench.o.listarRounds);
    rates[k.name] = Object.fromEntries(
      bench.o.runtimes.map((rt) => [rt, halfOwnMax(bench, max, rt)]),
    );
    perCase.push({ meta, contenders });
  }
  bench.extra.listar_fixed_rate = rates;
  for (const { meta, contenders } of perCase)
    await fixedRounds(bench, meta, fixedContenders(ctx, contenders), (rt) => rates[meta.case][rt]);
}
