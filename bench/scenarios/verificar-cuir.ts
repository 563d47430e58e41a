import { seededCuir } from '../lib/db.js';
import { label, log } from '../lib/log.js';
import type { RequestFactory } from '../lib/load.js';
import { ISSUE_18_CASE, ISSUE_18_RATE } from '../lib/report.js';
import * as req from '../lib/requests.js';
import { fixedRounds, warm } from '../lib/rounds.js';
import { BIG_GROUP } from '../lib/setup.js';
import { serviceCase } from './buscar.js';
import { services, type Ctx } from './fleet.js';

/** Verification requests by CUIR over the big client's seeded prescriptions, spread evenly. */
export function verificarCuirRequests(ctx: Ctx): RequestFactory {
  const rows = ctx.bench.o.bigRows;
  let n = 0;
  // A stride coprime with any row count that is a power of 10: every row is asked once before any twice.
  const next = () => seededCuir(BIG_GROUP, 1 + ((n++ * 7919) % rows));
  return req.verificarCuir(ctx.setup.clients.disp.headers, next);
}

/**
 * GET /v1/recetas/verificar/{cuir} (a dispenser; each call writes its event): a short max run
 * on every runtime, then each at half its own max (issue 21's p99 target) and at 200 req/s
 * (issue 18's).
 */
export async function verificarCuir(ctx: Ctx): Promise<void> {
  const { bench } = ctx;
  const f = verificarCuirRequests(ctx);
  const probe = f();
  const svc = [...ctx.fleet.service.values()][0];
  const r = await fetch(svc.url + probe.path, { headers: probe.headers });
  if (r.status !== 200) {
    bench.skipped['verificar-cuir'] =
      `the probe answered ${r.status}: ${(await r.text()).slice(0, 300)}`;
    log(`verificar-cuir skipped: ${bench.skipped['verificar-cuir']}`);
    return;
  }
  await r.arrayBuffer().catch(() => undefined);
  await warm(bench, services(ctx, f));
  const meta = { scenario: 'verificar-cuir', case: `${label(bench.o.bigRows)}-row client` };
  await serviceCase(ctx, meta, () => f, bench.o.shortMaxS);
  await fixedRounds(
    bench,
    { ...meta, case: `${ISSUE_18_CASE}: ${meta.case}` },
    services(ctx, f),
    () => ISSUE_18_RATE,
  );
}
