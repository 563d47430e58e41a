import { mkdirSync } from 'node:fs';
import { RESULTS, type Bench } from '../lib/bench.js';
import { waitQuiet } from '../lib/cpu.js';
import { runMax, type RequestFactory } from '../lib/load.js';
import { brief, label, log } from '../lib/log.js';
import { startProfiled } from '../lib/profiled.js';
import type { RunningProcess } from '../lib/proc.js';
import * as req from '../lib/requests.js';
import { seededCuir } from '../lib/db.js';
import { BIG_GROUP } from '../lib/setup.js';
import { DISPENSAR_CEILING_RPS, DispensablePool } from './dispensar.js';
import { registerSome } from './documento.js';
import type { Setup } from '../lib/setup.js';

/**
 * One service per scenario under `node --cpu-prof`, saturated at 64 connections, on every
 * runtime measured (the profiles differ: V8 12.4 against 13.6).
 */
export async function profiles(bench: Bench, setup: Setup): Promise<void> {
  const { o } = bench;
  const { clients, window, codes } = setup;
  // Every output matches .gitignore's bench/results/* (nothing here is committed).
  mkdirSync(RESULTS, { recursive: true });
  const pool = new DispensablePool(bench, clients.reg);
  const documentos: string[] = [];
  let n = 0;
  const cases: Array<{
    name: string;
    f: RequestFactory;
    /** Data the case needs, made through the profiled service before its load. */
    prepare?: (svc: RunningProcess) => Promise<unknown>;
  }> = [
    { name: 'registrar', f: req.registrar(clients.reg.headers, clients.reg.cuirs) },
    { name: `listar-${label(o.smallRows)}`, f: req.listar(clients.small.headers, window, 1) },
    { name: `listar-${label(o.bigRows)}`, f: req.listar(clients.big.headers, window, 1) },
    { name: 'buscar', f: req.buscar(clients.reg.headers, codes) },
    { name: 'verificar', f: req.verificar(clients.reg.headers) },
    {
      name: 'verificar-cuir',
      f: req.verificarCuir(clients.disp.headers, () =>
        seededCuir(BIG_GROUP, 1 + ((n++ * 7919) % o.bigRows)),
      ),
    },
    {
      name: 'dispensar',
      f: req.dispensar(clients.disp.headers, pool.next),
      prepare: (svc) => pool.fill(svc, DISPENSAR_CEILING_RPS * (o.profileS + 1)),
    },
    {
      name: 'documento',
      f: req.documento(clients.reg.headers, documentos),
      prepare: async (svc) =>
        documentos.length || documentos.push(...(await registerSome(svc.url, clients.reg, 200))),
    },
  ];
  for (const rt of o.runtimes)
    for (const k of cases) {
      if (o.profileOnly && !o.profileOnly.includes(k.name)) continue;
      const name = `${k.name}-node${rt}`;
      const p = await startProfiled(bench, {
        name: `service [cpu-prof ${k.name}]`,
        rt,
        file: `cpu-${name}.cpuprofile.json`,
      });
      await k.prepare?.(p.svc);
      await runMax(p.svc.url, k.f, o.connections, 1);
      if (o.quietWaitS > 0) await waitQuiet(o.quietWaitS);
      const r = await p.window(() => runMax(p.svc.url, k.f, o.connections, o.profileS));
      log(`profiled ${name}: ${brief(r)}`);
      // Only the samples of the measured load.
      const [summary] = await p.stop();
      bench.profiles.push({ scenario: name, summary });
    }
}
