/**
 * The one rule for text in a request (contract §1), applied by RequestValidationPipe to every
 * body and query of every endpoint rather than field by field, so a new DTO cannot forget it.
 */
import type { ErrorDetail } from '../errors/error-codes.js';

/**
 * Every control character (Cc: C0 with U+0000 — PostgreSQL cannot store it —, DEL, C1), the
 * line and paragraph separators (Zl U+2028, Zp U+2029) and every format character (Cf: the
 * bidirectional embeddings, overrides, isolates and marks U+200E, U+200F, U+061C, zero-width
 * characters, U+FEFF, soft hyphens, tags…). Stored, they reached the printable prescription (a
 * CR/LF or U+2028 printed a fake line under an item) and pharmacies' terminals (ESC sequences),
 * and an invisible mark or override makes a name display, compare or search as something else
 * (SPEC 9.1.2, 11.6). Tab is refused too: no field of the API is multi-line or tabular. As a
 * character class of Unicode properties (the `u` flag), for the regex and the OpenAPI patterns
 * alike: Node's Unicode tables decide each code point, new ones included.
 */
export const REFUSED_CHARACTERS = '\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}';

const REFUSED = new RegExp(`[${REFUSED_CHARACTERS}]`, 'u');

/**
 * The refused characters of the Basic Multilingual Plane as `\\uXXXX` ranges, read from the same
 * Unicode tables: for a pattern in the subset of regular expressions JSON Schema recommends,
 * which means the same with or without the `u` flag. The few format characters beyond U+FFFF
 * (tags, musical and shorthand controls) are refused by the server all the same.
 */
export const REFUSED_BMP_RANGES: string = (() => {
  const hex = (cp: number) => `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  const ranges: string[] = [];
  for (let cp = 0; cp <= 0xffff; cp++) {
    if (!REFUSED.test(String.fromCharCode(cp))) continue;
    let last = cp;
    while (last < 0xffff && REFUSED.test(String.fromCharCode(last + 1))) last++;
    ranges.push(last === cp ? hex(cp) : `${hex(cp)}-${hex(last)}`);
    cp = last;
  }
  return ranges.join('');
})();

/**
 * An unpaired UTF-16 surrogate (under the `u` flag a pair is one code point, so only a lone one
 * matches). JSON can carry one (`"\ud800"`) and JSON.parse keeps it, but PostgreSQL's jsonb
 * refuses it (a registration's items, a stored idempotent answer): without this check such a
 * string passed validation and failed the INSERT with a 500 (found by the fuzzer). In text
 * columns it would be silently replaced by U+FFFD, which is no better.
 */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

export const REFUSED_ISSUE =
  'must not contain control characters, line or paragraph separators, or invisible format characters (Unicode Cc, Zl, Zp, Cf: U+0000–U+001F, U+007F–U+009F, U+2028, U+2029, U+200B–U+200F, U+202A–U+202E, U+2060–U+206F, U+061C, U+FEFF, …)';
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

const REFUSED_OR_LONE = new RegExp(`[${REFUSED_CHARACTERS}]|${LONE_SURROGATE.source}`, 'gu');

/**
 * Text with every refused character written as `\uXXXX` (each UTF-16 unit of it): an answer
 * must not carry the character back (nor can a stored idempotent answer hold U+0000 or a lone
 * surrogate).
 */
function escapeRefused(text: string): string {
  return text.replace(REFUSED_OR_LONE, (c) =>
    Array.from(
      { length: c.length },
      (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`,
    ).join(''),
  );
}

/** A run of refused characters, with the spaces around it. */
const REFUSED_RUN = new RegExp(
  `( *)((?:[${REFUSED_CHARACTERS}]|${LONE_SURROGATE.source})+)( *)`,
  'gu',
);
const SEPARATING = /[\p{Cc}\p{Zl}\p{Zp}]/u;

/**
 * Text from elsewhere (a registry's answer: a prescriber's name from REFEPS, a citizen's from
 * RENAPER) made fit to store, print and show (SPEC 11.6): each run of refused characters (and
 * lone surrogates) becomes one space where it separated words (a control, a line break) or had
 * spaces beside it, else nothing (an invisible mark inside a word); the result is trimmed.
 */
export function cleanExternalText(text: string): string {
  return text
    .replace(REFUSED_RUN, (_run, before: string, refused: string, after: string) =>
      before || after || SEPARATING.test(refused) ? ' ' : '',
    )
    .trim();
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
