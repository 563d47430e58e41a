import { escapeLike } from './search-text.js';

/** How a query is normalised before it reaches the statement (the bench normalises the same way). */
export { normalizeSearchText } from './search-text.js';

/**
 * The catalogue search's SQL and parameters (contract §3, buscar). Part of the surface bench/ may
 * read: its EXPLAINs run this same statement.
 */

const API_COLUMNS =
  'code, nombre, principio_activo, droga, dosis, posologia, presentacion, coberturas';
const PAGE_COLUMNS = API_COLUMNS.split(', ')
  .map((column) => `m.${column}`)
  .join(', ');

/**
 * Best match first. Candidates are rows whose search text contains the query, or holds a word
 * close to it by trigrams (`%>`: word_similarity ≥ pg_trgm.word_similarity_threshold, 0.6 by
 * default) — both answered by the GIN trigram index; `total` counts them all. They are ranked in
 * tiers: exact name or active ingredient, then one starting with the query, then containing it,
 * then typo matches. Inside the typo tier by word similarity; inside the others, which all hold
 * the query verbatim, products whose name holds it first (a brand named after the drug), then by
 * text length (the shorter, the closer); then name and code in byte order
 * (COLLATE "C": the same order whatever the database's locale). Code is unique: a total order.
 *
 * Cost (each candidate's heap row must be read and rechecked anyway): word_similarity is computed
 * only for typo-tier rows that can reach the requested page — none when the other tiers fill it
 * (`matched`), which also keeps those rows out of the sort; only the ranking keys are
 * materialised, and the API columns are read back by primary key for the page's rows.
 * On a 50,000-item mirror the 12 bench queries take about half the time of ranking every
 * candidate by word_similarity and similarity (bench/lib/explain.ts keeps that SQL as a
 * reference); common ingredients (~2,400 candidates) a third. Typo-only queries gain least: the
 * index recheck of `%>` already costs as much as their ranking.
 * $1 normalised query, $2 prefix pattern, $3 substring pattern, $4 limit, $5 offset ($4 and $5
 * are typed where first met, in `$4 + $5`, which alone could not resolve their types).
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
 * pg_trgm declares its operators with the default function cost, so the planner thinks
 * evaluating `%>` on every row is nearly free and, when a query matches a few percent of the
 * rows, prefers a sequential scan. Measured on a 50,000-item mirror: 150–190 ms that way,
 * 10–25 ms through the GIN index. With a trigram in the query the index is always usable,
 * so seq scans are discouraged for this one statement (SET LOCAL, in its own transaction).
 * Without one (e.g. "mg") a GIN scan would read the whole index: the planner decides.
 */
const PREFER_INDEX = 'SET LOCAL enable_seqscan = off';

/**
 * The search statement for an already normalised query (normalizeSearchText): $1 the query,
 * $2 its prefix pattern, $3 its substring pattern, $4 limit, $5 offset; `preferIndex` is the
 * statement to run first, in the same transaction, when there is one.
 */
export function searchStatement(normalized: string, limit: number, offset: number) {
  const like = escapeLike(normalized);
  return {
    sql: SEARCH_SQL,
    params: [normalized, `${like}%`, `%${like}%`, limit, offset] as unknown[],
    // With a trigram in the query the GIN index is always usable (see PREFER_INDEX).
    preferIndex: /[\p{L}\p{N}]{3}/u.test(normalized) ? PREFER_INDEX : undefined,
  };
}
