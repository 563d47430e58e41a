// Builds dist/ with tsc. `--if-stale` builds only when a source changed since the last build
// (a fingerprint of every source file's path, size and mtime, kept in dist/.sources), so
// `npm start`, `npm run cli` and `npm test` pay for a build once, not on every call.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOTS = ['src', 'generated', 'sandbox', 'migrations', 'scripts'];
const FILES = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
const STAMP = 'dist/.sources';

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.name.endsWith('.ts') || entry.name.endsWith('.sql')) yield path;
  }
}

function* walkOutputs(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walkOutputs(path);
    else if (/\.js(\.map)?$|\.d\.ts$/.test(entry.name)) yield path;
  }
}

function fingerprint() {
  const hash = createHash('sha256');
  for (const path of [...ROOTS.flatMap((r) => [...walk(r)]), ...FILES].sort()) {
    const st = statSync(path);
    hash.update(`${path}\0${st.size}\0${st.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

const ifStale = process.argv.includes('--if-stale');
const current = fingerprint();
if (ifStale && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === current) process.exit(0);

const started = Date.now();
process.stderr.write(
  ifStale ? 'Sources changed since the last build: building (tsc) …\n' : 'Building (tsc) …\n',
);
// In place (a running test or service keeps finding its files), then the output of any source
// removed since the last build is deleted, so it cannot be imported by mistake.
try {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
} catch {
  process.exit(1);
}
for (const root of ROOTS) {
  if (!existsSync(join('dist', root))) continue;
  for (const out of walkOutputs(join('dist', root))) {
    const source = out.slice('dist/'.length).replace(/\.js(\.map)?$|\.d\.ts$/, '.ts');
    if (!existsSync(source)) rmSync(out);
  }
}
writeFileSync(STAMP, current);
process.stderr.write(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
