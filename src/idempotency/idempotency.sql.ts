import type { SqlParams } from '../common/sql/sql-params.js';

// The Idempotency-Key statements that run inside another (the registration's INSERT … WITH),
// and the fingerprint they compare, which bench/ stores the same way.
export { requestHash } from './canonical-hash.js';

/** Longer than any request may run (REQUEST_TIMEOUT_MS), so a live request keeps its key. */
export const KEY_LEASE_SECONDS = 60;
/** How long a key and its answer are kept (contract §3). */
export const KEY_TTL_HOURS = 24;

interface KeyToSettle {
  clientId: string;
  key: string;
  /** The keyed fingerprint; a key stored with the bare SHA-256 is refused (the service upgrades it). */
  requestHash: string;
  successStatus: number;
}

/** The answer's bytes with the JSON string `"<placeholder>"` (random per request) replaced by `source`'s id. */
export const answerWithIdSql = (p: SqlParams, text: string, placeholder: string, source: string) =>
  `replace(${p.add(text)}::text, ${p.add(JSON.stringify(placeholder))}::text, to_json(${source}.id::text)::text)`;

/**
 * Takes a key nobody holds (or expired, or whose holder of this same request crashed) and
 * stores its answer; returns a row only if it took the key. A key another transaction is
 * inserting makes it wait for that transaction, then refuse.
 */
export function takeKeyGateSql(p: SqlParams, k: KeyToSettle, answer: string, source: string) {
  return `INSERT INTO idempotency_keys AS k (client_id, key, request_hash, state, response_status,
      response_text, locked_until, expires_at)
    SELECT ${p.add(k.clientId)}::uuid, ${p.add(k.key)}::uuid, ${p.add(k.requestHash)}, 'completed',
      ${p.add(k.successStatus)}::int, ${answer}, now(), now() + make_interval(hours => ${p.add(KEY_TTL_HOURS)})
      FROM ${source}
    ON CONFLICT (client_id, key) DO UPDATE SET
      request_hash = EXCLUDED.request_hash, state = EXCLUDED.state,
      response_status = EXCLUDED.response_status, response_body = NULL,
      response_text = EXCLUDED.response_text, locked_until = EXCLUDED.locked_until,
      created_at = now(), expires_at = EXCLUDED.expires_at
    WHERE k.expires_at < now()
       OR (k.state = 'in_progress' AND k.locked_until < now() AND k.request_hash = EXCLUDED.request_hash)
    RETURNING 1`;
}

/** Stores the answer of a key this request holds; returns a row only if it is still held. */
export function holdKeyGateSql(p: SqlParams, k: KeyToSettle, answer: string, source: string) {
  return `UPDATE idempotency_keys SET state = 'completed', response_status = ${p.add(k.successStatus)}::int,
      response_text = ${answer}
      FROM ${source}
    WHERE client_id = ${p.add(k.clientId)}::uuid AND key = ${p.add(k.key)}::uuid AND state = 'in_progress'
    RETURNING 1`;
}
