// CI gate (npm run lint:openapi): lints the OpenAPI document the service actually serves with
// Redocly CLI (redocly.yaml: recommended) and Spectral (.spectral.yaml: spectral:oas + OWASP).
// Any error fails; warnings are printed. Exceptions live in those two files and in
// .redocly.lint-ignore.yaml (Redocly's per-location ones), each justified.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { servedOpenApi } from './served-openapi.mjs';

// A fixed path (under dist/, ignored by git), because .redocly.lint-ignore.yaml names the linted
// file: its exceptions apply to this file only. It is left in place for a look after a failure.
const LINTED_DOCUMENT = join('dist', 'openapi', 'openapi.json');

mkdirSync(dirname(LINTED_DOCUMENT), { recursive: true });
writeFileSync(LINTED_DOCUMENT, `${JSON.stringify(await servedOpenApi(), null, 2)}\n`);
let failed = false;
const run = (title, bin, args) => {
  process.stdout.write(`== ${title}\n`);
  const r = spawnSync(join('node_modules', '.bin', bin), args, { stdio: 'inherit' });
  if (r.status !== 0) {
    process.stdout.write(`${title}: failed (exit ${r.status})\n`);
    failed = true;
  }
};
run('Redocly CLI (redocly.yaml, .redocly.lint-ignore.yaml)', 'redocly', [
  'lint',
  '--config',
  'redocly.yaml',
  LINTED_DOCUMENT,
]);
run('Spectral (.spectral.yaml)', 'spectral', [
  'lint',
  '--ruleset',
  '.spectral.yaml',
  '--fail-severity',
  'error',
  '--format',
  'stylish',
  LINTED_DOCUMENT,
]);
process.exit(failed ? 1 : 0);
