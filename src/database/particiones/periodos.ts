/*
 * The months (UTC) partitioned tables are cut into (SPEC 10). `id` tables: the month yyyy-mm holds
 * the ids from yyyymm·10⁹ on (the sequence moves up to it when the month opens), so a look-up by
 * id is pruned by the id alone; 10⁹ a month is ~15× the national sizing. `time` tables: the
 * month's instants. Rows of before partitioning stay in a first partition (`<table>_p0`).
 */

/** A partition's (and its indexes') suffix: `_p0` or `_pYYYY_MM`. */
export const SUFIJO_PARTICION = /_(p0|p\d{4}_\d{2})$/;

/** A month, as its first day's year and month (1–12). */
export interface Periodo {
  year: number;
  month: number;
}

export function periodoDe(at: Date): Periodo {
  return { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1 };
}

export function siguiente(p: Periodo, months = 1): Periodo {
  const index = p.year * 12 + (p.month - 1) + months;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

/** `2026_11` (`recetas_p2026_11`). */
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
  return BigInt(p.year * 100 + p.month) * 1_000_000_000n;
}

/** The first instant of a month (`time` tables), as an ISO string in UTC. */
export function primerInstante(p: Periodo): string {
  return new Date(Date.UTC(p.year, p.month - 1, 1)).toISOString();
}

export function compare(a: Periodo, b: Periodo): number {
  return a.year * 12 + a.month - (b.year * 12 + b.month);
}
