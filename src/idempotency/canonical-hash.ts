import { createHash } from 'node:crypto';
import { canonicalJson } from '../common/canonical-json.js';

/** What makes two requests "the same" for an Idempotency-Key: method, route and canonical body. */
export function requestHash(method: string, route: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${route}\n${canonicalJson(body)}`)
    .digest('hex');
}
