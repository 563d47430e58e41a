import { createHash } from 'node:crypto';
import type { AuditEventRow } from './audit-event.js';

/**
 * The hashes of the event log, recomputed by verify independently of the database's own
 * functions (migrations 1763900010000 and 1795650128478 define the same texts in SQL for the
 * insert triggers):
 * a forger who replaced those functions still fails here. Every field is read as text exactly
 * as the database renders it (timestamps by `auditoria_instante`, UTC with microseconds).
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
 * `ev1` when the event has no client request id: the text of every event written before the
 * column existed, so their hashes still hold. `ev2` otherwise, the client's id hashed too (it
 * is recorded content); the tag keeps the two kinds of text apart.
 */
export function eventText(e: EventFields): string {
  const values = [e.id, e.at, e.tipo, e.cuir, e.id_transaccion, e.actor, e.resultado];
  if (e.client_request_id === null)
    return ['ev1', ...[...values, e.request_id, e.xid].map(field)].join('|');
  const all = [...values, e.request_id, e.client_request_id, e.xid];
  return ['ev2', ...all.map(field)].join('|');
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
