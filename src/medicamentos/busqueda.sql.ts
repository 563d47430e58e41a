import { escapeLike } from './search-text.js';

/** How a query is normalised before it reaches the statement (the bench normalises the same way). */
export { normalizeSearchText } from './search-text.js';

const API_COLUMNS =
  'code, nombre, principio_activo, droga, dosis, posologia, presentacion, coberturas';
const PAGE_COLUMNS = API_COLUMNS.split(', ')
  .map((column) => `m.${column}`)
  .join(', ');

/**
 * The catalogue search (contract §3), best match first. Candidates: rows whose search text
 * contains the query or holds a word close to it by trigrams (`%>`), both answered by the GIN
 * trigram index; `total` counts them all. Ranked in tiers: exact name or active ingredient, then
 * starting with the query, then containing it, then typo matches (by word similarity); inside
 * the others, products whose name holds the query first, then the shorter text; then name and
 * code in byte order (COLLATE "C": the same whatever the locale; code is unique).
 * word_similarity is computed only for typo-tier rows that can reach the page (none when the
 * other tiers fill it: `matched`), and the API columns are read back for the page's rows only.
 * $1 normalised query, $2 prefix pattern, $3 substring pattern, $4 limit, $5 offset ($4 and $5
 * are typed where first met: `$4 + $5` alone could not resolve their types).
 */
export const SEARCH_SQL = `
  WITH hits AS (
    SELECT code, nombre_norm, search_text,
      CASE
        WHEN nombre_norm = $1 OR principio_activo_norm = $1 THEN 0
        WHEN nombre_norm LIKE $2 OR principio_activo_norm LIKE $2 THEN 1
        WHEN search_text LIKE $3 THEN 2
        ELSE 3
      END AS tier
    FROM medicamentos
    WHERE search_text LIKE $3 OR search_text %> $1
  ),
  counted AS (
    SELECT count(*)::int AS total, count(*) FILTER (WHERE tier < 3) AS matched FROM hits
  )
  SELECT c.total, ${PAGE_COLUMNS}
  FROM counted c
  LEFT JOIN LATERAL (
    SELECT code, nombre_norm, tier, nombre_norm LIKE $3 AS named, length(search_text) AS len,
      CASE WHEN tier = 3 THEN word_similarity($1, search_text) END AS closeness
    FROM hits
    WHERE tier < 3 OR c.matched < $4::bigint + $5::bigint
    ORDER BY tier, closeness DESC, named DESC, len, nombre_norm COLLATE "C", code COLLATE "C"
    LIMIT $4 OFFSET $5
  ) h ON true
  LEFT JOIN medicamentos m ON m.code = h.code
  ORDER BY h.tier, h.closeness DESC, h.named DESC, h.len, h.nombre_norm COLLATE "C", h.code COLLATE "C"`;

/**
 * pg_trgm declares its operators with the default cost, so the planner thinks `%>` nearly free
 * and may prefer a sequential scan (several times slower than the GIN index). With a trigram in the
 * query the index is always usable, so seq scans are discouraged for this one statement;
 * without one (e.g. "mg") a GIN scan would read the whole index: the planner decides.
 */
const PREFER_INDEX = 'SET LOCAL enable_seqscan = off';

/** The search for a normalised query; `preferIndex`, when set, runs first in its transaction. */
export function searchStatement(normalized: string, limit: number, offset: number) {
  const like = escapeLike(normalized);
  return {
    sql: SEARCH_SQL,
    params: [normalized, `${like}%`, `%${like}%`, limit, offset] as unknown[],
    preferIndex: /[\p{L}\p{N}]{3}/u.test(normalized) ? PREFER_INDEX : undefined,
  };
}
