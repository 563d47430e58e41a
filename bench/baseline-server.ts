/**
 * The bare baseline: plain node:http + pg running the SQL the service runs for
 * POST /v1/recetas/registrar and GET /v1/recetas/listar, on the same database, with the same
 * pool size, the same indexes (the same tables) and the same response shapes. It is what the
 * service would cost with no framework at all, so service/baseline is the framework's price.
 *
 * The SQL is the service's own: the baseline calls the service's repositories
 * (RecetasRepository, IdempotencyRepository, compiled from src/) over a thin adapter that hands
 * their `query(sql, params)` calls straight to a `pg` pool or transaction client, answering as
 * TypeORM does (rows; `[rows, rowCount]` for UPDATE/DELETE). So when the service's SQL changes
 * the baseline follows, and a signature change fails the bench's type check.
 *  - registrar: IdempotencyRepository.claim, then RecetasRepository.insertRegistration: one
 *    statement inserting the prescription, its history entry, its pg-boss job (insertJobSql, the
 *    service's copy of pg-boss's insertJob) and storing the key's answer (IdempotencyClaim.completion);
 *    a CUIR unique violation is a 409.
 *  - listar: RecetasRepository.latestId (the snapshot watermark), then
 *    RecetasRepository.listForClient with the service's count cap (LIST_COUNT_CAP, passed by
 *    the bench), exactly as RecetasService.list calls them.
 * Skipped (documented in BENCHMARKS.md): authentication (the client id arrives in the
 * X-Bench-Client header), scopes, rate limiting, request ids, request logging and metrics, the
 * JSON-only and body-size rules, DTO validation and unknown-field checks, CUIR parsing, the
 * REFEPS enablement check (a cache hit in the service), the canonical request hash (the raw
 * body is hashed instead), Express/Nest routing, guards, interceptors, the error envelope and
 * TypeORM's query runner.
 *
 * Env: DATABASE_URL, DATABASE_POOL_SIZE (default 10), QUEUE_SCHEMA (default pgboss),
 * BASELINE_LIST_COUNT_CAP (the service's
 * LIST_COUNT_CAP), PORT.
 */
import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import type { CompanionStatement } from '../src/common/sql/sql-params.js';
import { IdempotencyClaim } from '../src/idempotency/idempotency-claim.js';
import { IdempotencyRepository } from '../src/idempotency/idempotency.repository.js';
import { insertJobSql } from '../src/queue/job-insert-sql.js';
import { firstDeliveryJobData, MINISTRY_QUEUE } from '../src/recetas/notification-job.js';
import { MENSAJES, REGISTERED } from '../src/recetas/receta-state.js';
import { RecetasRepository } from '../src/recetas/recetas.repository.js';

const schema = process.env.QUEUE_SCHEMA ?? 'pgboss';
const LIST_COUNT_CAP = Number(process.env.BASELINE_LIST_COUNT_CAP ?? 10_000);
/** IdempotencyService's lease and retention (LEASE_SECONDS, TTL_HOURS). */
const LEASE_SECONDS = 60;
const TTL_HOURS = 24;
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
  connectionTimeoutMillis: 5000,
  idleTimeoutMillis: 30000,
  application_name: 'bench-baseline',
});
pool.on('error', () => undefined);

type Run = (sql: string, params?: unknown[]) => Promise<pg.QueryResult>;
/** What TypeORM's `query()` answers: the rows, or `[rows, rowCount]` for UPDATE and DELETE. */
const typeormLike = (run: Run) => ({
  async query(sql: string, params?: unknown[]): Promise<unknown> {
    const r = await run(sql, params);
    return r.command === 'UPDATE' || r.command === 'DELETE' ? [r.rows, r.rowCount] : r.rows;
  },
});
const poolDb = typeormLike((sql, params) => pool.query(sql, params)) as unknown as DataSource;
const recetas = new RecetasRepository(poolDb);
const keys = new IdempotencyRepository(poolDb);

interface Registration {
  documento_paciente: string;
  matricula_profesional: string;
  refeps_id?: string;
  locacion: string;
  cuir: string;
  id_de_receta?: string;
  nombre_medicamento?: string;
  fecha_creacion: string;
  items: Array<{ nombre: string; cantidad: number; codigo?: string }>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

const fail = (res: ServerResponse, status: number, code: string) =>
  send(res, status, { success: false, error: { code, message: code } });

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function registrar(req: IncomingMessage, res: ServerResponse, clientId: string) {
  const raw = await readBody(req);
  const dto = JSON.parse(raw) as Registration;
  const header = req.headers['idempotency-key'];
  const key = typeof header === 'string' ? header.toLowerCase() : null;
  if (key) {
    const hash = createHash('sha256').update(raw).digest('hex');
    if (!(await keys.claim(clientId, key, hash, LEASE_SECONDS, TTL_HOURS)))
      return fail(res, 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
  }
  const answer = {
    estado: 'PENDING',
    mensaje: MENSAJES.PENDING,
    cuir: dto.cuir,
    id_de_receta: dto.id_de_receta ?? null,
  };
  // The service's statement: prescription, history, job (its SQL for pg-boss's job row) and,
  // with a key, the key's stored answer, all in one INSERT … WITH.
  const companions: CompanionStatement[] = [
    (p, source) =>
      insertJobSql(schema, p, {
        queue: MINISTRY_QUEUE,
        data: firstDeliveryJobData(source),
        from: source,
      }),
  ];
  if (key)
    companions.push(new IdempotencyClaim(clientId, key, 201).completion(answer, 'id_transaccion'));
  let row: { id_transaccion: string };
  try {
    row = await recetas.insertRegistration(
      {
        clientId,
        cuir: dto.cuir,
        documentoPaciente: dto.documento_paciente,
        matriculaProfesional: dto.matricula_profesional,
        refepsId: dto.refeps_id ?? null,
        locacion: dto.locacion,
        idDeReceta: dto.id_de_receta ?? null,
        nombreMedicamento: dto.nombre_medicamento ?? null,
        fechaCreacion: dto.fecha_creacion,
        items: dto.items,
        mensaje: MENSAJES.PENDING,
        idempotencyKey: key,
      },
      REGISTERED,
      companions,
    );
  } catch (err) {
    if (key) await keys.release(clientId, key);
    if ((err as { code?: string }).code === '23505')
      return fail(res, 409, 'CUIR_ALREADY_REGISTERED');
    throw err;
  }
  const data = { id_transaccion: row.id_transaccion, ...answer };
  send(res, 201, { success: true, data });
}

async function listar(url: URL, res: ServerResponse, clientId: string) {
  const q = url.searchParams;
  const page = Number(q.get('page') ?? 1);
  const perPage = Number(q.get('per_page') ?? 50);
  const asOf = q.get('as_of') ?? (await recetas.latestId());
  const estado = q.get('estado');
  const { counted, items } = await recetas.listForClient(
    {
      clientId,
      desde: new Date(q.get('fecha_desde') ?? ''),
      hasta: new Date(q.get('fecha_hasta') ?? ''),
      matricula: q.get('matricula') ?? undefined,
      documento: q.get('documento') ?? undefined,
      estado: (estado ?? undefined) as 'PENDING' | 'COMPLETED' | 'FAILED' | undefined,
      asOf,
      limit: perPage,
      offset: (page - 1) * perPage,
    },
    LIST_COUNT_CAP,
  );
  const exact = counted <= LIST_COUNT_CAP;
  send(res, 200, {
    success: true,
    data: {
      total: exact ? counted : LIST_COUNT_CAP,
      total_exact: exact,
      page,
      per_page: perPage,
      items: items.map((i) => ({ ...i, fecha_creacion: i.fecha_creacion.toISOString() })),
      as_of: asOf,
    },
  });
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://baseline');
  const client = req.headers['x-bench-client'];
  if (url.pathname === '/health/ready') return send(res, 200, { status: 'ok' });
  if (typeof client !== 'string') return fail(res, 401, 'UNAUTHENTICATED');
  if (req.method === 'POST' && url.pathname === '/v1/recetas/registrar')
    return registrar(req, res, client);
  if (req.method === 'GET' && url.pathname === '/v1/recetas/listar')
    return listar(url, res, client);
  return fail(res, 404, 'NOT_FOUND');
}

const server = createServer((req, res) => {
  handle(req, res).catch((err: unknown) => {
    process.stderr.write(`baseline: ${err instanceof Error ? err.message : String(err)}\n`);
    if (!res.headersSent) fail(res, 500, 'INTERNAL');
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`baseline listening on http://127.0.0.1:${port}\n`);
});

const stop = () => {
  server.close();
  server.closeAllConnections();
  void pool.end().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
