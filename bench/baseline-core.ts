/**
 * What the bare baseline and the framework floor answer for POST /v1/recetas/registrar and
 * GET /v1/recetas/listar: the SQL the service runs, on a plain `pg` pool, with the service's
 * response shapes. Each server only wraps these two functions in its own HTTP stack, so the
 * difference between them is the price of that stack alone (see BENCHMARKS.md).
 *
 * The SQL is the service's own, read from the surface bench/ may use: the modules' `*.sql.ts`
 * files (checked by `npm run lint:deps`). So when the service's SQL changes, both follow, and a
 * signature change fails the bench's type check.
 *  - registrar: registro.sql.ts's statement, taking the Idempotency-Key and storing its answer
 *    (idempotency.sql.ts's gate), inserting the prescription, its history entry and its
 *    pg-boss job (queue/job.sql.ts, the service's copy of pg-boss's insertJob), as the service
 *    does when the licence check is cached; a refused gate is a 409 (the service looks the key
 *    up for a replay), a CUIR unique violation too.
 *  - listar: listado.sql.ts: the snapshot watermark, then one statement for the capped count
 *    and the page, and the same mapping to the answer.
 *  - the patient's document is sealed and indexed before the statement and opened after it,
 *    and SPEC 9.2's personal members sealed before it (one value), as the service does
 *    (src/recetas/cifrado/, outside the surface: the same AES-256-GCM and HMAC under fixed
 *    bench keys, below), so the baseline pays the same CPU.
 *
 * Env: DATABASE_URL, DATABASE_POOL_SIZE (default 10), QUEUE_SCHEMA (default pgboss),
 * BASELINE_LIST_COUNT_CAP (the service's LIST_COUNT_CAP).
 */
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createSecretKey,
  randomBytes,
  randomUUID,
} from 'node:crypto';
import pg from 'pg';
import { eventInStatementSql } from '../src/auditoria/auditoria.sql.js';
import { notIssuedToClientSql } from '../src/cuir/cuir-ownership.sql.js';
import {
  answerWithIdSql,
  requestHash,
  takeKeyGateSql,
} from '../src/idempotency/idempotency.sql.js';
import { insertJobSql } from '../src/queue/job.sql.js';
import {
  LATEST_ID_SQL,
  LIST_COUNT_CAP,
  listingAnswer,
  listingSql,
  type ListingRow,
  type ListingRowSellada,
} from '../src/recetas/consulta/listado.sql.js';
import {
  firstDeliveryJobData,
  MINISTERIO_QUEUE,
} from '../src/recetas/notificacion/ministerio-delivery.sql.js';
import {
  insertRegistroSql,
  pendingAnswer,
  type RegistroRequest,
} from '../src/recetas/registro/registro.sql.js';
import type { CompanionStatement } from '../src/common/sql/sql-params.js';

const schema = process.env.QUEUE_SCHEMA ?? 'pgboss';
const COUNT_CAP = Number(process.env.BASELINE_LIST_COUNT_CAP ?? LIST_COUNT_CAP);

export const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
  connectionTimeoutMillis: 5000,
  idleTimeoutMillis: 30000,
  application_name: 'bench-baseline',
});
pool.on('error', () => undefined);

export interface Answer {
  status: number;
  body: unknown;
}

/**
 * The validity window the service computes before its statement (src/recetas/vida/vigencia.ts,
 * outside the surface bench/ may read): the request's start date or the date of fecha_creacion
 * in Argentina time (UTC−03:00), for 30 days (CUIR type 01) or 60, inclusive — the defaults.
 */
function vigencia(r: RegistroRequest): { desde: string; hasta: string } {
  const day = 86_400_000;
  const desde =
    r.fecha_inicio_vigencia ??
    new Date(Date.parse(r.fecha_creacion) - 3 * 3600_000).toISOString().slice(0, 10);
  const n = r.cuir.slice(10, 12) === '01' ? 30 : 60;
  const hasta = new Date(Date.parse(`${desde}T00:00:00Z`) + (n - 1) * day);
  return { desde, hasta: hasta.toISOString().slice(0, 10) };
}

const DATA_KEY = Buffer.alloc(32, 7);
const INDEX_KEY = Buffer.alloc(32, 9);
const KID = Buffer.from('bench', 'ascii');
/** The Idempotency-Key fingerprint's key (the service derives its own from the pepper). */
const FINGERPRINT_KEY = createSecretKey(Buffer.alloc(32, 5));

/**
 * The service's sealed format (src/recetas/cifrado/datos-paciente.ts): version, kid, IV, tag,
 * body, bound to `<column>:<cuir>`.
 */
function sealed(column: string, cuir: string, text: string): Buffer {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', DATA_KEY, iv).setAAD(Buffer.from(`${column}:${cuir}`));
  const body = Buffer.concat([c.update(text, 'utf8'), c.final()]);
  return Buffer.concat([Buffer.from([1, KID.length]), KID, iv, c.getAuthTag(), body]);
}

/**
 * What the service seals before the statement: the document (with the content hash's salt)
 * and its blind index, and SPEC 9.2's personal members as one value
 * (src/recetas/cifrado/datos-personales.ts: the compact JSON of those present, under the same
 * short keys; null without any).
 */
function seal(r: RegistroRequest) {
  const { paciente: p, cobertura: k, diagnostico: d } = r;
  // JSON.stringify leaves the undefined members out, as the service does.
  const personales =
    p || k || d
      ? JSON.stringify({
          n: p?.nombre,
          a: p?.apellido,
          s: p?.sexo,
          f: p?.fecha_nacimiento,
          na: k?.numero_afiliado,
          dc: d?.codigo,
          dd: d?.descripcion,
        })
      : null;
  return {
    // With the content hash's 16-byte salt inside (documentoConSal): never in clear.
    documento_cifrado: sealed(
      'documento_paciente',
      r.cuir,
      `${r.documento_paciente}:${randomBytes(16).toString('base64')}`,
    ),
    documento_indice: blindIndex(r.documento_paciente),
    personales_cifrado:
      personales === null ? null : sealed('personales_cifrado', r.cuir, personales),
  };
}

const blindIndex = (documento: string) =>
  createHmac('sha256', INDEX_KEY).update(`dni:${documento}`).digest().subarray(0, 16);

function open(cuir: string, sealed: Buffer | null, plain: string | null): string {
  if (!sealed) return plain as string;
  const s = 2 + sealed[1];
  const d = createDecipheriv('aes-256-gcm', DATA_KEY, sealed.subarray(s, s + 12))
    .setAAD(Buffer.from(`documento_paciente:${cuir}`))
    .setAuthTag(sealed.subarray(s + 12, s + 28));
  const text = Buffer.concat([d.update(sealed.subarray(s + 28)), d.final()]).toString('utf8');
  // The DNI, without the content hash's salt after it.
  return text.split(':')[0];
}

export const failure = (status: number, code: string): Answer => ({
  status,
  body: { success: false, error: { code, message: code } },
});

/**
 * One registration at `path` (the request's actual path): the key is stored with the
 * service's own fingerprint of the request (method, path, canonical body; an HMAC).
 */
export async function register(
  clientId: string,
  request: RegistroRequest,
  path: string,
  idempotencyKey: unknown,
): Promise<Answer> {
  const key = typeof idempotencyKey === 'string' ? idempotencyKey.toLowerCase() : null;
  const answer = (id: string) => ({ id_transaccion: id, ...pendingAnswer(request) });
  const job: CompanionStatement = (p, source) =>
    insertJobSql(schema, p, {
      queue: MINISTERIO_QUEUE,
      data: firstDeliveryJobData(source),
      from: source,
    });
  let gate: CompanionStatement | undefined;
  if (key) {
    const placeholder = `id-${randomUUID()}`;
    const text = JSON.stringify({ success: true, data: answer(placeholder) });
    const k = {
      clientId,
      key,
      requestHash: requestHash(FINGERPRINT_KEY, 'POST', path, request),
      successStatus: 201,
    };
    gate = (p, source) =>
      takeKeyGateSql(p, k, answerWithIdSql(p, text, placeholder, source), source);
  }
  // The registration's event-log row, as the service writes it (request ids: none here).
  const event = eventInStatementSql({
    tipo: 'registro',
    cuir: request.cuir,
    actor: clientId,
    resultado: 'ok',
    requestId: null,
    clientRequestId: null,
  });
  const statement = insertRegistroSql(
    clientId,
    request,
    seal(request),
    vigencia(request),
    key,
    [job, event],
    gate,
    notIssuedToClientSql(clientId, request.cuir),
  );
  let row: { id_transaccion: string | null; blocked: boolean };
  try {
    row = (await pool.query(statement.sql, statement.values)).rows[0];
  } catch (err) {
    if ((err as { code?: string }).code === '23505') return failure(409, 'CUIR_ALREADY_REGISTERED');
    throw err;
  }
  if (row.blocked) return failure(422, 'CUIR_NOT_OWNED');
  if (row.id_transaccion === null) return failure(409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
  return { status: 201, body: { success: true, data: answer(row.id_transaccion) } };
}

const documentoBuscado = (d: string | undefined) =>
  d === undefined ? undefined : { claro: d, indice: blindIndex(d) };

/** One listing page; `param` reads a query parameter. */
export async function list(
  clientId: string,
  param: (name: string) => string | undefined,
): Promise<Answer> {
  const page = Number(param('page') ?? 1);
  const perPage = Number(param('per_page') ?? 50);
  const asOf =
    param('as_of') ??
    ((await pool.query(LATEST_ID_SQL)).rows[0] as { id: string | null }).id ??
    '0';
  const { sql, values } = listingSql(
    {
      clientId,
      desde: new Date(param('fecha_desde') ?? ''),
      hasta: new Date(param('fecha_hasta') ?? ''),
      matricula: param('matricula'),
      documento: documentoBuscado(param('documento')),
      estado: param('estado') as 'PENDING' | 'COMPLETED' | 'FAILED' | undefined,
      limit: perPage,
      offset: (page - 1) * perPage,
    },
    asOf,
    COUNT_CAP,
  );
  const rows = ((await pool.query(sql, values)).rows as ListingRowSellada[]).map(
    ({ documento_cifrado, ...r }): ListingRow => ({
      ...r,
      documento_paciente:
        r.id_transaccion === null
          ? (r.documento_paciente as string)
          : open(r.cuir, documento_cifrado, r.documento_paciente),
    }),
  );
  return {
    status: 200,
    body: { success: true, data: listingAnswer(rows, asOf, { page, perPage }, COUNT_CAP) },
  };
}
