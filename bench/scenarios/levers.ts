import { runMax } from '../lib/load.js';
import { label } from '../lib/log.js';
import * as req from '../lib/requests.js';
import type { Bench } from '../lib/bench.js';
import type { Setup } from '../lib/setup.js';

/**
 * The service with one setting changed at a time, against a default run made in the same
 * block, on the reference runtime (24 when measured).
 */
export async function levers(bench: Bench, setup: Setup): Promise<void> {
  const { o } = bench;
  const { clients, window } = setup;
  const rt = o.runtimes[0];
  const variants: Array<{ name: string; env: Record<string, string> }> = [
    { name: 'default (pool 10, LOG_LEVEL=info, auth cache 5 s)', env: {} },
    { name: 'LOG_LEVEL=warn', env: { LOG_LEVEL: 'warn' } },
    { name: 'DATABASE_POOL_SIZE=20', env: { DATABASE_POOL_SIZE: '20' } },
    { name: 'DATABASE_POOL_SIZE=5', env: { DATABASE_POOL_SIZE: '5' } },
    { name: 'AUTH_CACHE_TTL_MS=0 (no credential cache)', env: { AUTH_CACHE_TTL_MS: '0' } },
  ];
  for (const v of variants) {
    const svc = await bench.startService({ name: `service [${v.name}]`, rt, env: v.env });
    const reg = req.registrar(clients.reg.headers, clients.reg.cuirs);
    await runMax(svc.url, reg, o.connections, 2);
    const meta = { target: 'service' as const, runtime: rt, variant: v.name, scenario: 'lever' };
    await bench.measure(svc, { ...meta, case: 'registrar' }, () =>
      runMax(svc.url, reg, o.connections, o.leverS),
    );
    const list = req.listar(clients.small.headers, window, 1);
    await bench.measure(svc, { ...meta, case: `listar ${label(o.smallRows)} p1` }, () =>
      runMax(svc.url, list, o.connections, o.leverS),
    );
    const ver = req.verificar(clients.reg.headers);
    await bench.measure(svc, { ...meta, case: 'verificar' }, () =>
      runMax(svc.url, ver, o.connections, o.leverS),
    );
    await bench.stop(svc);
  }
}
