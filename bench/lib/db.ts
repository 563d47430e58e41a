import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

export interface BenchDatabase {
  name: string;
  url: string;
  pool: pg.Pool;
  drop(): Promise<void>;
}

/**
 * Creates `bench_<ts>` (`bench_<ts>_<suffix>`) beside the database of `baseUrl`; drop() removes
 * it (connections forced out).
 */
export async function createBenchDatabase(baseUrl: string, suffix = ''): Promise<BenchDatabase> {
  const name = `bench_${Date.now()}${suffix ? `_${suffix}` : ''}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const pool = new pg.Pool({ connectionString: url, max: 4, application_name: 'bench-admin' });
  pool.on('error', () => undefined);
  let dropped = false;
  return {
    name,
    url,
    pool,
    async drop() {
      if (dropped) return;
      dropped = true;
      await pool.end().catch(() => undefined);
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

export interface ApiCredentials {
  id: string;
  key: string;
  secret: string;
  headers: Record<string, string>;
}

/**
 * Issues a client through the service's own credentials tool (it also migrates the database):
 * every scope unless `scopes` names them; `extra`: more of the tool's flags (`--platform-id`).
 */
export async function createApiClient(
  root: string,
  env: Record<string, string>,
  name: string,
  scopes = 'all',
  extra: string[] = [],
): Promise<ApiCredentials> {
  const { stdout } = await run(
    process.execPath,
    [
      'dist/src/cli/main.js',
      'clients',
      'create',
      '--name',
      name,
      '--scopes',
      scopes,
      '--rate-limit',
      '1000000',
      ...extra,
      '--json',
    ],
    { cwd: root, env: { ...process.env, ...env, LOG_LEVEL: 'silent' } },
  );
  const c = JSON.parse(stdout) as { id: string; key: string; secret: string };
  return { ...c, headers: { 'x-api-key': c.key, 'x-api-secret': c.secret } };
}

/** Fills the catalogue mirror through the service's own sync command (CATALOGO_BASE_URL in env). */
export async function syncCatalogue(
  root: string,
  env: Record<string, string>,
): Promise<{ items: number; duration_ms: number }> {
  const { stdout } = await run(
    process.execPath,
    ['dist/src/cli/main.js', 'catalogo', 'sync', '--json'],
    {
      cwd: root,
      env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return JSON.parse(stdout) as { items: number; duration_ms: number };
}

/**
 * CUIR prefix of every bench prescription: platform 0001, repository 0001, jurisdiction 02,
 * type 01 (medication), subtype 02 (bajo receta). The 25-digit group id follows, then item 01.
 * Group ids start with a per-source digit, so seeded and registered CUIRs never collide.
 */
export const CUIR_HEAD = '00010001020102';

/**
 * Bulk-seeds `count` prescriptions of one client in one INSERT … SELECT over generate_series,
 * spread evenly over the `days` before now (newest last, so ids grow with time as in
 * production), 500 prescribers, 90% COMPLETED / 8% PENDING / 2% FAILED. No history rows.
 */
export async function seedRecetas(
  pool: pg.Pool,
  clientId: string,
  count: number,
  days: number,
  groupDigit: number,
): Promise<number> {
  const started = performance.now();
  // The prescription's life (contract §7) adds a validity window, NOT NULL: filled as its migration
  // fills existing rows (the Argentina date of fecha_creacion, 30 days for a medicine).
  const vigencia = (
    await pool.query(
      `SELECT 1 FROM information_schema.columns WHERE table_name = 'recetas' AND column_name = 'vigencia_desde'`,
    )
  ).rowCount
    ? {
        columns: ', vigencia_desde, vigencia_hasta',
        values: `, ((f AT TIME ZONE 'UTC') - interval '3 hours')::date,
          ((f AT TIME ZONE 'UTC') - interval '3 hours')::date + 29`,
      }
    : { columns: '', values: '' };
  // Partitioned recetas (issue 30) keep one row per CUIR in recetas_cuir: the ids are drawn
  // first. Written by recetas' insert trigger since session 14 (recetas_cuir_registrar, then
  // recetas_al_insertar since session 16); before it (an A/B against such a build), by the
  // seed's statement, which recetas' foreign key then asked for.
  const partitioned = (
    await pool.query(`SELECT 1 FROM pg_class WHERE relname = 'recetas_cuir' AND relkind = 'r'`)
  ).rowCount;
  const byTrigger = (
    await pool.query(
      `SELECT 1 FROM pg_trigger WHERE tgname IN ('recetas_cuir_registrar', 'recetas_al_insertar')`,
    )
  ).rowCount;
  const cuirRows = partitioned
    ? {
        head: `WITH s AS MATERIALIZED (
          SELECT *, nextval('recetas_id_transaccion_seq') AS id,
            $2 || lpad(($3::bigint * 1000000000000000 + g)::text, 25, '0') || '01' AS cuir
          FROM (${SEED_ROWS}) q
        )${byTrigger ? '' : ', k AS (INSERT INTO recetas_cuir (cuir, id_transaccion) SELECT cuir, id FROM s)'} `,
        idColumn: 'id_transaccion, ',
        idValue: 's.id, ',
        cuir: 's.cuir',
        from: 's',
      }
    : {
        head: '',
        idColumn: '',
        idValue: '',
        cuir: `$2 || lpad(($3::bigint * 1000000000000000 + g)::text, 25, '0') || '01'`,
        from: `(${SEED_ROWS}) s`,
      };
  await pool.query(
    `${cuirRows.head}INSERT INTO recetas (${cuirRows.idColumn}client_id, cuir, documento_paciente, matricula_profesional, refeps_id,
       locacion, id_de_receta, nombre_medicamento, fecha_creacion, items, estado, mensaje, intentos,
       ultimo_intento_at, ministerio_ref, failure_reason, completed_at, created_at, updated_at${vigencia.columns})
     SELECT ${cuirRows.idValue}$1::uuid,
       ${cuirRows.cuir},
       (10000000 + (g * 7919) % 89999999)::text,
       (100000 + g % 500)::text,
       (8000000 + g % 500)::text,
       'Hospital de Clínicas, consultorio ' || (g % 40),
       'RX-' || g,
       'Ibuprofeno',
       f,
       jsonb_build_array(jsonb_build_object('nombre', 'Ibuprofeno 400 mg comprimidos',
         'cantidad', 1 + g % 3, 'codigo', '1336421')),
       e,
       CASE e WHEN 'COMPLETED' THEN $6 WHEN 'FAILED' THEN $7 ELSE $8 END,
       CASE e WHEN 'PENDING' THEN 0 ELSE 1 END,
       CASE e WHEN 'PENDING' THEN NULL ELSE f + interval '2 seconds' END,
       CASE e WHEN 'COMPLETED' THEN 'MS-' || g END,
       CASE e WHEN 'FAILED' THEN 'rejected by the ministry: RECHAZADO bench' END,
       CASE e WHEN 'COMPLETED' THEN f + interval '2 seconds' END,
       f, f + interval '2 seconds'${vigencia.values}
     FROM ${cuirRows.from}`,
    [
      clientId,
      CUIR_HEAD,
      groupDigit,
      count,
      days,
      // Seeded rows only need a message of each state's length; the listing never shows it.
      'Transacción completada (bench seed)',
      'Transacción fallida (bench seed)',
      'Transacción iniciada (bench seed)',
    ],
  );
  return performance.now() - started;
}

/** The seed's rows before their columns: each row's number, its time and its state. */
const SEED_ROWS = `SELECT g,
    now() - make_interval(secs => $5::float8 * 86400 * ($4::bigint - g) / $4::bigint) AS f,
    CASE WHEN g % 50 = 0 THEN 'FAILED' WHEN g % 12 = 0 THEN 'PENDING' ELSE 'COMPLETED' END AS e
  FROM generate_series(1, $4::bigint) AS g`;

/**
 * After a seed, before anything is measured: VACUUM (ANALYZE) of the whole database, as
 * autovacuum would eventually (fresh statistics, a set visibility map) — every table a seed
 * wrote, whatever the schema (on the partitioned one the seed writes recetas_cuir too; left to
 * autovacuum, a million-row table is scanned during the measured rounds). Then a CHECKPOINT
 * writes the seed's dirty pages now: else the checkpointer spreads them over the first minutes
 * of load (a rising trend across the first rounds).
 */
export async function vacuumAnalyze(pool: pg.Pool): Promise<void> {
  await pool.query('VACUUM (ANALYZE)');
  // Needs superuser or pg_checkpoint (PostgreSQL 15): without it, measured anyway.
  await pool.query('CHECKPOINT').catch(() => undefined);
}

/** The CUIR of seeded prescription `g` (1-based) of the seed made with `groupDigit`. */
export const seededCuir = (groupDigit: number, g: number) =>
  `${CUIR_HEAD}${String(groupDigit * 1e15 + g).padStart(25, '0')}01`;
