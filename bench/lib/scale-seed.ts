/**
 * The national-scale seed (issue 30, item 4; scenarios/scale.ts): prescriptions as the service
 * stores them — the patient's DNI sealed (AES-256-GCM, bound to the CUIR) with its blind index,
 * their CUIR rows, three history rows each — and their events, hashed as the insert trigger
 * hashes them, in month partitions going back `months` months, over `clients` clients.
 *
 * A past month is built as a plain table and attached, as a restore or a bulk load would do:
 * rows first, then its indexes (sorted builds) and foreign keys, then `ATTACH PARTITION`, which
 * then only adopts them. Inserting through the partitioned table would maintain eight indexes row
 * by row (~3× slower), and the service's own path (one statement per registration) would take
 * days for 50 million. Two months are built at once (two cores).
 */
import pg from 'pg';
import type { PartitionedTable } from '../../src/database/particiones/particionadas.js';
import {
  createPartitionSql,
  nombrarIndices,
  type Sql,
} from '../../src/database/particiones/particiones.js';
import {
  type Periodo,
  periodoDe,
  primerId,
  primerInstante,
  siguiente,
  sufijo,
} from '../../src/database/particiones/periodos.js';
import {
  claveDerivada,
  type ClavesDatos,
  indiceDocumento,
  LABEL_INDICE,
  parseClaves,
  sellar,
} from '../../src/recetas/cifrado/datos-paciente.js';
import { CUIR_HEAD } from './db.js';
import { log } from './log.js';

/** The seed's group digit (db.ts: seeded group ids start with 2–9; setUp uses 2 and 3). */
export const SCALE_GROUP = 4;
/** Patients: prescription g is patient (g · 7919) mod this, DNI 20,000,000 + it. */
export const PATIENTS = 1_000_003;
/** Rows per INSERT of sealed prescriptions (their seals travel as bytea[] parameters). */
const BATCH = 10_000;

export const scaleCuir = (g: number) =>
  `${CUIR_HEAD}${String(SCALE_GROUP * 1e15 + g).padStart(25, '0')}01`;
export const patientOf = (g: number) => (g * 7919) % PATIENTS;
export const dniOf = (g: number) => String(20_000_000 + patientOf(g));

/** The keys the service holds (PATIENT_DATA_KEYS, API_SECRET_PEPPER), to seal as it seals. */
export interface SealingKeys {
  claves: ClavesDatos;
  indice: Buffer;
}

export function sealingKeys(patientDataKeys: string, pepper: string): SealingKeys {
  const { claves, problems } = parseClaves(patientDataKeys);
  if (!claves) throw new Error(`PATIENT_DATA_KEYS: ${problems.join('; ')}`);
  return { claves, indice: claveDerivada(pepper, LABEL_INDICE) };
}

/** The DNI seals and blind indexes of prescriptions first..first+n-1. */
function sealBatch(keys: SealingKeys, first: number, n: number) {
  const cifrados: Buffer[] = [];
  const indices: Buffer[] = [];
  for (let g = first; g < first + n; g++) {
    const dni = dniOf(g);
    cifrados.push(sellar(keys.claves, 'documento_paciente', scaleCuir(g), dni));
    indices.push(indiceDocumento(keys.indice, dni));
  }
  return { cifrados, indices };
}

/**
 * The columns of a seeded prescription, from a BATCH_ROWS row `u` (its seal, blind index, g and
 * time f) and `$8` (the clients, uuid[]: g's is g mod their count).
 */
const RECETA_COLUMNS = `id_transaccion, client_id, cuir, documento_cifrado, documento_indice,
  matricula_profesional, refeps_id, locacion, id_de_receta, nombre_medicamento, fecha_creacion,
  items, estado, mensaje, intentos, ultimo_intento_at, ministerio_ref, completed_at, created_at,
  updated_at, vigencia_desde, vigencia_hasta`;

const recetaValues = (id: string) => `${id}, ($8::uuid[])[1 + (g % array_length($8::uuid[], 1))],
  ${cuirSql('g')}, u.cifrado, u.indice,
  (100000 + g % 500)::text, (8000000 + g % 500)::text,
  'Hospital de Clínicas, consultorio ' || (g % 40), 'RX-' || g, 'Ibuprofeno', f,
  jsonb_build_array(jsonb_build_object('nombre', 'Ibuprofeno 400 mg comprimidos',
    'cantidad', 1 + g % 3, 'codigo', '1336421')),
  'COMPLETED', 'Transacción completada (bench seed)', 1, f + interval '2 seconds', 'MS-' || g,
  f + interval '2 seconds', f, f + interval '2 seconds',
  ((f AT TIME ZONE 'UTC') - interval '3 hours')::date,
  ((f AT TIME ZONE 'UTC') - interval '3 hours')::date + 29`;

const cuirSql = (g: string) =>
  `'${CUIR_HEAD}' || lpad((${SCALE_GROUP}::bigint * 1000000000000000 + ${g})::text, 25, '0') || '01'`;

/**
 * A batch's rows: the seals ($1, $2) of prescriptions g = $3 … in a span of $6 prescriptions
 * from g = $7, over $5 seconds from $4, their times f spread evenly over it.
 */
const BATCH_ROWS = `SELECT u.*, $3::bigint + u.k - 1 AS g,
    $4::timestamptz + make_interval(secs => $5::float8 * ($3::bigint + u.k - 1 - $7::bigint) / $6::bigint) AS f
  FROM unnest($1::bytea[], $2::bytea[]) WITH ORDINALITY AS u(cifrado, indice, k)`;

/** BATCH_ROWS' and recetaValues' parameters, $1 to $8. */
const batchParams = (
  sealed: { cifrados: Buffer[]; indices: Buffer[] },
  g: number,
  span: { from: Date; seconds: number; rows: number; first: number },
  clients: string[],
) => [sealed.cifrados, sealed.indices, g, span.from, span.seconds, span.rows, span.first, clients];

/**
 * Prescriptions g = first..first+count-1 of `clients`, in the span [from, from + seconds), through
 * the partitioned table with ids from its sequence (the current month: phase one's 1M rows).
 */
export async function seedSealedCurrent(
  pool: pg.Pool,
  keys: SealingKeys,
  clients: string[],
  first: number,
  count: number,
  from: Date,
  seconds: number,
): Promise<void> {
  const span = { from, seconds, rows: count, first };
  for (let done = 0; done < count; done += BATCH) {
    const n = Math.min(BATCH, count - done);
    await pool.query(
      `WITH s AS MATERIALIZED (
         SELECT b.*, nextval('recetas_id_transaccion_seq') AS id FROM (${BATCH_ROWS}) b
       )
       INSERT INTO recetas (${RECETA_COLUMNS})
       SELECT ${recetaValues('u.id')} FROM s u`,
      batchParams(sealBatch(keys, first + done, n), first + done, span, clients),
    );
  }
}

/** What one past month holds. */
interface Month {
  p: Periodo;
  /** Its first prescription's g. */
  first: number;
  rows: number;
  events: number;
  /** The ordinal, over the whole seed, of its first event (for the events' xids). */
  firstEvent: number;
}

export interface ScaleSeedOptions {
  rows: number;
  events: number;
  months: number;
  clients: string[];
  /** The actor of every second event (a dispenser's verification). */
  dispenser: string;
  /** The g of the first past prescription (after the current month's). */
  firstG: number;
  keys: SealingKeys;
  now?: Date;
}

export interface ScaleSeedReport {
  months: number;
  rows: number;
  events: number;
  seconds: number;
  events_per_xid: number;
}

/** A pg client as the service's partition helpers call it (TypeORM's query: the rows). */
const asSql = (c: pg.Client): Sql => ({
  query: async <T>(text: string, params?: unknown[]) => (await c.query(text, params)).rows as T,
});

/**
 * The database's partitioned tables, as the slices declare them: by `id` ranges, or by time
 * when the key is a timestamp (verificaciones_cuir). Read from the catalogue, not the slices,
 * so the bench reads no module's internals.
 */
async function partitionedTables(q: pg.Client): Promise<PartitionedTable[]> {
  const { rows } = await q.query<{ table: string; tiempo: boolean }>(
    `SELECT c.relname AS table, a.atttypid = 'timestamptz'::regtype AS tiempo
       FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid
       JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
      WHERE c.relnamespace = 'public'::regnamespace ORDER BY 1`,
  );
  return rows.map((r) => ({ table: r.table, range: r.tiempo ? 'time' : 'id' }));
}

/**
 * Seeds `rows` prescriptions and `events` events into the `months` months before `now`'s, evenly.
 * The database must be fresh (its `_p0` partitions empty: they are dropped, since they cover every
 * id below the first month the service opened) and its event log unsealed: the events get
 * transaction ids below every real one (3 … the first real event's), as if written years ago,
 * `events_per_xid` per transaction, so the sealer seals them first, in id order.
 */
export async function seedScale(url: string, o: ScaleSeedOptions): Promise<ScaleSeedReport> {
  const started = performance.now();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  let perXid: number;
  let months: Month[];
  try {
    const tables = await partitionedTables(admin);
    await dropEmptyFirstPartitions(admin, tables);
    const [{ sealed }] = (
      await admin.query<{ sealed: boolean }>(
        'SELECT EXISTS (SELECT 1 FROM auditoria_sellos) AS sealed',
      )
    ).rows;
    if (sealed) throw new Error('the event log is sealed already: the seed needs it unsealed');
    const [{ floor }] = (
      await admin.query<{ floor: string }>(
        `SELECT COALESCE((SELECT min(xid) FROM auditoria_eventos), pg_current_xact_id())::text AS floor`,
      )
    ).rows;
    const xids = Number(BigInt(floor) & 0xffffffffn) - 4;
    perXid = Math.max(1, Math.ceil(o.events / Math.max(1, xids)));
    months = plan(o, periodoDe(o.now ?? new Date()));
    await createFollowers(admin, tables, months);
    await recordOpenings(admin, months);
  } finally {
    await admin.end();
  }
  log(
    `scale seed: ${o.rows} prescriptions and ${o.events} events over ${o.months} months, ` +
      `${perXid} events per transaction id`,
  );
  const queue = [...months];
  let done = 0;
  const worker = async () => {
    const c = new pg.Client({ connectionString: url, application_name: 'bench-scale-seed' });
    await c.connect();
    try {
      await c.query(`SET maintenance_work_mem = '512MB'`);
      for (let m = queue.shift(); m; m = queue.shift()) {
        const steps = await seedMonth(c, m, o, perXid);
        log(`scale seed: ${sufijo(m.p)} done (${++done}/${months.length}): ${steps}`);
      }
    } finally {
      await c.end();
    }
  };
  await Promise.all([worker(), worker()]);
  return {
    months: o.months,
    rows: o.rows,
    events: o.events,
    seconds: Math.round((performance.now() - started) / 1000),
    events_per_xid: perXid,
  };
}

function plan(o: ScaleSeedOptions, current: Periodo): Month[] {
  const months: Month[] = [];
  let first = o.firstG;
  let firstEvent = 0;
  for (let i = 0; i < o.months; i++) {
    const rows = Math.floor(o.rows / o.months) + (i < o.rows % o.months ? 1 : 0);
    const events = Math.floor(o.events / o.months) + (i < o.events % o.months ? 1 : 0);
    months.push({ p: siguiente(current, i - o.months), first, rows, events, firstEvent });
    first += rows;
    firstEvent += events;
  }
  return months;
}

/** The empty `_p0` partitions (every id, or instant, below the first month): detached, dropped. */
async function dropEmptyFirstPartitions(q: pg.Client, tables: PartitionedTable[]): Promise<void> {
  // Followers (their foreign keys point at recetas) before recetas.
  for (const t of [...tables].sort(
    (a, b) => Number(a.table === 'recetas') - Number(b.table === 'recetas'),
  )) {
    const name = `${t.table}_p0`;
    const exists = (await q.query('SELECT to_regclass($1) AS r', [name])).rows[0].r !== null;
    if (!exists) continue;
    const { rowCount } = await q.query(`SELECT 1 FROM ${name} LIMIT 1`);
    if (rowCount) throw new Error(`${name} holds rows: the scale seed needs a fresh database`);
    await q.query(`ALTER TABLE ${t.table} DETACH PARTITION ${name}`);
    await q.query(`DROP TABLE ${name}`);
  }
}

/** The tables built by seedMonth; every other partitioned table gets its empty months here. */
const BUILT = new Set(['recetas', 'receta_historial', 'auditoria_eventos']);

async function createFollowers(
  q: pg.Client,
  tables: PartitionedTable[],
  months: Month[],
): Promise<void> {
  for (const m of months)
    for (const t of tables) {
      if (BUILT.has(t.table)) continue;
      for (const sql of createPartitionSql(t, m.p)) await q.query(sql);
      await nombrarIndices(asSql(q), `${t.table}_p${sufijo(m.p)}`);
    }
}

/** Each month's opening, as the scheduler would have recorded it when the month began. */
async function recordOpenings(q: pg.Client, months: Month[]): Promise<void> {
  for (const m of months)
    for (const secuencia of ['recetas.id_transaccion', 'auditoria_eventos.id'])
      await q.query(
        `INSERT INTO particiones_aperturas (secuencia, periodo, primer_id, at) VALUES ($1, $2::date, $3, $4)`,
        [
          secuencia,
          primerInstante(m.p).slice(0, 10),
          primerId(m.p).toString(),
          primerInstante(m.p),
        ],
      );
}

/** Builds one month; says how long each step took. */
async function seedMonth(
  c: pg.Client,
  m: Month,
  o: ScaleSeedOptions,
  perXid: number,
): Promise<string> {
  const s = sufijo(m.p);
  const steps: string[] = [];
  let t = performance.now();
  const step = (what: string) => {
    const now = performance.now();
    steps.push(`${what} ${((now - t) / 1000).toFixed(1)} s`);
    t = now;
  };
  const base = primerId(m.p);
  const from = new Date(primerInstante(m.p));
  const seconds = (new Date(primerInstante(siguiente(m.p))).getTime() - from.getTime()) / 1000;
  const like = (t: string) =>
    `CREATE TABLE ${t}_p${s} (LIKE ${t} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE)`;

  await c.query(like('recetas'));
  const span = { from, seconds, rows: m.rows, first: m.first };
  for (let done = 0; done < m.rows; done += BATCH) {
    const n = Math.min(BATCH, m.rows - done);
    // The month's k-th prescription has the id base + k.
    await c.query(
      `INSERT INTO recetas_p${s} (${RECETA_COLUMNS})
       SELECT ${recetaValues(`$9::bigint + (g - $7::bigint) + 1`)} FROM (${BATCH_ROWS}) u`,
      [
        ...batchParams(sealBatch(o.keys, m.first + done, n), m.first + done, span, o.clients),
        base.toString(),
      ],
    );
  }
  step('prescriptions');
  await c.query(
    `INSERT INTO recetas_cuir (cuir, id_transaccion) SELECT cuir, id_transaccion FROM recetas_p${s}`,
  );
  step('CUIRs');

  // A completed prescription's history: registered, delivered, its state.
  await c.query(like('receta_historial'));
  await c.query(
    `INSERT INTO receta_historial_p${s} (id, id_transaccion, at, evento, estado, intento, resultado, detalle)
     SELECT nextval(pg_get_serial_sequence('receta_historial', 'id')), r.id_transaccion,
            r.fecha_creacion + h.after, h.evento, h.estado, h.intento, h.resultado,
            CASE h.evento WHEN 'REGISTRADA' THEN NULL ELSE h.detalle || r.ministerio_ref END
       FROM recetas_p${s} r,
            (VALUES ('REGISTRADA', 'PENDING', NULL::int, NULL, NULL, interval '0'),
                    ('INTENTO', 'PENDING', 1, 'ok', 'received as ', interval '2 seconds'),
                    ('ESTADO', 'COMPLETED', 1, 'completed', 'ministerio_ref ', interval '2 seconds'))
              AS h(evento, estado, intento, resultado, detalle, after)`,
  );
  step('history');

  // Events: the even ones the registration's (its client, a client request id), the odd ones a
  // dispenser's verification a day later; spread over the month's prescriptions in order.
  await c.query(like('auditoria_eventos'));
  await c.query(
    `INSERT INTO auditoria_eventos_p${s} (id, at, tipo, cuir, id_transaccion, actor, resultado,
       request_id, xid, client_request_id, hash)
     SELECT e.id, e.at, e.tipo, e.cuir, e.id_transaccion, e.actor, e.resultado, e.request_id,
       e.xid, e.client_request_id,
       sha256(convert_to(concat_ws('|',
          CASE WHEN e.client_request_id IS NULL THEN 'ev1' ELSE 'ev2' END,
          octet_length(e.id::text) || ':' || e.id,
          octet_length(e.at_text) || ':' || e.at_text,
          octet_length(e.tipo) || ':' || e.tipo,
          octet_length(e.cuir::text) || ':' || e.cuir::text,
          octet_length(e.id_transaccion::text) || ':' || e.id_transaccion,
          octet_length(e.actor) || ':' || e.actor,
          octet_length(e.resultado) || ':' || e.resultado,
          octet_length(e.request_id) || ':' || e.request_id,
          CASE WHEN e.client_request_id IS NOT NULL
               THEN octet_length(e.client_request_id) || ':' || e.client_request_id END,
          octet_length(e.xid::text) || ':' || e.xid), 'UTF8'))
     FROM (
       SELECT v.*, to_char(v.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at_text
         FROM (
           SELECT q.id, q.xid, q.tipo, r.cuir, r.id_transaccion, 'ok'::text AS resultado,
                  md5(q.id::text)::uuid::text AS request_id,
                  CASE WHEN q.j % 2 = 0 THEN r.client_id::text ELSE $6::text END AS actor,
                  CASE WHEN q.j % 2 = 0 THEN r.fecha_creacion
                       ELSE r.fecha_creacion + interval '1 day' END AS at,
                  CASE WHEN q.j % 2 = 0 THEN 'cli-' || r.id_de_receta END AS client_request_id
             FROM (
               SELECT $1::bigint + j + 1 AS id, j,
                      $1::bigint + floor(j::float8 * $2::float8 / $3::float8)::bigint + 1 AS id_transaccion,
                      (3 + ($4::bigint + j) / $5::bigint)::text::xid8 AS xid,
                      CASE WHEN j % 2 = 0 THEN 'registro' ELSE 'verificacion' END AS tipo
                 FROM generate_series(0, $3::bigint - 1) j
             ) q JOIN recetas_p${s} r ON r.id_transaccion = q.id_transaccion
         ) v
     ) e
     ORDER BY e.id`,
    [base.toString(), m.rows, m.events, m.firstEvent, perXid, o.dispenser],
  );
  step('events');

  for (const t of ['recetas', 'receta_historial', 'auditoria_eventos']) {
    await buildLikeParent(c, t, `${t}_p${s}`, s);
    const to = primerId(siguiente(m.p)).toString();
    await c.query(
      `ALTER TABLE ${t} ATTACH PARTITION ${t}_p${s} FOR VALUES FROM (${base}) TO (${to})`,
    );
    await nombrarIndices(asSql(c), `${t}_p${s}`);
    step(`${t} indexes, attach`);
    await c.query(`VACUUM (ANALYZE) ${t}_p${s}`);
    step('vacuum');
  }
  return steps.join(', ');
}

/**
 * The parent's indexes, primary key and foreign keys, built on the loaded table before it is
 * attached (ATTACH adopts matching ones), under the names the service gives a month's.
 */
async function buildLikeParent(c: pg.Client, parent: string, table: string, s: string) {
  const { rows } = await c.query<{ name: string; def: string; con: string | null }>(
    `SELECT i.relname AS name, pg_get_indexdef(x.indexrelid) AS def,
            (SELECT pg_get_constraintdef(k.oid) FROM pg_constraint k
              WHERE k.conindid = x.indexrelid AND k.conrelid = x.indrelid) AS con
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
      WHERE x.indrelid = $1::regclass`,
    [parent],
  );
  for (const r of rows) {
    const name = `${r.name}_p${s}`;
    if (r.con) await c.query(`ALTER TABLE ${table} ADD CONSTRAINT ${name} ${r.con}`);
    else
      await c.query(
        r.def.replace(
          /^CREATE (UNIQUE )?INDEX \S+ ON ONLY \S+/,
          (_m, u: string | undefined) => `CREATE ${u ?? ''}INDEX ${name} ON ${table}`,
        ),
      );
  }
  const fks = await c.query<{ name: string; def: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE conrelid = $1::regclass AND contype = 'f' AND conparentid = 0`,
    [parent],
  );
  // Checked by probing the referenced index row by row: a hash or merge join would read all of
  // recetas_cuir for every month (31 s a month at 25M rows, and growing).
  await c.query('SET enable_hashjoin = off');
  await c.query('SET enable_mergejoin = off');
  for (const f of fks.rows) await c.query(`ALTER TABLE ${table} ADD CONSTRAINT ${f.name} ${f.def}`);
  await c.query('RESET enable_hashjoin');
  await c.query('RESET enable_mergejoin');
}
