// Layer rules of docs/architecture.md as code; `npm run check` runs them (`npm run lint:deps`).
// Each rule's comment is the reason it exists. Composition roots (src/*.ts, src/cli/) wire
// modules together and may reach further than a module may.

/** Folders under src/ that are infrastructure, not domain modules. */
const CORE = '(common|config|database)';
/**
 * Infrastructure every module may use as a whole: the core, and the plumbing modules whose
 * every file is meant for the others (the OpenAPI decorators, the job queue).
 */
const SHARED = '(common|config|database|openapi|queue)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'A cycle means two files cannot be understood (or loaded, under ESM) one without the other.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-imports-no-domain',
      comment:
        'common/, config/ and database/ are shared by every module; importing one would tie them all to it.',
      severity: 'error',
      from: { path: `^src/${CORE}/` },
      to: { path: '^src/', pathNot: [`^src/${CORE}/`] },
    },
    {
      name: 'src-never-imports-sandbox-or-bench',
      comment:
        'Production code must not ship the emulators or the benchmark; the sandbox is loaded by dynamic import, outside production only.',
      severity: 'error',
      from: { path: '^src/', pathNot: '[.]spec[.]ts$' },
      to: { path: '^(sandbox|bench)/', dependencyTypesNot: ['dynamic-import'] },
    },
    {
      name: 'module-reaches-another-through-its-public-face',
      comment:
        "A module's inside is its own: another module reaches it only through the files at its root that it declares public — its Nest module, its slice, its services, and `<module>.public.ts` (the types, DTOs, ports and pure rules it shares) — so everything else can change without breaking callers. Specs may reach further (they build fixtures). See docs/architecture.md.",
      severity: 'error',
      from: { path: '^src/([^/]+)/', pathNot: ['^src/(cli|' + SHARED + ')/', '[.]spec[.]ts$'] },
      to: {
        path: '^src/[^/]+/',
        pathNot: [
          '^src/$1/',
          `^src/${SHARED}/`,
          '^src/[^/]+/[^/]+[.](module|slice|service|public)[.]ts$',
        ],
      },
    },
    {
      name: 'bench-reads-the-declared-surface-only',
      comment:
        "The benchmark compares the service with bare code running the service's own SQL: it may read the modules' SQL files (*.sql.ts) and nothing else of src/, so it never shapes the internals (besides the embedded PostgreSQL, infrastructure it measures the service on, and what the scale seed must write exactly as the service does: a month's partitions and the patient data's seal).",
      severity: 'error',
      from: { path: '^bench/' },
      to: {
        path: '^src/',
        pathNot: [
          '^src/.+[.]sql[.]ts$',
          '^src/common/sql/',
          '^src/database/embedded/',
          '^src/database/particiones/(particiones|periodos|particionadas)[.]ts$',
          '^src/recetas/cifrado/datos-paciente[.]ts$',
        ],
      },
    },
    {
      name: 'sandbox-stands-alone',
      comment:
        'The sandbox emulates external systems and runs on its own (npm run sandbox): it must not depend on the service it emulates them for.',
      severity: 'error',
      from: { path: '^sandbox/' },
      to: { path: '^(src|bench|test)/' },
    },
    {
      name: 'production-code-never-imports-tests',
      comment: 'Test helpers are not shipped.',
      severity: 'error',
      from: { path: '^(src|sandbox|migrations)/', pathNot: '[.]spec[.]ts$' },
      to: { path: '^test/|[.]spec[.]ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|coverage|examples)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
