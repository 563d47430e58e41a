// CI gate (npm run lint:openapi): lints the OpenAPI document the service actually serves with
// Redocly CLI (redocly.yaml: recommended) and Spectral (.spectral.yaml: spectral:oas + OWASP).
// Any error fails; warnings are printed. Exceptions live in those two files, each justified.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { servedOpenApi } from './served-openapi.mjs';

const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
const file = join(dir, 'openapi.json');
let failed = false;
try {
  writeFileSync(file, JSON.stringify(await servedOpenApi(), null, 2));
  const run = (title, bin, args) => {
    process.stdout.write(`== ${title}\n`);
    const r = spawnSync(join('node_modules', '.bin', bin), args, { stdio: 'inherit' });
    if (r.status !== 0) {
      process.stdout.write(`${title}: failed (exit ${r.status})\n`);
      failed = true;
    }
  };
  run('Redocly CLI (redocly.yaml)', 'redocly', ['lint', '--config', 'redocly.yaml', file]);
  run('Spectral (.spectral.yaml)', 'spectral', [
    'lint',
    '--ruleset',
    '.spectral.yaml',
    '--fail-severity',
    'error',
    '--format',
    'stylish',
    file,
  ]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
