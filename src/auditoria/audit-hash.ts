import { createHash } from 'node:crypto';
import type { AuditEventRow } from './audit-event.js';

/**
 * The event log's hashes, recomputed by verify apart from the database's own functions (the
 * triggers' SQL, migrations 1763900010000 and 1795650128478), so a forger who replaced those
 * still fails here. Fields are texts as the database renders them (times UTC, microseconds).
 */

/** An event's hashed fields, as text (NULL as null): the columns written, and the database's. */
export interface EventFields extends AuditEventRow {
  id: string;
  at: string;
  xid: string;
}

/** A seal's hashed fields, as text. */
export interface SealFields {
  id: string;
  at: string;
  xid_desde: string;
  xid_hasta: string;
  eventos: string;
  ids: string;
  ultimo_at: string;
}

/** The hash before the first seal. */
export const GENESIS = Buffer.alloc(32);

// Length-prefixed, so no value can imitate a separator; NULL differs from every string.
const field = (v: string | null): string => (v === null ? '~' : `${Buffer.byteLength(v)}:${v}`);

/**
 * `ev1` without a client request id (the text of the events older than that column, whose
 * hashes must still hold); `ev2` with it, hashed too.
 */
export function eventText(e: EventFields): string {
  const ev2 = e.client_request_id !== null;
  const values = [e.id, e.at, e.tipo, e.cuir, e.id_transaccion, e.actor, e.resultado, e.request_id];
  if (ev2) values.push(e.client_request_id);
  values.push(e.xid);
  return [ev2 ? 'ev2' : 'ev1', ...values.map(field)].join('|');
}

export function sealText(s: SealFields): string {
  const values = [s.id, s.at, s.xid_desde, s.xid_hasta, s.eventos, s.ids, s.ultimo_at];
  return ['se1', ...values.map(field)].join('|');
}

export const sha256 = (...parts: Array<Buffer | string>): Buffer => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};

export const eventHash = (e: EventFields): Buffer => sha256(eventText(e));

/** sha256(previous seal's hash || the seal's text || digest of its events' hashes in id order). */
export const sealHash = (previous: Buffer, s: SealFields, digest: Buffer): Buffer =>
  sha256(previous, sealText(s), digest);

/** Half-open id ranges [from, to), as PostgreSQL writes a canonical int8multirange. */
export type IdRanges = Array<[bigint, bigint]>;

/** Parses `{[1,4),[7,9)}` (the canonical output of an int8multirange). */
export function parseIdRanges(text: string): IdRanges {
  const body = /^\{(.*)\}$/.exec(text.trim());
  if (!body) throw new Error(`not a multirange: ${text}`);
  if (body[1] === '') return [];
  return body[1].split('),').map((part) => {
    const m = /^\[(\d+),(\d+)\)?$/.exec(part.trim());
    if (!m) throw new Error(`not a canonical int8 range: ${part}`);
    return [BigInt(m[1]), BigInt(m[2])];
  });
}

export const rangesSize = (r: IdRanges): bigint => r.reduce((n, [a, b]) => n + (b - a), 0n);

/** The ids of the ranges, ascending. */
export function* idsOf(r: IdRanges): Generator<bigint> {
  for (const [from, to] of r) for (let id = from; id < to; id++) yield id;
}
