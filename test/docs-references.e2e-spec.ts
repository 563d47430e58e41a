import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type Citation,
  citations,
  docsUnder,
  exists,
  readTree,
  type Tree,
} from './support/docs/code-references.js';

/**
 * Docs that cannot drift (issue 45, item 7): every code name README.md, docs/*.md,
 * ops/runbook.md and BENCHMARKS.md cite in backticks — a file path, an `npm run` script, a
 * setting or another UPPER_SNAKE name, a TypeScript identifier (camelCase or PascalCase of two
 * words or more, a call, `Class.member`) — exists in the tree.
 * CHANGELOG.md is exempt: it records names as they were; so is docs/openapi-diff.md, which
 * scripts/openapi-diff.mjs writes (the document's JSON pointers, not code). The source files a Mermaid diagram's
 * steps name are checked too. Needs no database or service.
 */
const ROOT = resolve('.');
const OWN = ['test/docs-references.e2e-spec.ts', 'test/support/docs/code-references.ts'];

/**
 * Names cited in backticks that are not in the tree, each with why. Keep it short: a name
 * that should exist is fixed in the doc, not listed here.
 */
const NOT_CODE: Record<string, string> = {
  // Examples of names, not names.
  'obras-sociales.slice.ts': "the generator's sample module (npm run new:module -- obras-sociales)",
  ObrasSocialesEntity: "the generator's sample module",
  'something.job.ts': 'a job file of any name',
  'x.sql.ts': 'a SQL file of any name',
  'x.snapshot.sql': "a SQL file's snapshot, of any name",
  VariablesClass: "a parameter's name in a signature",
  OBRAS_SOCIALES_VENTANA_MAXIMA: "a setting of the generator's sample module",
  UPPER_SNAKE: "the naming rules' name for a style",
  // Files whose name the code composes (`${dataDir}.password`, `cpu-ab-diff-${phase}.log`).
  '.data/postgres.password': 'embedded-postgres.ts: passwordPath',
  '.data/postgres.server.json': 'ownership.ts: serverInfoPath',
  'bench/results/cpu-ab-diff-fixed.log': "the A/B profile's diff, by phase",
  'dist/openapi/openapi.json': 'written by scripts/lint-openapi.mjs, not built from a source',
  '.data/pglite': "an earlier version's folder, named so it can be deleted",
  // Not paths: the bench table's columns.
  'x/base': "the bench table's column: the row over the baseline",
  'x/peer': "the bench table's column: the service over the peer",
};

describe('docs cite only code that exists', () => {
  let tree: Tree;

  beforeAll(() => {
    tree = readTree(ROOT, OWN);
  });

  it('reads paths, scripts, settings and identifiers from backticks, and not from fences', () => {
    const doc = [
      'Run `npm run docs:settings -- --check` and `npm run gone`; set `DATABASE_URL=postgres://…`.',
      'See `src/database/transactions.ts`, `registro.sql.ts`, `docs/gone.md` and `src/**/*.spec.ts`.',
      'Through `Transactions.run`, `RecetasService`, `this.queue.enqueue(GoneJob, data)`.',
      'Helpers `entitySelectList` and `goneHelper`; a word in backticks: `estado`, `JSON`.',
      'Not code: `/v1/recetas/registrar`, `application/json`, `--scopes all`, `{"a": 1}`.',
      '```ts',
      'const x = `NotChecked`;',
      '```',
      '```mermaid',
      '    A->>B: one statement (recetas/registro/registro.sql.ts, gone/step.ts)',
      '```',
    ].join('\n');
    const found = citations('docs/x.md', doc);
    expect(found.map((c) => `${c.kind}:${c.name}`)).toEqual([
      'script:docs:settings',
      'script:gone',
      'name:DATABASE_URL',
      'file:src/database/transactions.ts',
      'file:registro.sql.ts',
      'file:docs/gone.md',
      'file:src/**/*.spec.ts',
      'identifier:Transactions',
      'identifier:run',
      'identifier:RecetasService',
      'identifier:queue',
      'identifier:enqueue',
      'identifier:GoneJob',
      'identifier:entitySelectList',
      'identifier:goneHelper',
      'file:recetas/registro/registro.sql.ts',
      'file:gone/step.ts',
    ]);
    expect(found.filter((c) => !exists(tree, c)).map((c) => c.name)).toEqual([
      'gone',
      'docs/gone.md',
      'GoneJob',
      'goneHelper',
      'gone/step.ts',
    ]);
  });

  it.each(docsUnder(ROOT))('%s', (doc) => {
    const missing = citations(doc, readFileSync(join(ROOT, doc), 'utf8')).filter(
      (c) => !(c.name in NOT_CODE) && !exists(tree, c),
    );
    expect(missing.map(describeMissing)).toEqual([]);
  });

  it('lists only names that are still cited and still absent', () => {
    const cited = new Set(
      docsUnder(ROOT).flatMap((doc) =>
        citations(doc, readFileSync(join(ROOT, doc), 'utf8')).map((c) => c.name),
      ),
    );
    const stale = Object.keys(NOT_CODE).filter(
      (name) => !cited.has(name) || tree.words.has(name) || tree.paths.has(name),
    );
    expect(stale).toEqual([]);
  });
});

function describeMissing(c: Citation): string {
  const what = {
    file: 'no such file or folder',
    script: 'no such npm script',
    name: 'no such setting or name',
    identifier: 'no such identifier',
  }[c.kind];
  return `${c.doc}:${c.line}: \`${c.name}\` (${what}; in \`${c.span}\`)`;
}
