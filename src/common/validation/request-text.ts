/**
 * The one rule for text in a request (contract §1), applied by RequestValidationPipe to every
 * body and query of every endpoint rather than field by field, so a new DTO cannot forget it.
 */
import type { ErrorDetail } from '../errors/error-codes.js';

/**
 * C0 controls (U+0000 included: PostgreSQL cannot store it), DEL, C1 controls, and the
 * bidirectional embeddings, overrides and isolates. Stored, they reached the printable
 * prescription (a CR/LF printed a fake line under an item) and pharmacies' terminals (ESC
 * sequences), and a bidi override makes a name display as something else. Tab is refused too:
 * no field of the API is multi-line or tabular. As a character class, for the regex and the
 * OpenAPI patterns alike.
 */
export const REFUSED_CHARACTERS = '\\u0000-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069';

const REFUSED = new RegExp(`[${REFUSED_CHARACTERS}]`);

/**
 * An unpaired UTF-16 surrogate. JSON can carry one (`"\ud800"`) and JSON.parse keeps it, but
 * PostgreSQL's jsonb refuses it (a registration's items, a stored idempotent answer): without
 * this check such a string passed validation and failed the INSERT with a 500 (found by the
 * fuzzer). In text columns it would be silently replaced by U+FFFD, which is no better.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const REFUSED_ISSUE =
  'must not contain control characters (U+0000–U+001F, U+007F–U+009F) or bidirectional controls (U+202A–U+202E, U+2066–U+2069)';
export const LONE_SURROGATE_ISSUE = 'must be valid Unicode text (it holds an unpaired surrogate)';

/** Why `s` is refused as request text, or undefined when it is fine. */
export function textIssue(s: string): string | undefined {
  if (REFUSED.test(s)) return REFUSED_ISSUE;
  if (LONE_SURROGATE.test(s)) return LONE_SURROGATE_ISSUE;
  return undefined;
}

/**
 * Every key and string member of a parsed body or query that holds refused text, with its path
 * (`items[1].nombre`); a refused key is reported instead of what lies below it. The depth is
 * bounded by jsonDepthMiddleware; the walk stops 32 levels down anyway.
 */
export function refusedText(value: unknown): ErrorDetail[] {
  const found: ErrorDetail[] = [];
  const path: Array<string | number> = [];
  const visit = (node: unknown, depth: number): void => {
    if (depth > 32 || node === null || typeof node !== 'object') return;
    const entries: Iterable<[string | number, unknown]> = Array.isArray(node)
      ? node.entries()
      : Object.entries(node);
    for (const [key, child] of entries) {
      path.push(key);
      const issue =
        (typeof key === 'string' ? textIssue(key) : undefined) ??
        (typeof child === 'string' ? textIssue(child) : undefined);
      // Paths are only built for a hit: this runs on every request.
      if (issue) found.push({ field: fieldText(path), issue });
      else visit(child, depth + 1);
      path.pop();
    }
  };
  visit(value, 0);
  return found;
}

const REFUSED_OR_LONE = new RegExp(`[${REFUSED_CHARACTERS}]|${LONE_SURROGATE.source}`, 'g');

/**
 * A field name as `\uXXXX` where it holds refused text: the answer must not carry the
 * character back (nor can a stored idempotent answer hold U+0000 or a lone surrogate).
 */
function escapeRefused(text: string): string {
  return text.replace(
    REFUSED_OR_LONE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * A path as an answer's `details` names it: `items[0].nombre`, with refused text in a name
 * written as `\uXXXX` (contract §1).
 */
export function fieldText(path: ReadonlyArray<string | number>): string {
  return escapeRefused(pathText(path));
}

/** `items[0].nombre` from ['items', 0, 'nombre']. */
export function pathText(path: ReadonlyArray<string | number>): string {
  return path.reduce<string>(
    (text, key, i) =>
      typeof key === 'number' ? `${text}[${key}]` : i === 0 ? key : `${text}.${key}`,
    '',
  );
}
