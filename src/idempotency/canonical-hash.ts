import { hash } from 'node:crypto';
import { canonicalJson } from '../common/canonical-json.js';

/**
 * What makes two requests "the same" for an Idempotency-Key: the method, the actual path (the
 * resource's ids included, the query string not) and the canonical body. The path, not the
 * route's pattern: a key is shared by every endpoint of its client, so one prescription's key
 * sent to another prescription must differ here (409), never replay the first one's answer.
 */
export function requestHash(method: string, path: string, body: unknown): string {
  // The method twice, as the stored hashes have always had it: a key taken before the path
  // replaced the pattern still matches its retry where the two are the same (the registration).
  // One-shot: no Hash object per request (a native handle the GC must finalise).
  return hash('sha256', `${method} ${method} ${path}\n${canonicalJson(body)}`, 'hex');
}
