import { label } from '../lib/log.js';
import type { RequestFactory } from '../lib/load.js';
import * as req from '../lib/requests.js';
import { fixedRounds, halfOwnMax, maxRounds, warm } from '../lib/rounds.js';
import { services, type Ctx } from './fleet.js';

/** The catalogue's first 60 active ingredients: the cold searches' terms. */
export async function coldTerms(ctx: Ctx): Promise<string[]> {
  return (
    await ctx.bench.db.pool.query<{ t: string }>(
      'SELECT DISTINCT principio_activo_norm AS t FROM medicamentos ORDER BY 1 LIMIT 60',
    )
  ).rows.map((r) => r.t);
}

/**
 * One service-only case on every runtime: max throughput (`maxS`), then each runtime at half
 * its own max. `fresh` gives each run its own requests (so cache misses stay misses).
 */
export async function serviceCase(
  ctx: Ctx,
  meta: { scenario: string; case: string },
  fresh: () => RequestFactory,
  maxS = ctx.bench.o.maxS,
): Promise<void> {
  const { bench } = ctx;
  const max = await maxRounds(bench, meta, services(ctx, fresh()), 1, maxS);
  const rates = Object.fromEntries(bench.o.runtimes.map((rt) => [rt, halfOwnMax(bench, max, rt)]));
  bench.extra.fixed_rates = {
    ...(bench.extra.fixed_rates ?? {}),
    [`${meta.scenario} / ${meta.case}`]: rates,
  };
  await fixedRounds(bench, meta, services(ctx, fresh()), (rt) => rates[rt]);
}

/**
 * GET /v1/medicamentos/buscar on the 50,000-item mirror: the mix of 16 distinct requests
 * (result-cache hits after one pass), then every request a cache miss (the search SQL's cost).
 */
export async function buscar(ctx: Ctx): Promise<void> {
  const { bench, setup } = ctx;
  const items = `${label(setup.catalogItems)} items`;
  const headers = setup.clients.reg.headers;
  await warm(bench, services(ctx, req.buscar(headers, setup.codes)));
  await serviceCase(ctx, { scenario: 'buscar', case: `${items}, mixed` }, () =>
    req.buscar(headers, setup.codes),
  );
  const terms = await coldTerms(ctx);
  // One generator for both runtimes and runs: no search repeats within the bench.
  const cold = req.buscarCold(headers, terms);
  await serviceCase(ctx, { scenario: 'buscar', case: `${items}, cold (no cache hit)` }, () => cold);
}

/** POST /v1/profesional/verificar with the REFEPS cache warm: the framework's own cost, no SQL. */
export async function verificar(ctx: Ctx): Promise<void> {
  const headers = ctx.setup.clients.reg.headers;
  await warm(ctx.bench, services(ctx, req.verificar(headers)));
  await serviceCase(ctx, { scenario: 'verificar', case: 'warm cache' }, () =>
    req.verificar(headers),
  );
}
