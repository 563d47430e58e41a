import type { Registrant } from '../lib/cuir-supply.js';
import { log } from '../lib/log.js';
import { DOCUMENTO_RATE } from '../lib/report.js';
import * as req from '../lib/requests.js';
import { fixedRounds, maxRounds } from '../lib/rounds.js';
import { services, type Ctx } from './fleet.js';

/** Prescriptions whose documents are asked for in rotation (each PDF is rendered per request). */
const PRESCRIPTIONS = 200;

/** Registers `n` prescriptions through the service, 20 at a time; their ids. */
export async function registerSome(url: string, owner: Registrant, n: number) {
  const ids: string[] = [];
  const one = req.registrar(owner.headers, owner.cuirs);
  for (let done = 0; done < n; done += 20) {
    const batch = Array.from({ length: Math.min(20, n - done) }, async () => {
      const spec = one();
      const r = await fetch(url + spec.path, {
        method: spec.method,
        headers: spec.headers,
        body: spec.body,
      });
      const body = (await r.json()) as { data?: { id_transaccion?: string } };
      if (r.status === 201 && body.data?.id_transaccion) ids.push(body.data.id_transaccion);
    });
    await Promise.all(batch);
  }
  return ids;
}

/**
 * GET /v1/recetas/{id}/documento (contract §8) as the owner: prescriptions registered through the
 * service first, then their PDFs in rotation: a short max run (context) and a fixed run at
 * 20 req/s on every runtime (issue 19's p99 target).
 */
export async function documento(ctx: Ctx): Promise<void> {
  const { bench, setup } = ctx;
  const owner = setup.clients.reg;
  const svc = [...ctx.fleet.service.values()][0];
  const ids = await registerSome(svc.url, owner, PRESCRIPTIONS);
  const probe = ids.length
    ? await fetch(`${svc.url}/v1/recetas/${ids[0]}/documento`, { headers: owner.headers })
    : undefined;
  if (probe?.status !== 200) {
    bench.skipped.documento = probe
      ? `the probe answered ${probe.status}: ${(await probe.text()).slice(0, 300)}`
      : 'no prescription could be registered for it';
    log(`documento skipped: ${bench.skipped.documento}`);
    return;
  }
  await probe.arrayBuffer();
  const meta = { scenario: 'documento', case: 'one A4 page, 1 item' };
  const f = req.documento(owner.headers, ids);
  await maxRounds(bench, meta, services(ctx, f), 1, bench.o.shortMaxS);
  await fixedRounds(bench, meta, services(ctx, f), () => DOCUMENTO_RATE);
}
