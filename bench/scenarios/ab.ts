import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESULTS, ROOT, type Bench, type Build } from '../lib/bench.js';
import { formatProfileDiff, type ProfiledSide } from '../lib/profile-diff.js';
import { startProfiled } from '../lib/profiled.js';
import {
  createApiClient,
  createBenchDatabase,
  seedRecetas,
  vacuumAnalyze,
  type BenchDatabase,
} from '../lib/db.js';
import { issueCuirs, type Registrant } from '../lib/cuir-supply.js';
import { runMax, type RequestFactory } from '../lib/load.js';
import { label, log, median } from '../lib/log.js';
import type { RunningProcess } from '../lib/proc.js';
import * as req from '../lib/requests.js';
import { fixedRun, maxRounds, warm, type Contender } from '../lib/rounds.js';
import type { RuntimeId } from '../lib/runtime.js';
import { BIG_GROUP } from '../lib/setup.js';
import type { RunRecord } from '../lib/table.js';
import { DispensablePool, probe } from './dispensar.js';
import { listarCases } from './listar.js';
import type { Ctx } from './fleet.js';
import { verificarCuirRequests } from './verificar-cuir.js';

/** CUIRs issued to each build's registrar on a database of its own (--ab-own-db). */
const OWN_DB_CUIRS = 300_000;

/** One A/B comparison: the current build against the other, one runtime, medians of the rounds. */
export interface AbLine {
  scenario: string;
  case: string;
  runtime: RuntimeId;
  current_rps: number;
  other_rps: number;
  /** current / other (req/s medians): above 1 the current build is faster. */
  ratio: number;
  current_cpu_us: number;
  other_cpu_us: number;
  current_runs: number[];
  other_runs: number[];
}

/**
 * --ab=<ref>: the service of `build` and the current one on every runtime, both running, on
 * the same database with the same settings, measured at max throughput in interleaved rounds
 * (A B B A …) for each selected scenario's cases; medians and their ratio.
 */
export async function abScenarios(ctx: Ctx, build: Build): Promise<AbLine[]> {
  const { bench, setup } = ctx;
  const { o } = bench;
  const own = o.abOwnDb ? await ownDatabase(ctx, build, 'ab') : undefined;
  // Each build on a fresh database of its own: the current one too, so neither writes into
  // bigger tables and indexes than the other (the shared one holds the seeded million rows).
  const mineOwn = o.abOwnDb
    ? await ownDatabase(ctx, { label: 'current', root: ROOT }, 'abcur')
    : undefined;
  const other = new Map<RuntimeId, RunningProcess>();
  const env: Record<string, string> = own ? { DATABASE_URL: own.db.url } : {};
  for (const rt of o.runtimes)
    other.set(rt, await bench.startService({ name: 'service', rt, build, env }));
  const mineOnOwn = new Map<RuntimeId, RunningProcess>();
  if (mineOwn)
    for (const rt of o.runtimes)
      mineOnOwn.set(
        rt,
        await bench.startService({
          name: 'service [own db]',
          rt,
          env: { DATABASE_URL: mineOwn.db.url },
        }),
      );
  /** `theirs`: the other build's requests, where they differ (its own database's client). */
  const cases: Array<{
    scenario: string;
    case: string;
    f: () => RequestFactory;
    theirs?: () => RequestFactory;
  }> = [];
  const { clients, window, codes } = setup;
  if (o.scenarios.has('registrar'))
    cases.push({
      scenario: 'registrar',
      case: 'unique CUIR + key',
      f: () => {
        const { reg } = mineOwn ?? { reg: clients.reg };
        return req.registrar(reg.headers, reg.cuirs);
      },
      ...(own ? { theirs: () => req.registrar(own.reg.headers, own.reg.cuirs) } : {}),
    });
  // The current build with every SPEC 9.2 member against the other's plain registrations:
  // what a fully described prescription costs against a plain one before the content existed.
  if (o.scenarios.has('registrar-contenido'))
    cases.push({
      scenario: 'registrar-contenido',
      case: 'every member (other build: none)',
      f: () => {
        const { reg } = mineOwn ?? { reg: clients.reg };
        return req.registrar(reg.headers, reg.cuirs, undefined, true);
      },
      theirs: () => {
        const { reg } = own ?? { reg: clients.reg };
        return req.registrar(reg.headers, reg.cuirs);
      },
    });
  if (o.scenarios.has('listar'))
    for (const k of listarCases(ctx))
      cases.push({
        scenario: 'listar',
        case: k.name,
        f: () => req.listar(k.c.headers, window, k.page),
      });
  if (o.scenarios.has('buscar'))
    cases.push({
      scenario: 'buscar',
      case: 'mixed',
      f: () => req.buscar(clients.reg.headers, codes),
    });
  if (o.scenarios.has('verificar'))
    cases.push({
      scenario: 'verificar',
      case: 'warm cache',
      f: () => req.verificar(clients.reg.headers),
    });
  if (o.scenarios.has('verificar-cuir'))
    cases.push({
      scenario: 'verificar-cuir',
      case: 'seeded CUIRs',
      f: () => verificarCuirRequests(ctx),
    });
  let pool: DispensablePool | undefined;
  if (o.scenarios.has('dispensar')) {
    const p = new DispensablePool(bench, clients.reg);
    for (const svc of [...ctx.fleet.service.values(), ...other.values()]) {
      const skip = await probe(ctx, svc, p);
      if (skip) bench.skipped.dispensar = `${svc.name}: ${skip}`;
    }
  }
  if (o.scenarios.has('dispensar') && !bench.skipped.dispensar) {
    pool = new DispensablePool(bench, clients.reg);
    const p = pool;
    cases.push({
      scenario: 'dispensar',
      case: 'fresh prescription, item 1',
      f: () => req.dispensar(clients.disp.headers, p.next),
    });
  }

  const lines: AbLine[] = [];
  let warmed = false;
  for (const k of cases) {
    const f = k.f();
    const g = k.theirs?.() ?? f;
    const contenders: Contender[] = o.runtimes.flatMap((rt) => {
      const mine = mineOnOwn.get(rt) ?? ctx.fleet.service.get(rt);
      const theirs = other.get(rt);
      if (!mine || !theirs) return [];
      return [
        { target: 'service' as const, runtime: rt, proc: mine, factory: f },
        { target: 'service' as const, runtime: rt, proc: theirs, factory: g, build: build.label },
      ];
    });
    if (!warmed) {
      await warm(bench, contenders);
      warmed = true;
    }
    const records: RunRecord[] = [];
    for (let round = 1; round <= o.abRounds; round++) {
      if (pool) await pool.fill(contenders[0].proc, 1_500 * o.maxS * contenders.length);
      // One round at a time (the pool is topped up between them); maxRounds keeps A B B A.
      records.push(...(await maxRounds(bench, k, contenders, 1, o.maxS, round)));
    }
    for (const rt of o.runtimes) {
      const mine = records.filter((r) => r.runtime === rt && !r.build);
      const theirs = records.filter((r) => r.runtime === rt && r.build);
      const rps = (rs: RunRecord[]) => rs.map((r) => Math.round(r.load.ok_rps));
      const cpu = (rs: RunRecord[]) => median(rs.map((r) => r.cpu_us_per_ok?.process ?? 0));
      const line: AbLine = {
        scenario: k.scenario,
        case: k.case,
        runtime: rt,
        current_rps: median(rps(mine)),
        other_rps: median(rps(theirs)),
        ratio: Math.round((100 * median(rps(mine))) / Math.max(median(rps(theirs)), 1)) / 100,
        current_cpu_us: cpu(mine),
        other_cpu_us: cpu(theirs),
        current_runs: rps(mine),
        other_runs: rps(theirs),
      };
      lines.push(line);
      log(
        `A/B ${k.scenario} / ${k.case} on node ${rt}: current ${line.current_rps} vs ` +
          `${build.label} ${line.other_rps} req/s (x${line.ratio})`,
      );
    }
  }
  for (const p of [...other.values(), ...mineOnOwn.values()]) await bench.stop(p);
  if (o.abProfile && own && mineOwn) {
    const reg = lines.find((l) => l.scenario === 'registrar');
    const rate =
      o.fixedRate ??
      Math.max(10, Math.round(0.6 * Math.min(reg?.current_rps ?? 0, reg?.other_rps ?? 0)));
    await profileBoth(bench, build, rate, [
      {
        label: 'current',
        db: mineOwn.db.url,
        f: () => req.registrar(mineOwn.reg.headers, mineOwn.reg.cuirs),
      },
      {
        label: build.label,
        db: own.db.url,
        f: () => req.registrar(own.reg.headers, own.reg.cuirs),
        build,
      },
    ]);
  }
  await own?.db.drop();
  await mineOwn?.db.drop();
  bench.extra.ab = {
    ref: build.label,
    sha: build.sha,
    rounds: o.abRounds,
    own_database: Boolean(own),
    own_database_each: Boolean(mineOwn),
    lines,
  };
  return lines;
}

/**
 * --ab-own-db: a fresh database beside the bench's, migrated by the build's own CLI while it
 * issues that build's registrar client (same settings otherwise: the sandbox's REFEPS). Both
 * builds get one.
 */
async function ownDatabase(
  ctx: Ctx,
  build: Pick<Build, 'label' | 'root'>,
  /** The database's name ends `_<suffix>`. */
  suffix: string,
): Promise<{ db: BenchDatabase; reg: Registrant }> {
  const { bench } = ctx;
  const db = await createBenchDatabase(bench.o.baseUrl, suffix);
  const env = { ...bench.serviceEnv, DATABASE_URL: db.url };
  const client = await createApiClient(build.root, env, 'bench-registrar-ab');
  const reg = { ...client, cuirs: await issueCuirs(db.pool, client.id, OWN_DB_CUIRS) };
  // The registrar's client already holds --rows prescriptions (1M in a full run), so each build
  // writes into tables and indexes of that size, as on the shared database (issue 30: "at 1M rows").
  const rows = bench.o.bigRows;
  await seedRecetas(db.pool, client.id, rows, 30, BIG_GROUP);
  // Every table the seed and the CUIRs' issue wrote (recetas_cuir too, on the partitioned
  // schema): one left to autovacuum is scanned while the measured load runs.
  await vacuumAnalyze(db.pool);
  log(
    `A/B: ${build.label} on its own database ${db.name}, migrated by its own CLI, ${label(rows)} rows seeded`,
  );
  return { db, reg };
}

/**
 * --ab-profile: each build's registrar on its own database under `node --cpu-prof`, warmed,
 * then loaded twice: at the same fixed rate for both (--fixed-duration seconds), then at max
 * throughput (--duration seconds). Each load's profile window is compared side by side in µs
 * per request (bench/results/cpu-ab-diff-<load>.log), with each side's service and PostgreSQL
 * CPU: at an equal rate the work per request; at max, what saturation adds.
 */
async function profileBoth(
  bench: Bench,
  build: Build,
  rate: number,
  sides: Array<{ label: string; db: string; f: () => RequestFactory; build?: Build }>,
): Promise<void> {
  const { o } = bench;
  mkdirSync(RESULTS, { recursive: true });
  const rt = o.runtimes[0];
  const loads = [
    {
      name: 'fixed',
      what: `fixed ${rate} req/s`,
      run: (url: string, f: RequestFactory) => fixedRun(bench, url, f, rate, o.fixedS),
    },
    {
      name: 'max',
      what: `max, c=${o.connections}`,
      run: (url: string, f: RequestFactory) => runMax(url, f, o.connections, o.maxS),
    },
  ];
  const profiled = new Map<string, ProfiledSide[]>(loads.map((l) => [l.name, []]));
  for (const side of sides) {
    const p = await startProfiled(bench, {
      name: `service [cpu-prof, ${side.label}]`,
      rt,
      file: `cpu-ab-${side.label.replace(/[^a-z0-9]+/gi, '_')}-node${rt}.cpuprofile.json`,
      env: { DATABASE_URL: side.db },
      ...(side.build ? { build: side.build } : {}),
    });
    const f = side.f();
    await runMax(p.svc.url, f, o.connections, o.warmS);
    const requests: number[] = [];
    for (const load of loads) {
      // The window is the load alone (measure() first waits for a quiet machine).
      const record = await bench.measure(
        p.svc,
        {
          scenario: 'registrar',
          case: `profiled, ${load.what}`,
          target: 'service',
          runtime: rt,
          ...(side.build ? { build: build.label } : {}),
        },
        () => p.window(() => load.run(p.svc.url, f)),
      );
      requests.push(Math.round(record.load.ok_rps * record.load.duration_s));
      log(
        `profiled ${side.label}, ${load.what}: ${Math.round(record.load.ok_rps)} req/s, service ` +
          `${record.cpu_us_per_ok?.process} µs/req, postgres ${record.cpu_us_per_ok?.postgres} µs/req`,
      );
    }
    const summaries = await p.stop(80);
    loads.forEach((load, i) =>
      profiled.get(load.name)!.push({
        label: side.label,
        summary: summaries[i],
        requests: requests[i],
      }),
    );
  }
  for (const load of loads) {
    const [a, b] = profiled.get(load.name)!;
    const text = `${load.what}\n${formatProfileDiff(a, b)}`;
    const file = join(RESULTS, `cpu-ab-diff-${load.name}.log`);
    writeFileSync(file, text);
    log(`the two profiles compared (${load.what}): ${file}`);
    process.stdout.write(`${text}\n`);
  }
}
