import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { ROOT_FALLBACK_DIR } from '../src/database/embedded/server-user.js';

interface Listed {
  carpeta: string;
  checkout: string | null;
  huerfano: boolean;
  en_uso: boolean;
  bytes: number;
}

/**
 * As root, a checkout in a folder the `postgres` user cannot enter keeps its cluster under
 * /var/lib/prescription-registry/<checkout>-<id>/, outside the checkout: deleting the checkout
 * leaves it there. `npm run cli -- clusters listar` names each such cluster's checkout and
 * whether it still exists; `clusters borrar-huerfanos` removes those whose checkout is gone.
 */
const asRoot = process.getuid?.() === 0 && process.platform === 'linux';
(asRoot ? describe : describe.skip)('relocated clusters whose checkout is gone (as root)', () => {
  const cliPath = resolve('dist/src/cli/main.js');
  // mkdtemp makes the folder 700: closed to `postgres`, so the cluster is relocated.
  const closed = mkdtempSync(join(tmpdir(), 'prs-orphan-e2e-'));
  const checkout = join(closed, `checkout-${process.pid}-${Date.now()}`);
  mkdirSync(checkout);
  let folder: string | undefined;

  afterAll(() => {
    rmSync(closed, { recursive: true, force: true });
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const cli = (cwd: string, ...args: string[]) => {
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent' };
    delete env.DATABASE_URL;
    delete env.EMBEDDED_DB_DIR;
    return spawnSync(process.execPath, [cliPath, ...args], { cwd, env, encoding: 'utf8' });
  };
  const listed = (): Listed | undefined => {
    const run = cli(process.cwd(), 'clusters', 'listar', '--json');
    expect(run.status).toBe(0);
    return (JSON.parse(run.stdout) as { clusters: Listed[] }).clusters.find(
      (c) => c.carpeta === folder,
    );
  };

  it('a checkout the postgres user cannot enter gets its cluster relocated, listed with its checkout', () => {
    const run = cli(checkout, 'clients', 'list', '--json');
    expect(run.status).toBe(0);
    const name = readdirSync(ROOT_FALLBACK_DIR).find((n) => n.startsWith(`${basename(checkout)}-`));
    expect(name).toBeDefined();
    folder = join(ROOT_FALLBACK_DIR, name as string);
    expect(listed()).toMatchObject({ checkout, huerfano: false, en_uso: false });
    expect(listed()?.bytes).toBeGreaterThan(1_000_000);
  }, 120_000);

  it('is an orphan once the checkout is deleted, and borrar-huerfanos removes it', () => {
    rmSync(checkout, { recursive: true, force: true });
    expect(listed()).toMatchObject({ checkout, huerfano: true, en_uso: false });
    const run = cli(process.cwd(), 'clusters', 'borrar-huerfanos', folder as string, '--json');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ borrados: [folder] });
    expect(existsSync(folder as string)).toBe(false);
    expect(listed()).toBeUndefined();
  });
});
