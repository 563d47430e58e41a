// What REFEPS and RENAPER share as SISA web services: HTTP 200 whatever happens, the outcome in
// `resultado`, XML unless JSON is asked for (and sometimes despite it), a list of one sent bare.
import { XMLParser } from 'fast-xml-parser';
import { UpstreamFailure } from '../resilience/upstream-failure.js';
import { cleanExternalText } from '../validation/request-text.js';

interface SisaHttpAnswer {
  status: number;
  body: string;
}

export type SisaRecord = Record<string, unknown>;

/** Refusals that another attempt seconds later cannot fix: bad credentials, quotas, limits. */
const NOT_RETRIABLE = new Set([
  'ERROR_AUTENTICACION',
  'NO_TIENE_QUOTA_DISPONIBLE',
  'QUOTA_DIARIA_EXCEDIDA',
  'LIMITE EXCEDIDO',
  'LIMITE_EXCEDIDO',
]);

const isRecord = (v: unknown): v is SisaRecord =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** SISA's XML read as the tree it sends as JSON: text stays text ('007'), attributes ignored. */
const xml = new XMLParser({
  parseTagValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  htmlEntities: true, // what makes it decode character references (&#233;)
  maxNestedTags: 64,
});

/** The root element's value; undefined when malformed, with several roots, or a DOCTYPE. */
function parseXml(body: string): unknown {
  if (/<!DOCTYPE/i.test(body)) return undefined;
  try {
    const roots = Object.values(xml.parse(body, true) as Record<string, unknown>);
    return roots.length === 1 ? roots[0] : undefined;
  } catch {
    return undefined; // the parser's message may quote the body: not logged
  }
}

function parseBody(system: string, answer: SisaHttpAnswer): SisaRecord {
  const body = answer.body.replace(/^\uFEFF/, '').trim();
  const fail = (code: string) => new UpstreamFailure(system, code, true);
  if (body.startsWith('{') || body.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw fail('INVALID_JSON'); // the parser's message quotes the body: not logged
    }
    if (!isRecord(parsed)) throw fail('INVALID_SHAPE');
    return parsed;
  }
  if (body.startsWith('<')) {
    // A fronting proxy's error page is HTML, not SISA's XML.
    if (/^<(!doctype\s+html|html)[\s>]/i.test(body)) throw fail('UNEXPECTED_HTML');
    const value = parseXml(body);
    if (value === undefined) throw fail('INVALID_XML');
    if (!isRecord(value)) throw fail('INVALID_SHAPE');
    return value;
  }
  throw fail(body === '' ? 'EMPTY_BODY' : 'UNEXPECTED_BODY');
}

/** The record when `resultado` is OK, null when there is none, else an UpstreamFailure. */
export function decodeSisaAnswer(system: string, answer: SisaHttpAnswer): SisaRecord | null {
  if (answer.status < 200 || answer.status > 299) {
    const retriable = answer.status >= 500 || answer.status === 408 || answer.status === 429;
    throw new UpstreamFailure(system, `HTTP ${answer.status}`, retriable);
  }
  const record = parseBody(system, answer);
  const resultado = text(record.resultado).toUpperCase();
  if (resultado === 'OK') return record;
  if (resultado === 'REGISTRO_NO_ENCONTRADO') return null;
  if (resultado === '') throw new UpstreamFailure(system, 'MISSING_RESULTADO', true);
  // Logged: free text could carry personal data.
  const code = /^[A-Z0-9_ ]{1,40}$/.test(resultado) ? resultado : 'UNKNOWN_RESULTADO';
  throw new UpstreamFailure(system, code, !NOT_RETRIABLE.has(code));
}

/** SISA sends a list of one as the element itself, an empty list as nothing. */
export function asList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value === undefined || value === null || value === '') return [];
  return [value];
}

/** The children of a wrapper element (`matriculas.matricula`), whatever SISA made of the list. */
export function listOf(wrapper: unknown, item: string): SisaRecord[] {
  const inner = isRecord(wrapper) ? wrapper[item] : undefined;
  return asList(inner).filter(isRecord);
}

/** A scalar as trimmed text, cleaned of refused characters (SPEC 11.6). */
export function text(value: unknown): string {
  if (typeof value === 'string') return cleanExternalText(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}
