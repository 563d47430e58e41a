import type pg from 'pg';
import { normalizeSearchText, searchStatement } from '../../src/medicamentos/busqueda.sql.js';
import {
  LATEST_ID_SQL,
  LIST_COUNT_CAP,
  listingSql,
  type ListingFilters,
} from '../../src/recetas/consulta/listado.sql.js';
import { round2 } from './proc.js';

export interface ExplainEntry {
  name: string;
  execution_ms: number;
  planning_ms: number;
  /** Median wall time of `repeat` plain runs of the statement (no EXPLAIN), when measured. */
  median_ms?: number;
  plan: string;
}

/** The listing's WHERE clause as RecetasRepository.listForClient builds it (no filters). */
const WHERE =
  'client_id = $1 AND fecha_creacion >= $2 AND fecha_creacion <= $3 AND id_transaccion <= $4';
/** Reference: the exact count the listing made before its `total` was capped. */
export const EXACT_COUNT_SQL = `SELECT count(*)::int AS total FROM recetas WHERE ${WHERE}`;
/** Candidate for deep pages: keyset (seek) on the index order instead of OFFSET. */
export const KEYSET_PAGE_SQL = `SELECT id_transaccion, id_de_receta, cuir, fecha_creacion, matricula_profesional, documento_paciente, estado
           FROM recetas WHERE ${WHERE} AND (fecha_creacion, id_transaccion) < ($5, $6)
          ORDER BY fecha_creacion DESC, id_transaccion DESC
          LIMIT $7`;

/** The statement the service sends for these filters below the watermark (listado.sql.ts). */
function serviceListingSql(f: ListingFilters, asOf: string): { sql: string; params: unknown[] } {
  const { sql, values } = listingSql(f, asOf);
  return { sql, params: values };
}

async function explain(
  pool: pg.Pool,
  name: string,
  sql: string,
  params: unknown[],
  opts: { preferIndex?: boolean; repeat?: number } = {},
): Promise<ExplainEntry> {
  const c = await pool.connect();
  try {
    const runOnce = async (prefix: string) => {
      if (!opts.preferIndex) return c.query(prefix + sql, params);
      await c.query('BEGIN');
      try {
        await c.query('SET LOCAL enable_seqscan = off');
        return await c.query(prefix + sql, params);
      } finally {
        await c.query('COMMIT');
      }
    };
    await runOnce(''); // warm the cache and the connection
    const res = await runOnce('EXPLAIN (ANALYZE, BUFFERS) ');
    const plan = (res.rows as Array<{ 'QUERY PLAN': string }>)
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    const num = (label: string) =>
      Number(new RegExp(`${label}: ([\\d.]+) ms`).exec(plan)?.[1] ?? NaN);
    let median: number | undefined;
    if (opts.repeat) {
      const times: number[] = [];
      for (let i = 0; i < opts.repeat; i++) {
        const t = performance.now();
        await runOnce('');
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      median = round2(times[Math.floor(times.length / 2)]);
    }
    return {
      name,
      execution_ms: num('Execution Time'),
      planning_ms: num('Planning Time'),
      ...(median !== undefined ? { median_ms: median } : {}),
      plan,
    };
  } finally {
    c.release();
  }
}

export interface ListingClients {
  big: { id: string; rows: number };
  small: { id: string; rows: number };
}

/** EXPLAIN (ANALYZE, BUFFERS) of the listing SQL for both clients, and of the alternatives. */
export async function explainListing(
  pool: pg.Pool,
  clients: ListingClients,
  window: { desde: string; hasta: string },
  deepPage: number,
  repeat: number,
): Promise<ExplainEntry[]> {
  const asOf = (await pool.query<{ id: string }>(LATEST_ID_SQL)).rows[0].id;
  // With the watermark the service reads first (explained below), so one statement is recorded.
  const filters = (clientId: string, page: number): ListingFilters => ({
    clientId,
    desde: new Date(window.desde),
    hasta: new Date(window.hasta),
    limit: 50,
    offset: (page - 1) * 50,
  });
  const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);
  const B = label(clients.big.rows);
  const S = label(clients.small.rows);
  const big1 = serviceListingSql(filters(clients.big.id, 1), asOf);
  const bigDeep = serviceListingSql(filters(clients.big.id, deepPage), asOf);
  const small1 = serviceListingSql(filters(clients.small.id, 1), asOf);
  // The boundary row of the deep page, as a client paging by keyset would hold it.
  const base = [clients.big.id, new Date(window.desde), new Date(window.hasta), asOf];
  const boundary = await pool.query<{ fecha_creacion: Date; id_transaccion: string }>(
    `SELECT fecha_creacion, id_transaccion FROM recetas WHERE ${WHERE}
      ORDER BY fecha_creacion DESC, id_transaccion DESC LIMIT 1 OFFSET $5`,
    [...base, (deepPage - 1) * 50 - 1],
  );
  const b = boundary.rows[0];
  const run = (name: string, q: { sql: string; params: unknown[] }) =>
    explain(pool, name, q.sql, q.params, { repeat });
  return [
    await explain(pool, 'watermark max(id_transaccion)', LATEST_ID_SQL, [], { repeat }),
    await run(
      `listar page 1 with its capped count (cap ${LIST_COUNT_CAP}) (service SQL), ${B} rows, 30 days`,
      big1,
    ),
    await run(
      `listar page ${deepPage} (service SQL, OFFSET ${(deepPage - 1) * 50}), ${B} rows`,
      bigDeep,
    ),
    await run(`listar page 1 (service SQL), ${S} rows`, small1),
    await explain(pool, `reference: exact count, ${B} rows, 30 days`, EXACT_COUNT_SQL, base, {
      repeat,
    }),
    ...(b
      ? [
          await explain(
            pool,
            `alternative: keyset page ${deepPage}, ${B} rows`,
            KEYSET_PAGE_SQL,
            [...base, b.fecha_creacion, b.id_transaccion, 50],
            { repeat },
          ),
        ]
      : []),
  ];
}

/**
 * Reference: the search SQL before the cheaper ranking (same candidates, tiers and total), which
 * ranked every candidate by word_similarity() then similarity() inside each tier, and
 * materialised every candidate's API columns. Kept to show what the search SQL saves.
 */
export const FORMER_SEARCH_SQL = `
  WITH hits AS (
    SELECT code, nombre, principio_activo, droga, dosis, posologia, presentacion, coberturas,
      nombre_norm,
      CASE
        WHEN nombre_norm = $1 OR principio_activo_norm = $1 THEN 0
        WHEN nombre_norm LIKE $2 OR principio_activo_norm LIKE $2 THEN 1
        WHEN search_text LIKE $3 THEN 2
        ELSE 3
      END AS tier,
      word_similarity($1, search_text) AS closeness,
      similarity($1, search_text) AS likeness
    FROM medicamentos
    WHERE search_text LIKE $3 OR search_text %> $1
  )
  SELECT t.total, h.*
  FROM (SELECT count(*)::int AS total FROM hits) t
  LEFT JOIN LATERAL (
    SELECT * FROM hits
    ORDER BY tier, closeness DESC, likeness DESC, nombre_norm COLLATE "C", code COLLATE "C"
    LIMIT $4 OFFSET $5
  ) h ON true`;

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the search SQL, run as MedicamentosRepository runs it, then of
 * the former ranking for the same queries.
 */
export async function explainSearch(
  pool: pg.Pool,
  queries: string[],
  repeat: number,
): Promise<ExplainEntry[]> {
  const out: ExplainEntry[] = [];
  for (const former of [false, true]) {
    for (const q of queries) {
      const statement = searchStatement(normalizeSearchText(q), 20, 0);
      const name = former ? `reference: former ranking, buscar q=${q}` : `buscar q=${q}`;
      const sql = former ? FORMER_SEARCH_SQL : statement.sql;
      out.push(
        await explain(pool, name, sql, statement.params, {
          preferIndex: statement.preferIndex !== undefined,
          repeat,
        }),
      );
    }
  }
  return out;
}
