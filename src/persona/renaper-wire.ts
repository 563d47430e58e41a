/** RENAPER's record (as SISA sends it, JSON or XML alike) → the domain Persona. Pure. */
import { UpstreamFailure } from '../common/resilience/upstream-failure.js';
import { SisaRecord, text } from '../common/sisa/sisa-answer.js';
import type { Persona } from './persona.js';

export const RENAPER = 'renaper';

/** SISA writes dates dd-mm-yyyy (sometimes with slashes); → yyyy-mm-dd, or undefined if invalid. */
export function isoFromSisaDate(value: string): string | undefined {
  const m = /^(\d{2})[-/](\d{2})[-/](\d{4})$/.exec(value);
  if (!m) return undefined;
  const [, dd, mm, yyyy] = m;
  const date = new Date(Date.UTC(Number(yyyy), Number(mm) - 1, Number(dd)));
  const iso = `${yyyy}-${mm}-${dd}`;
  // Date.UTC rolls 31-02 over into March: a round trip catches impossible dates.
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso ? iso : undefined;
}

/** Throws a (non-retriable) UpstreamFailure when an "OK" record lacks what the API returns. */
export function toPersona(record: SisaRecord): Persona {
  const documento = text(record.nroDocumento) || text(record.numeroDocumento);
  const apellido = text(record.apellido);
  const fechaNacimiento = isoFromSisaDate(text(record.fechaNacimiento));
  if (documento === '' || apellido === '' || fechaNacimiento === undefined) {
    throw new UpstreamFailure(RENAPER, 'INVALID_RECORD', false);
  }
  return {
    documento,
    nombre: text(record.nombre),
    apellido,
    fechaNacimiento,
    domicilio: {
      calle: text(record.domicilio),
      pisoDpto: text(record.pisoDpto),
      localidad: text(record.localidad),
      provincia: text(record.provincia),
    },
  };
}
