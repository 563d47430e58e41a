import type { Bench } from './bench.js';
import { ROOT } from './bench.js';
import {
  createApiClient,
  seedRecetas,
  syncCatalogue,
  vacuumAnalyze,
  type ApiCredentials,
} from './db.js';
import { issueCuirs, type Registrant } from './cuir-supply.js';
import { log } from './log.js';
import type { Options } from './options.js';
import { sealingKeys, seedSealedCurrent } from './scale-seed.js';
import * as req from './requests.js';

export const PEPPER = 'bench-only-pepper-not-a-secret-0123456789';
/** The seed's group digits (db.ts): the big listing client's and the small one's. */
export const BIG_GROUP = 2;
export const SMALL_GROUP = 3;
/**
 * CUIRs issued to the registrar client up front: a full run's registrations (every contender,
 * runtime and round, max and fixed rate, the dispensar pool) stay well under it.
 */
export const REGISTRAR_CUIRS = 1_000_000;

export interface Clients {
  reg: Registrant;
  big: ApiCredentials;
  small: ApiCredentials;
  drain: Registrant;
  /** A dispenser: verifies by CUIR and dispenses (every scope, as --scopes all gives). */
  disp: ApiCredentials;
}

/** What every scenario shares: the clients, the listing window, catalogue codes, the sandbox. */
export interface Setup {
  clients: Clients;
  window: { desde: string; hasta: string };
  codes: string[];
  catalogItems: number;
  sandboxUrl: string;
}

/** The service's environment on the bench's database, with the sandbox as every upstream. */
export function serviceEnvFor(
  o: Options,
  dbUrl: string,
  sandboxUrl: string,
): Record<string, string> {
  return {
    NODE_ENV: 'production',
    API_SECRET_PEPPER: PEPPER,
    VERIFICACION_PUBLICA_CLAVE: `${PEPPER}-qr-links`,
    // 32 fixed bytes (not a secret: a bench database); production requires the setting.
    PATIENT_DATA_KEYS: `bench:${Buffer.from('bench-only-patient-data-key-0123').toString('base64')}`,
    DATABASE_URL: dbUrl,
    HOST: '127.0.0.1',
    PORT: '0',
    DEMO_CLIENT: 'false',
    // One process: the scenarios measure a process (the national mix sets its own workers).
    WEB_CONCURRENCY: '1',
    REFEPS_BASE_URL: sandboxUrl,
    RENAPER_BASE_URL: sandboxUrl,
    CATALOGO_BASE_URL: sandboxUrl,
    MINISTERIO_BASE_URL: sandboxUrl,
    // The patient's routes (contract §8) with the sandbox as the Mi Argentina issuer.
    PACIENTE_JWKS_URL: `${sandboxUrl}/__sandbox/mi-argentina/jwks.json`,
    PACIENTE_JWT_ISSUER: `${sandboxUrl}/__sandbox/mi-argentina`,
    PACIENTE_JWT_AUDIENCE: 'prescription-registry',
    CATALOG_SYNC_INTERVAL_MINUTES: '0',
    MINISTRY_DELIVERY_ENABLED: 'false',
    // The scale run seeds years of events below the real ones' transaction ids: nothing may be
    // sealed before (scenarios/scale.ts seals it all at the end, and times it).
    ...(o.scale ? { AUDIT_SEAL_SECONDS: '0' } : {}),
  };
}

/**
 * Clients issued with the service's CLI (which also migrates the database), the catalogue
 * mirror synced from the bench's sandbox, and the listing data seeded in bulk.
 */
export async function setUp(bench: Bench, sandboxUrl: string): Promise<Setup> {
  const { o, db } = bench;
  bench.serviceEnv = serviceEnvFor(o, db.url, sandboxUrl);
  const env = bench.serviceEnv;
  const registrant = async (name: string, cuirs: number): Promise<Registrant> => {
    const c = await createApiClient(ROOT, env, name);
    return { ...c, cuirs: await issueCuirs(db.pool, c.id, cuirs) };
  };
  const clients: Clients = {
    // Every registration of the registrar, dispensar, documento and profile scenarios.
    reg: await registrant('bench-registrar', REGISTRAR_CUIRS),
    big: await createApiClient(ROOT, env, 'bench-listing-big'),
    small: await createApiClient(ROOT, env, 'bench-listing-small'),
    drain: await registrant('bench-delivery', o.deliveryJobs),
    disp: await createApiClient(ROOT, env, 'bench-dispenser'),
  };
  bench.peerCredentials = Object.values(clients).map(({ key, secret }) => ({ key, secret }));
  log('clients issued, database migrated');
  const sync = await syncCatalogue(ROOT, env);
  log(`catalogue mirror synced from the sandbox: ${sync.items} items in ${sync.duration_ms} ms`);
  const seedBigMs = o.scale
    ? await timed(() =>
        // As the service stores them (the DNI sealed, its blind index): the scale run's 1M rows.
        seedSealedCurrent(
          db.pool,
          sealingKeys(env.PATIENT_DATA_KEYS, PEPPER),
          [clients.big.id],
          1,
          o.bigRows,
          new Date(Date.now() - 30 * 86_400_000),
          30 * 86_400,
        ),
      )
    : await seedRecetas(db.pool, clients.big.id, o.bigRows, 30, BIG_GROUP);
  const seedSmallMs = await seedRecetas(db.pool, clients.small.id, o.smallRows, 30, SMALL_GROUP);
  const vacuumStart = performance.now();
  // The whole database: recetas_cuir too on the partitioned schema, and the issued CUIRs.
  await vacuumAnalyze(db.pool);
  log(
    `seeded ${o.bigRows} + ${o.smallRows} prescriptions in ${((seedBigMs + seedSmallMs) / 1000).toFixed(1)} s, ` +
      `VACUUM ANALYZE ${((performance.now() - vacuumStart) / 1000).toFixed(1)} s`,
  );
  bench.extra.setup = {
    catalog_sync: sync,
    seed_ms: { big: Math.round(seedBigMs), small: Math.round(seedSmallMs) },
  };
  const codes = (
    await db.pool.query<{ code: string }>(
      'SELECT code FROM medicamentos ORDER BY md5(code) LIMIT 4',
    )
  ).rows.map((r) => r.code);
  return { clients, window: req.listingWindow(), codes, catalogItems: sync.items, sandboxUrl };
}

async function timed(work: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await work();
  return performance.now() - t0;
}
