// The one rule for text in a request (contract §1), applied by RequestValidationPipe to every
// body and query rather than field by field, so a new DTO cannot forget it.
import type { ErrorDetail } from '../errors/error-codes.js';

/**
 * Control characters, line and paragraph separators and format characters (bidi overrides,
 * zero-width marks…): they forged lines on printed prescriptions, reached terminals as escape
 * sequences and make a name compare as another (SPEC 9.1.2, 11.6). No field is multi-line.
 */
const REFUSED_CHARACTERS = '\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}';

const REFUSED = new RegExp(`[${REFUSED_CHARACTERS}]`, 'u');

/** The refused characters of the BMP as `\\uXXXX` ranges, for a pattern without the `u` flag. */
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

/** An unpaired UTF-16 surrogate (under `u` a pair is one code point): PostgreSQL's jsonb refuses it. */
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

/** Every key and string member holding refused text, with its path; a refused key hides what is below. */
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

/** A run of refused characters, with the spaces around it. */
const REFUSED_RUN = new RegExp(
  `( *)((?:[${REFUSED_CHARACTERS}]|${LONE_SURROGATE.source})+)( *)`,
  'gu',
);
const SEPARATING = /[\p{Cc}\p{Zl}\p{Zp}]/u;

/**
 * A registry's text made fit to store, print and show (SPEC 11.6): a run of refused characters
 * becomes one space where it separated words or had spaces beside it, else nothing; trimmed.
 */
export function cleanExternalText(text: string): string {
  return text
    .replace(REFUSED_RUN, (_run, before: string, refused: string, after: string) =>
      before || after || SEPARATING.test(refused) ? ' ' : '',
    )
    .trim();
}

/** A path as `details` names it (`items[0].nombre`), each refused character as `\uXXXX`. */
export function fieldText(path: ReadonlyArray<string | number>): string {
  return pathText(path).replace(REFUSED_OR_LONE, (c) =>
    Array.from(
      { length: c.length },
      (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`,
    ).join(''),
  );
}

/** `items[0].nombre` from ['items', 0, 'nombre']. */
export function pathText(path: ReadonlyArray<string | number>): string {
  return path.reduce<string>(
    (text, key, i) =>
      typeof key === 'number' ? `${text}[${key}]` : i === 0 ? key : `${text}.${key}`,
    '',
  );
}
