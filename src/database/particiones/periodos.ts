/**
 * The periods partitioned tables are cut into (SPEC 10): calendar months, UTC. A table is
 * partitioned either by id ranges tied to months or by time itself:
 *
 * - `id`: the month `yyyy-mm` holds the ids from yyyymm·10⁹ on (2026-11: 202611000000000 …
 *   202611999999999). The table's sequence is moved up to that base when the month opens
 *   (ParticionesService), so the ids a month draws fall in its partition, and a look-up by id
 *   is pruned to one partition by the id alone. 10⁹ ids a month is ~15× the national sizing
 *   (2 million prescriptions a day); a month that ran past it would spill into the next
 *   month's range, still unique and still ordered.
 * - `time`: the month's instants [first day 00:00 UTC, next month's), for a table read by time.
 *
 * Rows of before the tables were partitioned stay in one first partition below every month
 * (`<table>_p0`, ids from MINVALUE, or instants from MINVALUE).
 */

/**
 * A partition's suffix: `_p0` (the rows of before) or `_pYYYY_MM`. Its indexes carry it too
 * (`dispensa_items_una_vez_p2026_11`: nombrarIndices), which is how a violation's index name is
 * matched to its table's (common/database-errors.ts).
 */
export const SUFIJO_PARTICION = /_(p0|p\d{4}_\d{2})$/;

/** A month, as its first day's year and month (1–12). */
export interface Periodo {
  year: number;
  month: number;
}

/** Ids a month holds: the base's factor. */
export const IDS_POR_MES = 1_000_000_000n;

export function periodoDe(at: Date): Periodo {
  return { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1 };
}

export function siguiente(p: Periodo, months = 1): Periodo {
  const index = p.year * 12 + (p.month - 1) + months;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

/** `2026_11`: the suffix of the month's partitions (`recetas_p2026_11`). */
export function sufijo(p: Periodo): string {
  return `${p.year}_${String(p.month).padStart(2, '0')}`;
}

/** The month a partition's name ends with, or null (the first partition, `_p0`, or another table). */
export function periodoDeNombre(tabla: string, particion: string): Periodo | null {
  const m = new RegExp(`^${tabla}_p(\\d{4})_(\\d{2})$`).exec(particion);
  if (!m) return null;
  const month = Number(m[2]);
  return month >= 1 && month <= 12 ? { year: Number(m[1]), month } : null;
}

/** The first id of a month (`id` tables): yyyymm·10⁹. */
export function primerId(p: Periodo): bigint {
  return BigInt(p.year * 100 + p.month) * IDS_POR_MES;
}

/** The first instant of a month (`time` tables), as an ISO string in UTC. */
export function primerInstante(p: Periodo): string {
  return new Date(Date.UTC(p.year, p.month - 1, 1)).toISOString();
}

export function compare(a: Periodo, b: Periodo): number {
  return a.year * 12 + a.month - (b.year * 12 + b.month);
}
