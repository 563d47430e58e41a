import { SqlParams } from '../../common/sql/sql-params.js';
import type { Estado } from '../receta-state.js';

/**
 * The listing's SQL and how its rows become the answer (contract §3). The bench baseline runs this
 * same statement and mapping (this file is part of the surface bench/ may read), so it
 * depends on nothing but its types.
 */

/**
 * `total` is exact up to this many matches; beyond it, `total` is this number and
 * `total_exact` is false. Counting a million-row range exactly costs seconds of database CPU
 * per request, which no listing page is worth; narrower filters give exact totals.
 */
export const LIST_COUNT_CAP = 10_000;

export interface ListFilters {
  clientId: string;
  desde: Date;
  hasta: Date;
  matricula?: string;
  documento?: string;
  estado?: Estado;
  limit: number;
  offset: number;
}

/**
 * A DNI looked up: its blind index (rows sealed) and the DNI itself (rows registered before
 * sealing, until `pacientes cifrar` has sealed them: the partial index finds those).
 */
export interface DocumentoBuscado {
  indice: Buffer;
  claro: string;
}

/** The filters as the statement takes them: the document by its blind index. */
export type ListingFilters = Omit<ListFilters, 'documento'> & {
  documento?: DocumentoBuscado;
  /** The lowest id the range can hold (apertura.ts): the months below are not planned. */
  idDesde?: string;
};

export interface RecetaSummary {
  id_transaccion: string;
  id_de_receta: string | null;
  cuir: string;
  fecha_creacion: Date;
  matricula_profesional: string;
  documento_paciente: string;
  estado: Estado;
}

/** The newest id_transaccion visible now: the snapshot watermark of a listing. */
export const LATEST_ID_SQL = `SELECT max(id_transaccion)::text AS id FROM recetas`;

/**
 * The same among the ids from `$1` on (the current month's first): planned over that month's
 * partitions alone, where LATEST_ID_SQL plans and probes every month's (6.5 ms of planning at
 * 60 months, against 0.6; BENCHMARKS.md, "National scale"). Null when no row has such an id yet.
 */
export const LATEST_ID_FROM_SQL = `SELECT max(id_transaccion)::text AS id FROM recetas WHERE id_transaccion >= $1`;

/**
 * One page, newest first with the id as tie-break, and the count of matches up to
 * `countCap + 1` (an exact count of a million-row range costs seconds of CPU per request),
 * in ONE statement, below the snapshot watermark `asOf`. The watermark is a parameter, not a
 * subquery of the statement, because the planner must know it: unknown, it guesses that a
 * third of the rows pass, and for a deep page it sorted the client's whole range (82 ms
 * instead of ~6 at 100,000 rows). The page is found on the index alone and only its rows are
 * read, so a deep page walks index entries rather than whole rows. Rows: `counted` on each,
 * and one row with null columns when the page is empty.
 */
export function listingSql(
  f: ListingFilters,
  asOf: string,
  countCap = LIST_COUNT_CAP,
): { sql: string; values: unknown[] } {
  const p = new SqlParams();
  const where = [
    `client_id = ${p.add(f.clientId)}`,
    `fecha_creacion >= ${p.add(f.desde)}`,
    `fecha_creacion <= ${p.add(f.hasta)}`,
  ];
  // The id range: the scan's, and the page's rows are read back under it too, so that read is
  // planned over the range's months alone, not every month's primary key (BENCHMARKS.md,
  // "National scale").
  const ids = [`id_transaccion <= ${p.add(asOf)}`];
  if (f.idDesde) ids.push(`id_transaccion >= ${p.add(f.idDesde)}`);
  where.push(...ids);
  if (f.matricula) where.push(`matricula_profesional = ${p.add(f.matricula)}`);
  if (f.documento)
    where.push(
      `(documento_indice = ${p.add(f.documento.indice)} OR documento_paciente = ${p.add(f.documento.claro)})`,
    );
  if (f.estado) where.push(`estado = ${p.add(f.estado)}`);
  const scan = `FROM recetas WHERE ${where.join(' AND ')}
    ORDER BY fecha_creacion DESC, id_transaccion DESC`;

  const sql =
    // The count is ordered like the page, so the planner walks the listing's own index.
    `WITH c AS (SELECT count(*)::int AS counted FROM (SELECT 1 ${scan} LIMIT ${p.add(countCap + 1)}) s),
       page AS (SELECT id_transaccion ${scan} LIMIT ${p.add(f.limit)} OFFSET ${p.add(f.offset)})
     SELECT c.counted, r.id_transaccion, r.id_de_receta, r.cuir, r.fecha_creacion,
            r.matricula_profesional, r.documento_paciente, r.documento_cifrado, r.estado
       FROM c LEFT JOIN (page JOIN recetas r
         ON r.id_transaccion = page.id_transaccion AND ${ids.map((c) => `r.${c}`).join(' AND ')}) ON true
      ORDER BY r.fecha_creacion DESC, r.id_transaccion DESC`;
  return { sql, values: p.values };
}

export type ListingRow = RecetaSummary & { counted: number };

/**
 * A row as the statement answers it: the document sealed (`documento_paciente` null then), to
 * be opened in clear before listingAnswer.
 */
export type ListingRowSellada = Omit<ListingRow, 'documento_paciente'> & {
  documento_paciente: string | null;
  documento_cifrado: Buffer | null;
};

/**
 * A listing page's answer: `total` exact up to `countCap` matches, else capped with
 * `total_exact: false`; each item projected to the API's summary fields.
 */
export function listingAnswer(
  rows: ListingRow[],
  asOf: string,
  paging: { page: number; perPage: number },
  countCap = LIST_COUNT_CAP,
) {
  const counted = rows[0]?.counted ?? 0;
  const exact = counted <= countCap;
  return {
    total: exact ? counted : countCap,
    total_exact: exact,
    page: paging.page,
    per_page: paging.perPage,
    items: rows
      .filter((r) => r.id_transaccion !== null)
      .map((r) => ({
        id_transaccion: r.id_transaccion,
        id_de_receta: r.id_de_receta,
        cuir: r.cuir,
        fecha_creacion: r.fecha_creacion.toISOString(),
        matricula_profesional: r.matricula_profesional,
        documento_paciente: r.documento_paciente,
        estado: r.estado,
      })),
    as_of: asOf,
  };
}
