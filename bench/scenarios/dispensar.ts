import type { Bench } from '../lib/bench.js';
import type { Registrant } from '../lib/cuir-supply.js';
import { runAmount } from '../lib/load.js';
import { log } from '../lib/log.js';
import { ISSUE_18_CASE, ISSUE_18_RATE } from '../lib/report.js';
import type { RunningProcess } from '../lib/proc.js';
import * as req from '../lib/requests.js';
import { fixedRounds, halfOwnMax, maxRounds } from '../lib/rounds.js';
import type { RunRecord } from '../lib/table.js';
import { services, type Ctx } from './fleet.js';

/** A dispensation can hardly go faster than this here: the pool for a max run is sized by it. */
export const DISPENSAR_CEILING_RPS = 1_500;

/**
 * Prescriptions registered (through the service, so they have whatever a registration writes)
 * by the registrar client (never the delivery client: its PENDING prescriptions are the
 * delivery scenario's backlog) and not dispensed yet: each dispensation takes the next one. When the pool runs dry the
 * requests name CUIRs never registered, and answer 404 (counted as non-2xx, and logged).
 */
export class DispensablePool {
  private readonly ready: string[] = [];
  private dry = 0;

  constructor(
    private readonly bench: Bench,
    private readonly owner: Registrant,
  ) {}

  get size() {
    return this.ready.length;
  }

  /** Registers prescriptions until `n` are ready, through `svc`. */
  async fill(svc: RunningProcess, n: number): Promise<void> {
    const missing = n - this.ready.length;
    if (missing <= 0) return;
    const sent: string[] = [];
    const r = await runAmount(
      svc.url,
      req.registrar(this.owner.headers, this.owner.cuirs, (c) => sent.push(c)),
      Math.min(this.bench.o.connections, missing),
      missing,
    );
    const ok = r.status['201'] ?? 0;
    if (ok !== sent.length)
      log(
        `dispensar: ${ok} of ${sent.length} registrations answered 201 (${JSON.stringify(r.status)})`,
      );
    this.ready.push(...sent);
  }

  next = (): string => {
    const c = this.ready.shift();
    if (c) return c;
    if (this.dry++ === 0) log('dispensar: the pool of registered prescriptions ran dry');
    return req.uniqueCuir();
  };

  /** How many requests found the pool empty (since the last call). */
  takeDry(): number {
    const d = this.dry;
    this.dry = 0;
    return d;
  }
}

/**
 * Whether POST /v1/dispensas exists and dispenses: a request for a freshly registered
 * prescription must answer 201. The 404 of a route the service does not have skips the
 * scenario, as does any other answer (named in the log and the JSON).
 */
export async function probe(
  ctx: Ctx,
  svc: RunningProcess,
  pool: DispensablePool,
): Promise<string | null> {
  await pool.fill(svc, 1);
  const spec = req.dispensar(ctx.setup.clients.disp.headers, pool.next)();
  const r = await fetch(svc.url + spec.path, {
    method: 'POST',
    headers: spec.headers,
    body: spec.body,
  });
  const text = await r.text();
  if (r.status === 201) return null;
  // The service's answer for a route it does not have (a missing prescription names itself).
  if (r.status === 404 && text.includes('Resource not found'))
    return 'the service has no POST /v1/dispensas yet (404 for the route)';
  return `POST /v1/dispensas answered ${r.status}: ${text.slice(0, 300)}`;
}

/**
 * POST /v1/dispensas (contract §7), each request dispensing item 1 of a fresh prescription, as a
 * client with every scope (dispensas:write included): a short max run on every runtime, then
 * each at half its own max (issue 21's p99 target) and at 200 req/s (issue 18's). Skipped, with the reason, while the route is missing.
 */
export async function dispensar(ctx: Ctx): Promise<void> {
  const { bench, setup } = ctx;
  const o = bench.o;
  const registrant = [...ctx.fleet.service.values()][0];
  const pool = new DispensablePool(bench, setup.clients.reg);
  const skip = await probe(ctx, registrant, pool);
  if (skip) {
    bench.skipped.dispensar = skip;
    log(`dispensar skipped: ${skip}`);
    return;
  }
  const f = req.dispensar(setup.clients.disp.headers, pool.next);
  const meta = { scenario: 'dispensar', case: 'fresh prescription, item 1' };
  const list = services(ctx, f);
  const max: RunRecord[] = [];
  for (const c of list) {
    await pool.fill(registrant, Math.round(DISPENSAR_CEILING_RPS * o.shortMaxS));
    max.push(...(await maxRounds(bench, meta, [c], 1, o.shortMaxS)));
  }
  const rates = Object.fromEntries(o.runtimes.map((rt) => [rt, halfOwnMax(bench, max, rt)]));
  bench.extra.fixed_rates = {
    ...(bench.extra.fixed_rates ?? {}),
    'dispensar / fresh prescription, item 1': rates,
  };
  for (const c of list) {
    await pool.fill(registrant, Math.ceil(rates[c.runtime] * o.fixedS * 1.1) + 50);
    await fixedRounds(bench, meta, [c], (rt) => rates[rt]);
  }
  const at200 = { ...meta, case: `${ISSUE_18_CASE}: ${meta.case}` };
  for (const c of list) {
    await pool.fill(registrant, Math.ceil(ISSUE_18_RATE * o.fixedS * 1.1) + 50);
    await fixedRounds(bench, at200, [c], () => ISSUE_18_RATE);
  }
  const dry = pool.takeDry();
  bench.extra.dispensar_pool = { left: pool.size, requests_without_a_prescription: dry };
}
