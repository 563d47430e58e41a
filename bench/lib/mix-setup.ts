import type { Bench } from './bench.js';
import { ROOT } from './bench.js';
import { createApiClient, syncCatalogue, type ApiCredentials } from './db.js';
import { log } from './log.js';
import {
  cuilOf,
  MixState,
  Queue,
  type Citizen,
  type Pharmacy,
  type Platform,
} from './mix-requests.js';
import { runClosed, type Sender } from './open-loop.js';
import { startNodeProcess, type RunningProcess } from './proc.js';
import { validCuit } from './requests.js';
import { serviceEnvFor } from './setup.js';

export const PLATFORMS = 20;
export const PHARMACIES = 40;
/** Patients: their prescriptions' documents, and the citizens whose tokens read them. */
export const CITIZENS = 500;

/**
 * The service's settings for the mix, before the command line's `--env`: ministry delivery on
 * (as deployed: every registration's pointer reaches the sandbox's ministry), and the per-address
 * limits raised, since every request of the run comes from one address (the bench's), as are the
 * per-citizen and the enumeration limits, which only a synthetic population would reach.
 */
export const MIX_ENV = {
  MINISTRY_DELIVERY_ENABLED: 'true',
  VERIFICACION_FALLOS_POR_MINUTO: '100000',
  VERIFICACION_PUBLICA_POR_MINUTO: '1000000',
  PACIENTE_POR_IP_POR_MINUTO: '1000000',
  PACIENTE_POR_MINUTO: '100000',
};

/** The sandbox in its own process (bench/sandbox-server.ts), so its CPU is measured apart. */
export async function startSandboxProcess(catalogSize: number): Promise<RunningProcess> {
  return startNodeProcess({
    name: 'sandbox',
    script: 'dist/bench/sandbox-server.js',
    cwd: ROOT,
    env: { SANDBOX_CATALOG_SIZE: String(catalogSize) },
  });
}

/** A small seeded generator (mulberry32): the same arrivals and choices on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` tasks, at most `lanes` at once. */
async function inLanes<T>(n: number, lanes: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array<T>(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await task(i);
      }
    }),
  );
  return out;
}

/**
 * The service's environment, then 20 platforms and 40 pharmacies issued with the service's CLI
 * (the first alone: it migrates), the catalogue mirror synced, and the citizens' tokens.
 */
export async function setUpMix(
  bench: Bench,
  sandboxUrl: string,
  random: () => number,
): Promise<{ state: MixState; tokens: CitizenTokens }> {
  const { o, db } = bench;
  bench.serviceEnv = { ...serviceEnvFor(o, db.url, sandboxUrl), ...MIX_ENV, ...o.mix!.env };
  const env = bench.serviceEnv;
  const t0 = performance.now();
  const platform = async (i: number): Promise<Platform> => {
    const platformId = String(101 + i).padStart(4, '0');
    const c = await createApiClient(
      ROOT,
      env,
      `bench-mix-platform-${i + 1}`,
      'cuir:write,recetas:write,recetas:read',
      ['--platform-id', platformId],
    );
    return { ...c, platformId, cuirs: new Queue<string>() };
  };
  const first = await platform(0);
  const rest = await inLanes(PLATFORMS - 1, 4, (i) => platform(i + 1));
  const pharmacies = await inLanes(PHARMACIES, 4, async (i): Promise<Pharmacy> => {
    const c: ApiCredentials = await createApiClient(
      ROOT,
      env,
      `bench-mix-pharmacy-${i + 1}`,
      'recetas:verify,dispensas:write',
    );
    return { ...c, cuit: validCuit('30', 70_000_000 + i * 1000) };
  });
  log(
    `${PLATFORMS} platforms and ${PHARMACIES} pharmacies issued in ` +
      `${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
  const sync = await syncCatalogue(ROOT, env);
  log(`catalogue mirror synced from the sandbox: ${sync.items} items in ${sync.duration_ms} ms`);
  const citizens: Citizen[] = Array.from({ length: CITIZENS }, (_, i) => {
    const dni = String(20_000_000 + i * 7919);
    return { dni, cuil: cuilOf(dni), mintedAt: 0 };
  });
  const tokens = new CitizenTokens(sandboxUrl, citizens);
  await tokens.refresh();
  tokens.start();
  log(`${CITIZENS} citizens' tokens minted by the sandbox's Mi Argentina`);
  const clave = env.VERIFICACION_PUBLICA_CLAVE;
  const state = new MixState([first, ...rest], pharmacies, citizens, clave, random);
  return { state, tokens };
}

/**
 * Prescriptions registered through the API before any timed load, so the first reads,
 * reservations and dispensations have something to act on: CUIRs generated (and a stock left
 * for the first registrations), `n` registrations, a fifth of them reserved.
 */
export async function seedThroughApi(sender: Sender, state: MixState, n: number): Promise<void> {
  const t0 = performance.now();
  const gen = await runClosed(sender, () => state.generar(), n + 50 * PLATFORMS, 16);
  const reg = await runClosed(sender, () => state.registrar(), n, 16);
  const res = await runClosed(sender, () => state.reservar(), Math.floor(n / 5), 16);
  log(
    `seeded through the API in ${((performance.now() - t0) / 1000).toFixed(1)} s: CUIRs ` +
      `${JSON.stringify(gen)}, registrations ${JSON.stringify(reg)}, reservations ${JSON.stringify(res)}`,
  );
}

/**
 * Mi Argentina tokens for the citizens, from the sandbox (contract §8): minted up front and
 * re-minted in the background before the service's 300-second lifetime runs out.
 */
export class CitizenTokens {
  private timer?: NodeJS.Timeout;
  private busy = false;

  constructor(
    private readonly sandboxUrl: string,
    private readonly citizens: Citizen[],
  ) {}

  async refresh(olderThanMs = 0): Promise<void> {
    const now = Date.now();
    const due = this.citizens.filter((c) => now - c.mintedAt >= olderThanMs);
    await inLanes(due.length, 4, async (i) => {
      const c = due[i];
      const r = await fetch(`${this.sandboxUrl}/__sandbox/mi-argentina/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ cuil: c.cuil }),
      });
      if (!r.ok) throw new Error(`the sandbox refused a token: ${r.status} ${await r.text()}`);
      c.token = ((await r.json()) as { token: string }).token;
      c.mintedAt = Date.now();
    });
  }

  start(): void {
    this.timer = setInterval(() => {
      if (this.busy) return;
      this.busy = true;
      void this.refresh(200_000)
        .catch((err: unknown) => log(`citizen tokens: ${String(err)}`))
        .finally(() => (this.busy = false));
    }, 15_000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
