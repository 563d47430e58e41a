import { SqlParams } from '../../common/sql/sql-params.js';
import type { Estado } from '../receta-state.js';

// The listing's SQL and answer (contract §3); bench/ runs them too, so they depend on types only.

/** `total` is exact up to this many matches (an exact count of millions costs seconds of CPU). */
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

/** A DNI looked up: by its blind index, and in clear for rows not sealed yet. */
export interface DocumentoBuscado {
  indice: Buffer;
  claro: string;
}

/** The filters as the statement takes them: the document by its blind index. */
export type ListingFilters = Omit<ListFilters, 'documento'> & {
  documento?: DocumentoBuscado;
  /** The lowest id the range can hold: the months below are not planned. */
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

/** The same among the ids from `$1` on (this month's first): one month planned, not all. */
export const LATEST_ID_FROM_SQL = `SELECT max(id_transaccion)::text AS id FROM recetas WHERE id_transaccion >= $1`;

/**
 * One page, newest first (ties by id), and the count of matches up to `countCap + 1`, in ONE
 * statement below the watermark `asOf`, a parameter because the planner must know it. The page
 * is found on the index alone, then only its rows are read. Rows: `counted` on each, and one
 * row with null columns when the page is empty.
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
  // The id range, also on the page's read-back: only the range's months are planned.
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

/** A row as the statement answers it: the document sealed, to be opened before listingAnswer. */
export type ListingRowSellada = Omit<ListingRow, 'documento_paciente'> & {
  documento_paciente: string | null;
  documento_cifrado: Buffer | null;
};

/** A listing page's answer: `total` exact up to `countCap`, else capped with `total_exact: false`. */
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
