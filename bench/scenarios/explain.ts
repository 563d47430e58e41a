import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESULTS, type Bench } from '../lib/bench.js';
import { explainListing, explainSearch } from '../lib/explain.js';
import { log } from '../lib/log.js';
import * as req from '../lib/requests.js';
import type { Setup } from '../lib/setup.js';

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the listing and search statements as the service sends them,
 * right after seeding and before any load.
 */
export async function explain(bench: Bench, setup: Setup): Promise<void> {
  const { o, db } = bench;
  const { clients } = setup;
  bench.explain = [
    ...(await explainListing(
      db.pool,
      {
        big: { id: clients.big.id, rows: o.bigRows },
        small: { id: clients.small.id, rows: o.smallRows },
      },
      setup.window,
      o.deepPage,
      o.explainRepeat,
    )),
    ...(await explainSearch(db.pool, req.SEARCH_QUERIES, o.explainRepeat)),
  ];
  writeFileSync(
    join(RESULTS, 'explain.log'),
    bench.explain.map((e) => `### ${e.name}\n${e.plan}\n`).join('\n'),
  );
  for (const e of bench.explain)
    log(
      `EXPLAIN ${e.name}: execution ${e.execution_ms} ms${e.median_ms !== undefined ? `, median of plain runs ${e.median_ms} ms` : ''}`,
    );
}
