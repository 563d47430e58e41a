/**
 * What the bare baseline and the framework floor answer for POST /v1/recetas/registrar and
 * GET /v1/recetas/listar: the SQL the service runs, on a plain `pg` pool, with the service's
 * response shapes. Each server only wraps these two functions in its own HTTP stack, so the
 * difference between them is the price of that stack alone (see BENCHMARKS.md).
 *
 * The SQL is the service's own: the service's repositories (RecetasRepository,
 * IdempotencyRepository, compiled from src/) run over a thin adapter that hands their
 * `query(sql, params)` calls straight to the pool, answering as TypeORM does (rows;
 * `[rows, rowCount]` for UPDATE/DELETE). So when the service's SQL changes, both follow, and a
 * signature change fails the bench's type check.
 *  - registrar: RecetasRepository.insertRegistration: one statement taking the Idempotency-Key
 *    and storing its answer (IdempotencyClaim.settleWith, the gate), inserting the
 *    prescription, its history entry and its pg-boss job (insertJobSql, the service's copy of
 *    pg-boss's insertJob), as the service does when the licence check is cached; a refused
 *    gate is a 409 (the service looks the key up for a replay), a CUIR unique violation too.
 *  - listar: RecetasRepository.listForClient with the service's count cap (the snapshot
 *    watermark, then one statement for the capped count and the page), as RecetasService.list
 *    does.
 *
 * Env: DATABASE_URL, DATABASE_POOL_SIZE (default 10), QUEUE_SCHEMA (default pgboss),
 * BASELINE_LIST_COUNT_CAP (the service's LIST_COUNT_CAP).
 */
import 'reflect-metadata';
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import type { CompanionStatement } from '../src/common/sql/sql-params.js';
import { IdempotencyClaim } from '../src/idempotency/idempotency-claim.js';
import { insertJobSql } from '../src/queue/job-insert-sql.js';
import { firstDeliveryJobData, MINISTRY_QUEUE } from '../src/recetas/notification-job.js';
import type { RegistrarRecetaDto } from '../src/recetas/dto/registrar-receta.dto.js';
import { REGISTERED } from '../src/recetas/receta-state.js';
import { RecetasRepository } from '../src/recetas/recetas.repository.js';
import { listingAnswer } from '../src/recetas/listing.js';
import { newReceta, pendingAnswer } from '../src/recetas/registration.js';

const schema = process.env.QUEUE_SCHEMA ?? 'pgboss';
const LIST_COUNT_CAP = Number(process.env.BASELINE_LIST_COUNT_CAP ?? 10_000);

export const pool = new pg.Pool({
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

export interface Answer {
  status: number;
  body: unknown;
}

export const failure = (status: number, code: string): Answer => ({
  status,
  body: { success: false, error: { code, message: code } },
});

/**
 * One registration. `hashed` is the text the key's request hash is taken of (the raw body
 * where the server has it).
 */
export async function register(
  clientId: string,
  dto: RegistrarRecetaDto,
  hashed: string,
  idempotencyKey: unknown,
): Promise<Answer> {
  const key = typeof idempotencyKey === 'string' ? idempotencyKey.toLowerCase() : null;
  const answer = pendingAnswer(dto);
  // The service's statement: the key's gate, prescription, history and job (its SQL for
  // pg-boss's job row), all in one INSERT … WITH.
  const companions: CompanionStatement[] = [
    (p, source) =>
      insertJobSql(schema, p, {
        queue: MINISTRY_QUEUE,
        data: firstDeliveryJobData(source),
        from: source,
      }),
  ];
  const gate = key
    ? new IdempotencyClaim(
        clientId,
        key,
        createHash('sha256').update(hashed).digest('hex'),
        201,
        () => Promise.resolve(null),
      ).settleWith(answer, 'id_transaccion')
    : undefined;
  let row: { id_transaccion: string } | null;
  try {
    row = await recetas.insertRegistration(
      newReceta(clientId, dto, key),
      REGISTERED,
      companions,
      gate,
    );
  } catch (err) {
    if ((err as { code?: string }).code === '23505') return failure(409, 'CUIR_ALREADY_REGISTERED');
    throw err;
  }
  if (!row) return failure(409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
  return {
    status: 201,
    body: { success: true, data: { id_transaccion: row.id_transaccion, ...answer } },
  };
}

/** One listing page; `param` reads a query parameter. */
export async function list(
  clientId: string,
  param: (name: string) => string | undefined,
): Promise<Answer> {
  const page = Number(param('page') ?? 1);
  const perPage = Number(param('per_page') ?? 50);
  const listed = await recetas.listForClient(
    {
      clientId,
      desde: new Date(param('fecha_desde') ?? ''),
      hasta: new Date(param('fecha_hasta') ?? ''),
      matricula: param('matricula'),
      documento: param('documento'),
      estado: param('estado') as 'PENDING' | 'COMPLETED' | 'FAILED' | undefined,
      asOf: param('as_of'),
      limit: perPage,
      offset: (page - 1) * perPage,
    },
    LIST_COUNT_CAP,
  );
  return {
    status: 200,
    body: { success: true, data: listingAnswer(listed, { page, perPage }, LIST_COUNT_CAP) },
  };
}
