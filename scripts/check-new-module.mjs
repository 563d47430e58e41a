// `npm run check:new-module` (CI, after `npm run check`): the generator as a new team member uses
// it. A scratch copy of HEAD (git worktree, detached) gets `npm run new:module -- obras-sociales`;
// then the changed files must be exactly the module's folder, its test, one added line of
// src/slices.ts and the regenerated generated/openapi-metadata.ts (the DTOs' schemas); `npm run check` must
// pass there, and so must `npm test -- <its tests>` (the service's unit spec and the e2e test). The
// generated slice must read as docs/adding-a-module.md shows it. The copy is removed afterwards.
// It reuses this checkout's node_modules through a symlink inside the copy (never installed there).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const NAME = 'obras-sociales';
const root = resolve('.');
const scratch = mkdtempSync(join(tmpdir(), 'prs-new-module-'));
const copy = join(scratch, 'repo');

const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
const step = (title) => process.stdout.write(`== check:new-module: ${title}\n`);
const problems = [];

function run(title, command, args) {
  step(title);
  const r = spawnSync(command, args, { cwd: copy, stdio: 'inherit', env: process.env });
  if (r.status !== 0) problems.push(`${title}: failed (exit ${r.status ?? r.signal})`);
  return r.status === 0;
}

try {
  step(`a scratch copy of HEAD in ${copy}`);
  git('worktree', 'add', '--detach', '--quiet', copy, 'HEAD');
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');

  if (run(`npm run new:module -- ${NAME}`, 'npm', ['run', '--silent', 'new:module', '--', NAME])) {
    // The symlink is the only untracked thing the copy started with.
    const status = execFileSync(
      'git',
      ['status', '--porcelain', '--untracked-files=all', '--', '.', ':!node_modules'],
      { cwd: copy, encoding: 'utf8' },
    )
      .split('\n')
      .filter(Boolean);
    const outside = status.filter(
      (l) =>
        !l.slice(3).startsWith(`src/${NAME}/`) &&
        l.slice(3) !== `test/${NAME}.e2e-spec.ts` &&
        l !== ' M src/slices.ts' &&
        l !== ' M generated/openapi-metadata.ts',
    );
    if (outside.length > 0) problems.push(`changed outside the module: ${outside.join(', ')}`);
    const diff = execFileSync('git', ['diff', '--numstat', '--', 'src/slices.ts'], {
      cwd: copy,
      encoding: 'utf8',
    }).trim();
    if (diff !== '1\t0\tsrc/slices.ts')
      problems.push(`src/slices.ts: expected one added line, got "${diff}"`);
    step(`changed: ${status.map((l) => l.slice(3)).join(', ')}`);

    const guide = readFileSync(join(copy, 'docs/adding-a-module.md'), 'utf8');
    const shown =
      /<!-- generated: src\/obras-sociales\/obras-sociales\.slice\.ts -->\s*```ts\n([\s\S]*?)```/.exec(
        guide,
      )?.[1];
    const slice = readFileSync(join(copy, `src/${NAME}/${NAME}.slice.ts`), 'utf8').replace(
      /\d{13}/g,
      '<epoch>',
    );
    if (shown === undefined) problems.push('docs/adding-a-module.md: no generated slice shown');
    else if (shown !== slice)
      problems.push(
        'docs/adding-a-module.md shows another slice than the generator writes (epochs as <epoch>)',
      );

    run('npm run check', 'npm', ['run', '--silent', 'check']);
    const tests = [`src/${NAME}/${NAME}.service.spec.ts`, `test/${NAME}.e2e-spec.ts`];
    run(`npm test -- ${tests.join(' ')}`, 'npm', ['test', '--silent', '--', ...tests]);
  }
} finally {
  try {
    git('worktree', 'remove', '--force', copy);
  } catch {
    /* removed below either way */
  }
  rmSync(scratch, { recursive: true, force: true });
  git('worktree', 'prune');
}

if (problems.length > 0) {
  process.stderr.write(`check:new-module:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
  process.exit(1);
}
step(`${NAME} generated, checked and tested in a scratch copy: passed`);
