/**
 * The one form in which the mirror's search columns and a query are compared: compatibility
 * folding (NFKD: "２", "ﬁ"), accents stripped, lower case, whitespace collapsed.
 * Computed here rather than with SQL unaccent(), which is not IMMUTABLE (it cannot feed a
 * generated column or an index) and whose rules file could differ between PostgreSQL builds
 * (a distribution's, the embedded server's); in JS both sides agree on every database.
 */
export function normalizeSearchText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** Escapes LIKE's wildcards so a query's own `%`, `_` and `\` match literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}
