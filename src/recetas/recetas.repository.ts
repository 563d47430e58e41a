import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CompanionStatement, SqlParams } from '../common/sql/sql-params.js';
import type { Estado } from './receta-state.js';

export interface RecetaItem {
  nombre: string;
  cantidad: number;
  codigo?: string;
}

export interface NewReceta {
  clientId: string;
  cuir: string;
  documentoPaciente: string;
  matriculaProfesional: string;
  refepsId: string | null;
  locacion: string;
  idDeReceta: string | null;
  nombreMedicamento: string | null;
  fechaCreacion: string;
  items: RecetaItem[];
  mensaje: string;
  idempotencyKey: string | null;
}

/** A prescription row as stored (snake_case, as the API shows it). */
export interface RecetaRow {
  id_transaccion: string;
  client_id: string;
  cuir: string;
  documento_paciente: string;
  matricula_profesional: string;
  refeps_id: string | null;
  locacion: string;
  id_de_receta: string | null;
  nombre_medicamento: string | null;
  fecha_creacion: Date;
  items: RecetaItem[];
  estado: Estado;
  mensaje: string;
  intentos: number;
  ultimo_intento_at: Date | null;
  proximo_intento_at: Date | null;
  ministerio_ref: string | null;
  failure_reason: string | null;
  completed_at: Date | null;
  idempotency_key: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface HistoryEntry {
  at: Date;
  evento: string;
  estado: Estado;
  intento: number | null;
  resultado: string | null;
  detalle: string | null;
}

export interface ListFilters {
  clientId: string;
  desde: Date;
  hasta: Date;
  matricula?: string;
  documento?: string;
  estado?: Estado;
  asOf?: string;
  limit: number;
  offset: number;
}

export type RecetaSummary = Pick<
  RecetaRow,
  | 'id_transaccion'
  | 'id_de_receta'
  | 'cuir'
  | 'fecha_creacion'
  | 'matricula_profesional'
  | 'documento_paciente'
  | 'estado'
>;

/** One listing page as read: the capped count, the snapshot watermark and the page's rows. */
export interface ListedPage {
  counted: number;
  asOf: string;
  items: RecetaSummary[];
}

export const CUIR_UNIQUE_INDEX = 'recetas_cuir';

/** SQL of prescriptions and their history. Every read is scoped to the owning client. */
@Injectable()
export class RecetasRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /**
   * Inserts a prescription, its first history entry and the companion statements (its
   * ministry job) as ONE statement: atomic without BEGIN/COMMIT, and one round trip instead of
   * several. The id is drawn first (CTE `n`), so a `gate` can store it before the row exists;
   * with a gate (an Idempotency-Key's), nothing is written unless the gate returns a row, and
   * the answer is null. The companions read the new row from the CTE `r`.
   */
  async insertRegistration(
    r: NewReceta,
    first: Omit<HistoryEntry, 'at'>,
    companions: CompanionStatement[],
    gate?: CompanionStatement,
  ): Promise<{ id_transaccion: string } | null> {
    const p = new SqlParams();
    const values = [
      r.clientId,
      r.cuir,
      r.documentoPaciente,
      r.matriculaProfesional,
      r.refepsId,
      r.locacion,
      r.idDeReceta,
      r.nombreMedicamento,
      r.fechaCreacion,
      JSON.stringify(r.items),
      r.mensaje,
      r.idempotencyKey,
    ].map((v) => p.add(v));
    const history = [first.evento, first.estado, first.intento, first.resultado, first.detalle];
    const sql = `WITH n AS (SELECT nextval('recetas_id_transaccion_seq') AS id)${
      gate ? `, g AS (${gate(p, 'n')})` : ''
    }, r AS (
        INSERT INTO recetas (id_transaccion, client_id, cuir, documento_paciente,
          matricula_profesional, refeps_id, locacion, id_de_receta, nombre_medicamento,
          fecha_creacion, items, mensaje, idempotency_key)
        SELECT n.id, ${values.join(', ')} FROM n${gate ? ' WHERE EXISTS (SELECT 1 FROM g)' : ''}
        RETURNING id_transaccion AS id
      ), h AS (
        INSERT INTO receta_historial (id_transaccion, evento, estado, intento, resultado, detalle)
        SELECT r.id, ${history.map((v) => p.add(v)).join(', ')} FROM r
      )${companions.map((c, i) => `, c${i} AS (${c(p, 'r')})`).join('')}
      SELECT id::text AS id_transaccion FROM r`;
    const rows: Array<{ id_transaccion: string }> = await this.db.query(sql, p.values);
    return rows[0] ?? null;
  }

  /** Appends a history row, inside `tx` when given. */
  async addHistory(id: string, e: Omit<HistoryEntry, 'at'>, tx?: EntityManager): Promise<void> {
    await (tx ?? this.db).query(
      `INSERT INTO receta_historial (id_transaccion, evento, estado, intento, resultado, detalle)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, e.evento, e.estado, e.intento, e.resultado, e.detalle],
    );
  }

  async findForClient(clientId: string, id: string): Promise<RecetaRow | null> {
    const rows: RecetaRow[] = await this.db.query(
      `SELECT * FROM recetas WHERE id_transaccion = $1 AND client_id = $2`,
      [id, clientId],
    );
    return rows[0] ?? null;
  }

  async findById(id: string): Promise<RecetaRow | null> {
    const rows: RecetaRow[] = await this.db.query(
      `SELECT * FROM recetas WHERE id_transaccion = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  async findByCuir(cuir: string): Promise<RecetaRow | null> {
    const rows: RecetaRow[] = await this.db.query(`SELECT * FROM recetas WHERE cuir = $1`, [cuir]);
    return rows[0] ?? null;
  }

  async history(id: string): Promise<HistoryEntry[]> {
    return this.db.query(
      `SELECT at, evento, estado, intento, resultado, detalle FROM receta_historial WHERE id_transaccion = $1 ORDER BY id`,
      [id],
    );
  }

  /**
   * One page, newest first with the id as tie-break, and the count of matches up to
   * `countCap + 1` (an exact count of a million-row range costs seconds of CPU per request),
   * in ONE statement, below the snapshot watermark `f.asOf` (read first when the caller has
   * none: rows above it are left out). The watermark is a parameter, not a subquery of the
   * statement, because the planner must know it: unknown, it guesses that a third of the rows
   * pass, and for a deep page it sorted the client's whole range (82 ms instead of ~6 at
   * 100,000 rows). The page is found on the index alone and only its rows are read, so a deep
   * page walks index entries rather than whole rows.
   */
  async listForClient(f: ListFilters, countCap: number): Promise<ListedPage> {
    const asOf = f.asOf ?? (await this.latestId());
    const p = new SqlParams();
    const where = [
      `client_id = ${p.add(f.clientId)}`,
      `fecha_creacion >= ${p.add(f.desde)}`,
      `fecha_creacion <= ${p.add(f.hasta)}`,
      `id_transaccion <= ${p.add(asOf)}`,
    ];
    if (f.matricula) where.push(`matricula_profesional = ${p.add(f.matricula)}`);
    if (f.documento) where.push(`documento_paciente = ${p.add(f.documento)}`);
    if (f.estado) where.push(`estado = ${p.add(f.estado)}`);
    const scan = `FROM recetas WHERE ${where.join(' AND ')}
      ORDER BY fecha_creacion DESC, id_transaccion DESC`;
    const rows: Array<RecetaSummary & { counted: number }> = await this.db.query(
      // The count is ordered like the page, so the planner walks the listing's own index.
      `WITH c AS (SELECT count(*)::int AS counted FROM (SELECT 1 ${scan} LIMIT ${p.add(countCap + 1)}) s),
         page AS (SELECT id_transaccion ${scan} LIMIT ${p.add(f.limit)} OFFSET ${p.add(f.offset)})
       SELECT c.counted, r.id_transaccion, r.id_de_receta, r.cuir, r.fecha_creacion,
              r.matricula_profesional, r.documento_paciente, r.estado
         FROM c LEFT JOIN (page JOIN recetas r USING (id_transaccion)) ON true
        ORDER BY r.fecha_creacion DESC, r.id_transaccion DESC`,
      p.values,
    );
    // The rows keep the count's column: the answer picks the summary's fields from them.
    const items: RecetaSummary[] = rows.filter((r) => r.id_transaccion !== null);
    return { counted: rows[0].counted, asOf, items };
  }

  /** The newest id_transaccion visible now: the snapshot watermark of a listing. */
  async latestId(): Promise<string> {
    const rows: Array<{ id: string | null }> = await this.db.query(
      `SELECT max(id_transaccion)::text AS id FROM recetas`,
    );
    return rows[0].id ?? '0';
  }
}

export interface AttemptOutcome {
  estado: Estado;
  mensaje: string;
  /** The attempt that produced this outcome (0 when no delivery was needed). */
  intento: number;
  ministerioRef?: string | null;
  failureReason?: string | null;
  proximoIntentoAt?: Date | null;
}

/**
 * Guarded state changes: only a PENDING transaction whose attempt count is the one the worker
 * read can change. A final state is never left, and a stale worker (its job delivered twice
 * after a crash) cannot overwrite a newer outcome. Returns false when the guard refused.
 */
export async function applyOutcome(
  tx: EntityManager,
  id: string,
  attemptsBefore: number,
  o: AttemptOutcome,
): Promise<boolean> {
  const [, count] = await tx.query<[unknown, number]>(
    `UPDATE recetas SET
       estado = $3, mensaje = $4, intentos = $5,
       ultimo_intento_at = CASE WHEN $5 > $2 THEN now() ELSE ultimo_intento_at END,
       proximo_intento_at = $6, ministerio_ref = COALESCE($7, ministerio_ref), failure_reason = $8,
       completed_at = CASE WHEN $3 = 'COMPLETED' THEN now() ELSE completed_at END,
       updated_at = now()
     WHERE id_transaccion = $1 AND estado = 'PENDING' AND intentos = $2`,
    [
      id,
      attemptsBefore,
      o.estado,
      o.mensaje,
      o.intento,
      o.proximoIntentoAt ?? null,
      o.ministerioRef ?? null,
      o.failureReason ?? null,
    ],
  );
  return count === 1;
}
