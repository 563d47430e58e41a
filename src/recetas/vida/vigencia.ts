/**
 * The validity window of contract §7 as pure functions over calendar dates (`YYYY-MM-DD`), in
 * Argentina time: UTC−03:00 all year (no daylight saving since 2009), so a fixed offset.
 */
const ARGENTINA_OFFSET_MS = -3 * 3600_000;
const DAY_MS = 86_400_000;
const CALENDAR_DATE = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** A start date may be up to this many days after the issue date (contract §3). */
const MAX_INICIO_DIAS = 365;

export interface Vigencia {
  /** First valid day. */
  desde: string;
  /** Last valid day, inclusive. */
  hasta: string;
}

/** The calendar date in Argentina at an instant. */
export function argentinaDate(at: Date): string {
  return new Date(at.getTime() + ARGENTINA_OFFSET_MS).toISOString().slice(0, 10);
}

/** Whether `s` is a real calendar date written `YYYY-MM-DD` (2026-02-30 is not). */
export function isCalendarDate(s: unknown): s is string {
  if (typeof s !== 'string') return false;
  const m = CALENDAR_DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `a` to `b` (negative when b is before a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS);
}

/** Why a start date is not acceptable for a prescription issued at `fechaCreacion`, or null. */
export function inicioVigenciaProblem(fechaCreacion: Date, inicio: string): string | null {
  const emitida = argentinaDate(fechaCreacion);
  if (!isCalendarDate(inicio)) return 'must be a calendar date YYYY-MM-DD';
  const offset = daysBetween(emitida, inicio);
  if (offset < 0 || offset > MAX_INICIO_DIAS)
    return `must be from ${emitida} (the date of fecha_creacion in Argentina time) to ${addDays(emitida, MAX_INICIO_DIAS)}`;
  return null;
}

/** The window: from the start date (default the issue date) for N days by the CUIR's type. */
export function vigenciaDe(
  fechaCreacion: Date,
  prescriptionType: string,
  inicio: string | undefined,
  dias: { medicamentos: number; otras: number },
): Vigencia {
  const desde = inicio ?? argentinaDate(fechaCreacion);
  const n = prescriptionType === '01' ? dias.medicamentos : dias.otras;
  return { desde, hasta: addDays(desde, n - 1) };
}

/** Whether `hoy` falls in the window, both ends included. */
export const enVentana = (v: Vigencia, hoy: string): boolean => v.desde <= hoy && hoy <= v.hasta;
