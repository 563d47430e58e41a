/** The citizen, and the two derived facts the API returns: age and a one-line address. Pure. */
export interface Persona {
  documento: string;
  nombre: string;
  apellido: string;
  /** ISO calendar date, yyyy-mm-dd. */
  fechaNacimiento: string;
  domicilio: { calle: string; pisoDpto: string; localidad: string; provincia: string };
}

/** Ages are reckoned on Argentina's calendar, whatever the server's time zone. */
export const ARGENTINA_TIME_ZONE = 'America/Argentina/Buenos_Aires';

/** Today's date (yyyy-mm-dd: en-CA's format) in `timeZone` at instant `now`. */
export function calendarDate(now: Date, timeZone = ARGENTINA_TIME_ZONE): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** Years since `birth` (yyyy-mm-dd); one born on 29 February ages on 1 March in common years. */
export function ageInYears(birth: string, now: Date, timeZone = ARGENTINA_TIME_ZONE): number {
  const today = calendarDate(now, timeZone);
  const years = Number(today.slice(0, 4)) - Number(birth.slice(0, 4));
  const hadBirthday = today.slice(5) >= birth.slice(5);
  return Math.max(0, hadBirthday ? years : years - 1);
}

const sameText = (a: string, b: string) => a.localeCompare(b, 'es', { sensitivity: 'base' }) === 0;

/** One line, empty parts skipped; a province equal to the locality (CABA, CÓRDOBA) written once. */
export function formatDomicilio(d: Persona['domicilio']): string {
  const parts: string[] = [];
  for (const raw of [d.calle, d.pisoDpto, d.localidad, d.provincia]) {
    const part = raw.replace(/\s+/g, ' ').trim();
    if (part !== '' && !(parts.length > 0 && sameText(parts[parts.length - 1], part))) {
      parts.push(part);
    }
  }
  return parts.join(', ');
}
