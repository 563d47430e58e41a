import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Build } from './bench.js';

const run = promisify(execFile);
const MARKER = '.bench-ab-built';

/**
 * The service of another commit (--ab=<ref>), built in a git worktree of its own under
 * `abRoot/<sha>` (`git worktree add --detach`, `npm ci`, `npm run build`), reused while its
 * marker names that commit. Nothing in the current tree changes; `git worktree remove <dir>`
 * (or deleting the folder and `git worktree prune`) removes it.
 */
export async function prepareAbBuild(
  root: string,
  ref: string,
  abRoot: string,
  log: (msg: string) => void,
): Promise<Build> {
  const git = (...args: string[]) => run('git', args, { cwd: root, maxBuffer: 16 << 20 });
  const sha = (await git('rev-parse', '--verify', `${ref}^{commit}`)).stdout.trim();
  const short = sha.slice(0, 7);
  const label = ref.startsWith(short) || short.startsWith(ref) ? short : `${ref}=${short}`;
  const dir = join(abRoot, sha.slice(0, 12));
  const marker = join(dir, MARKER);
  const built =
    existsSync(marker) &&
    readFileSync(marker, 'utf8').trim() === sha &&
    existsSync(join(dir, 'dist', 'src', 'main.js'));
  if (built) {
    log(`A/B: reusing the build of ${label} in ${dir}`);
    return { label, root: dir, sha };
  }
  if (existsSync(dir)) {
    await git('worktree', 'remove', '--force', dir).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
  await git('worktree', 'prune');
  mkdirSync(abRoot, { recursive: true });
  log(`A/B: git worktree add --detach ${dir} ${short}`);
  await git('worktree', 'add', '--detach', dir, sha);
  const npm = (...args: string[]) =>
    run('npm', args, { cwd: dir, timeout: 1_200_000, maxBuffer: 64 << 20 });
  log(`A/B: npm ci in ${dir} (its own lockfile; its prepare script builds)`);
  await npm('ci', '--no-audit', '--no-fund');
  log(`A/B: npm run build in ${dir}`);
  await npm('run', 'build');
  if (!existsSync(join(dir, 'dist', 'src', 'main.js')))
    throw new Error(`A/B: ${label} built no dist/src/main.js in ${dir}`);
  writeFileSync(marker, `${sha}\n`);
  return { label, root: dir, sha };
}
