import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep } from './support/raw-http.js';

/**
 * An operator stops `npm start` (or `npm run sandbox`) by the process id they see, npm's: every
 * process of that run goes, node and its embedded PostgreSQL included. Found when node, run by
 * npm's `sh -c`, was re-parented to PID 1 and kept serving (with its PostgreSQL) after npm and
 * the shell had ended.
 */
const SHUTDOWN_GRACE_MS = 5_000;

/** Every process whose command line or environment names `marker`, npm's own included. */
function processesOf(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    for (const file of ['cmdline', 'environ']) {
      try {
        if (readFileSync(`/proc/${entry}/${file}`, 'latin1').includes(marker)) {
          found.push(Number(entry));
          break;
        }
      } catch {
        // Gone meanwhile, or not ours to read.
      }
    }
  }
  return found;
}

async function untilNoneLeft(marker: string, ms: number): Promise<number[]> {
  const end = Date.now() + ms;
  for (;;) {
    const left = processesOf(marker);
    if (left.length === 0 || Date.now() > end) return left;
    await sleep(200);
  }
}

const describeLinux = process.platform === 'linux' ? describe : describe.skip;

describeLinux('stopping an npm script by npm’s process id', () => {
  const root = mkdtempSync(join(tmpdir(), 'prs-npm-stop-'));
  chmodSync(root, 0o755); // as root the server runs as "postgres", which must get through
  const started: ChildProcess[] = [];

  afterAll(() => {
    // Whatever a failed run left, by process id: only processes carrying this run's folder.
    for (const pid of processesOf(root)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    for (const child of started) child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  async function run(
    script: string[],
    name: string,
    ready: RegExp,
  ): Promise<{ npm: ChildProcess; url: string; marker: string; output: () => string }> {
    const marker = join(root, name);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'development',
      EMBEDDED_DB_DIR: join(marker, 'postgres'),
      HOST: '127.0.0.1',
      PORT: '0',
      SANDBOX_PORT: '0',
      LOG_LEVEL: 'warn',
      CATALOG_SYNC_ON_START: 'false',
      SHUTDOWN_GRACE_MS: String(SHUTDOWN_GRACE_MS),
    };
    delete env.DATABASE_URL;
    const npm = spawn('npm', script, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    started.push(npm);
    let out = '';
    npm.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    npm.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    for (const end = Date.now() + 90_000; !ready.test(out); await sleep(50)) {
      if (npm.exitCode !== null || Date.now() > end)
        throw new Error(`npm ${script.join(' ')} did not start:\n${out}`);
    }
    return { npm, url: ready.exec(out)![1], marker, output: () => out };
  }

  async function stopByNpmPid(npm: ChildProcess): Promise<void> {
    const exited = new Promise((r) => npm.once('exit', r));
    npm.kill('SIGTERM');
    await exited;
  }

  it('npm start: SIGTERM to npm stops node and its embedded PostgreSQL', async () => {
    const s = await run(['start'], 'start', /listening on (http:\/\/\S+)/);
    for (let i = 0; (await fetch(`${s.url}/health/ready`)).status !== 200; i++) {
      if (i > 100) throw new Error(`never ready:\n${s.output()}`);
      await sleep(100);
    }
    // node and the PostgreSQL server (its postmaster at least) besides npm itself.
    expect(processesOf(s.marker).length).toBeGreaterThanOrEqual(3);
    await stopByNpmPid(s.npm);
    expect(await untilNoneLeft(s.marker, SHUTDOWN_GRACE_MS + 10_000)).toEqual([]);
    await expect(fetch(`${s.url}/health/live`)).rejects.toThrow();
  }, 150_000);

  it('npm run sandbox: SIGTERM to npm stops the sandbox', async () => {
    const s = await run(['run', 'sandbox'], 'sandbox', /Sandbox listening on (http:\/\/\S+)/);
    expect((await fetch(`${s.url}/__sandbox/mi-argentina/jwks.json`)).status).toBe(200);
    await stopByNpmPid(s.npm);
    expect(await untilNoneLeft(s.marker, SHUTDOWN_GRACE_MS + 10_000)).toEqual([]);
    await expect(fetch(`${s.url}/__sandbox/mi-argentina/jwks.json`)).rejects.toThrow();
  }, 150_000);
});
