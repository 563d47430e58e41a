import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { Aperturas } from '../database/particiones/aperturas.js';
import { Transactions } from '../database/transactions.js';
import {
  CifradoPaciente,
  type DocumentoGuardado,
  type PersonalesGuardados,
} from './cifrado/cifrado-paciente.js';
import {
  type DocumentoBuscado,
  LATEST_ID_FROM_SQL,
  LATEST_ID_SQL,
  type ListFilters,
  listingSql,
  type ListingRow,
  type ListingRowSellada,
} from './consulta/listado.sql.js';
import { type FiltroRestringidas, restringidasQuery } from './consulta/restringidas.js';
import { HistoryEntry, RecetaHistorialEntity } from './entities/receta-historial.entity.js';
import { RecetaEntity } from './entities/receta.entity.js';
import type { AnulacionEstado, Estado } from './receta-state.js';
import { recetaRowSql, type RecetaKey } from './receta-row.sql.js';

/** What one delivery attempt (or its absence) did to a transaction. */
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
 * Prescriptions and their history: the entities, and the tuned SQL of the `*.sql.ts` files on
 * the hot paths; every call joins the caller's Transactions.run. Every row answered has the
 * patient's document, the content hash's salt and the personal members opened in clear.
 */
@Injectable()
export class RecetasRepository {
  constructor(
    private readonly transactions: Transactions,
    private readonly cifrado: CifradoPaciente,
    private readonly aperturas: Aperturas,
  ) {}

  /** The row opened in clear (throws for a key PATIENT_DATA_KEYS does not hold). */
  private abierta<T extends DocumentoGuardado & PersonalesGuardados>(
    r: T,
  ): T & { documento_paciente: string } {
    const { documento, sal } = this.cifrado.abrirDocumento(r);
    Object.assign(r, { documento_paciente: documento, content_salt: sal });
    if (r.personales_cifrado) Object.assign(r, this.cifrado.personales(r));
    return r as T & { documento_paciente: string };
  }

  private get recetas() {
    return this.transactions.repository(RecetaEntity);
  }

  /** Runs registro.sql.ts: the new id (null when its gate refused) and whether its guard stopped it. */
  async insertRegistro(statement: {
    sql: string;
    values: unknown[];
  }): Promise<{ id_transaccion: string | null; blocked: boolean }> {
    const rows: Array<{ id_transaccion: string | null; blocked: boolean }> =
      await this.transactions.prepared(statement.sql, statement.values);
    return rows[0];
  }

  async findForClient(clientId: string, id: string): Promise<RecetaEntity | null> {
    const r = await this.recetas.findOneBy({ id_transaccion: id, client_id: clientId });
    return r && this.abierta(r);
  }

  findById(id: string): Promise<RecetaEntity | null> {
    return this.row('id_transaccion', id, false);
  }

  findByCuir(cuir: string): Promise<RecetaEntity | null> {
    return this.row('cuir', cuir, false);
  }

  /** The row FOR UPDATE: every action on a prescription's life takes this lock first. */
  lockForUpdate(
    where: { id_transaccion: string } | { cuir: string },
  ): Promise<RecetaEntity | null> {
    if (!this.transactions.active) throw new Error('lockForUpdate runs inside Transactions.run');
    return 'cuir' in where
      ? this.row('cuir', where.cuir, true)
      : this.row('id_transaccion', where.id_transaccion, true);
  }

  private async row(key: RecetaKey, value: string, lock: boolean): Promise<RecetaEntity | null> {
    const rows = await this.transactions.prepared<RecetaEntity>(recetaRowSql(key, lock), [value]);
    return rows[0] ? this.abierta(rows[0]) : null;
  }

  /** Marks a prescription cancelled (once); returns the time, or null if it was already. */
  async marcarAnulada(
    id: string,
    motivo: string,
    anulacionEstado: AnulacionEstado,
  ): Promise<Date | null> {
    const result = await this.recetas
      .createQueryBuilder()
      .update()
      .set({
        anulada_at: () => 'statement_timestamp()',
        motivo_anulacion: motivo,
        anulacion_estado: anulacionEstado,
        updated_at: () => 'now()',
      })
      .where({ id_transaccion: id, anulada_at: IsNull() })
      .returning(['anulada_at'])
      .execute();
    const rows = result.raw as Array<{ anulada_at: Date }>;
    return rows[0]?.anulada_at ?? null;
  }

  /** Guarded like applyOutcome, for the cancellation notice's state. */
  async applyAnulacionOutcome(
    id: string,
    attemptsBefore: number,
    o: { estado: AnulacionEstado; intento: number },
  ): Promise<boolean> {
    const result = await this.recetas.update(
      { id_transaccion: id, anulacion_estado: 'PENDING', anulacion_intentos: attemptsBefore },
      { anulacion_estado: o.estado, anulacion_intentos: o.intento, updated_at: () => 'now()' },
    );
    return result.affected === 1;
  }

  async history(id: string): Promise<Array<HistoryEntry & { at: Date }>> {
    const rows = await this.transactions.repository(RecetaHistorialEntity).find({
      where: { id_transaccion: id },
      order: { id: 'ASC' },
    });
    return rows.map(({ at, evento, estado, intento, resultado, detalle }) => ({
      at,
      evento,
      estado,
      intento,
      resultado,
      detalle,
    }));
  }

  async addHistory(id: string, entry: HistoryEntry): Promise<void> {
    await this.transactions.repository(RecetaHistorialEntity).insert({
      id_transaccion: id,
      ...entry,
    });
  }

  /**
   * Guarded state change: only a PENDING transaction whose attempt count is the one the worker
   * read changes, so a final state is never left and a stale worker cannot overwrite a newer
   * outcome. False when the guard refused.
   */
  async applyOutcome(id: string, attemptsBefore: number, o: AttemptOutcome): Promise<boolean> {
    const now = () => 'now()';
    const result = await this.recetas.update(
      { id_transaccion: id, estado: 'PENDING', intentos: attemptsBefore },
      {
        estado: o.estado,
        mensaje: o.mensaje,
        intentos: o.intento,
        ultimo_intento_at: o.intento > attemptsBefore ? now : undefined,
        proximo_intento_at: o.proximoIntentoAt ?? null,
        ministerio_ref: o.ministerioRef ?? undefined,
        failure_reason: o.failureReason ?? null,
        completed_at: o.estado === 'COMPLETED' ? now : undefined,
        updated_at: now,
      },
    );
    return result.affected === 1;
  }

  /** One listing page and the capped count (listado.sql.ts), below the watermark `asOf`. */
  async listForClient(
    f: ListFilters,
    asOf: string | undefined,
  ): Promise<{ rows: ListingRow[]; asOf: string }> {
    if (asOf !== undefined && this.transactions.hasReplica) {
      // A later page tolerates lag (SPEC 10): the replica, once it has replayed up to the watermark.
      const rows = await this.transactions.onReplica(async () =>
        BigInt(await this.latestId()) >= BigInt(asOf) ? this.listing(f, asOf) : null,
      );
      if (rows) return { rows, asOf };
    }
    const watermark = asOf ?? (await this.latestId());
    return { rows: await this.listing(f, watermark), asOf: watermark };
  }

  private async listing(f: ListFilters, watermark: string): Promise<ListingRow[]> {
    const idDesde = await this.idDesde(f.desde);
    const { sql, values } = listingSql(
      { ...f, documento: this.buscado(f.documento), idDesde },
      watermark,
    );
    const rows: ListingRowSellada[] = await this.transactions.manager.query(sql, values);
    return rows.map(({ documento_cifrado, ...r }) => ({
      ...r,
      // The empty page's one row (the count only) has no document.
      documento_paciente:
        r.id_transaccion === null
          ? (r.documento_paciente as string)
          : this.cifrado.abrirDocumento({ ...r, documento_cifrado }).documento,
    }));
  }

  /**
   * The lowest id a listing from `desde` can hold: the months opened an hour before `desde` are
   * skipped (a fecha_creacion is at most 5 minutes ahead of its id; the hour is for clock skew).
   */
  private idDesde(desde: Date): Promise<string> {
    const antes = new Date(desde.getTime() - 3_600_000);
    return this.aperturas.primerIdDesde('recetas.id_transaccion', antes);
  }

  /** A DNI looked up: by its blind index, and in clear for rows not sealed yet. */
  private buscado(documento: string | undefined): DocumentoBuscado | undefined {
    return documento === undefined
      ? undefined
      : { claro: documento, indice: this.cifrado.indice(documento) };
  }

  /** The health authority's page of restricted prescriptions and their exact count (SPEC 9.3). */
  async restringidas(f: FiltroRestringidas): Promise<{ rows: RecetaEntity[]; total: number }> {
    const idDesde = await this.idDesde(f.desde);
    const [rows, total] = await restringidasQuery(this.recetas.createQueryBuilder('r'), {
      ...f,
      documento: this.buscado(f.documento),
      idDesde,
    }).getManyAndCount();
    return { rows: rows.map((r) => this.abierta(r)), total };
  }

  /** The newest sealed document among the last 1000 ids (the start's key check), bounded. */
  async ultimoSellado(): Promise<DocumentoGuardado | null> {
    const rows: DocumentoGuardado[] = await this.transactions.manager.query(
      `SELECT cuir, documento_paciente, documento_cifrado FROM recetas
        WHERE id_transaccion > (SELECT coalesce(max(id_transaccion), 0) - 1000 FROM recetas)
          AND documento_cifrado IS NOT NULL
        ORDER BY id_transaccion DESC LIMIT 1`,
    );
    return rows[0] ?? null;
  }

  /** The newest id: among this month's first (one month planned), else among all. */
  private async latestId(): Promise<string> {
    const desde = await this.idDesde(new Date());
    const [{ id }]: Array<{ id: string | null }> = await this.transactions.manager.query(
      LATEST_ID_FROM_SQL,
      [desde],
    );
    if (id !== null) return id;
    const rows: Array<{ id: string | null }> = await this.transactions.manager.query(LATEST_ID_SQL);
    return rows[0].id ?? '0';
  }
}
