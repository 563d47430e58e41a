import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { CUIL, sandboxCitizenToken } from './support/citizen-tokens.js';
import { createClient } from './support/clients.js';
import { startTestApp, TestApp } from './support/test-app.js';

const run = promisify(execFile);
const examples = resolve('examples');
const bin = (pkg: string, file: string) => join(examples, 'node_modules', pkg, file);
const installed = existsSync(bin('openapi-typescript', 'package.json'));

/**
 * examples/integrator.ts against a test instance: types generated from the instance's served
 * document with openapi-typescript (examples/generate.mjs: binary answers typed Blob), the
 * script type-checked and compiled by the examples' own TypeScript 5, then run with a client of
 * the instance and a citizen's token from the sandbox. Needs `npm ci --prefix examples` (done
 * by .ci/run); skipped without it, except under CI where that is a failure.
 */
(installed || process.env.CI ? describe : describe.skip)('examples/integrator.ts', () => {
  let t: TestApp;

  beforeAll(async () => {
    if (!installed) throw new Error('examples/ is not installed: run `npm ci --prefix examples`');
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('generates its client from /openapi.json, type-checks, and runs CUIR → register → track → verify → PDF → the patient and their PDF', async () => {
    await request(t.url).get('/openapi.json').expect(200);
    // As on a fresh clone: the git-ignored folders do not exist yet, and the README's commands
    // (`npm run generate`, `npm run build`) are what runs.
    rmSync(join(examples, 'generated'), { recursive: true, force: true });
    rmSync(join(examples, 'dist'), { recursive: true, force: true });
    const opts = { cwd: examples, timeout: 60_000 };
    await run('npm', ['run', 'generate'], {
      ...opts,
      env: { ...process.env, OPENAPI_URL: `${t.url}/openapi.json` },
    });
    // tsc fails (non-zero exit, rejecting) on any type error against the generated client.
    await run('npm', ['run', 'build'], opts);

    const client = await createClient(t, {
      scopes: ['cuir:write', 'recetas:write', 'recetas:read', 'recetas:verify'],
    });
    const { stdout } = await run(process.execPath, ['dist/integrator.js'], {
      ...opts,
      env: {
        ...process.env,
        PRS_BASE_URL: t.url,
        PRS_API_KEY: client.key,
        PRS_API_SECRET: client.secret,
        // The patient of the script's prescription (its default document, 30111222).
        PRS_CITIZEN_TOKEN: await sandboxCitizenToken(t.sandboxUrl as string, CUIL),
      },
    });
    expect(stdout).toMatch(/^CUIR \d{41} /m);
    expect(stdout).toMatch(/^registered: transaction \d+, PENDING$/m);
    expect(stdout).toMatch(/^transaction COMPLETED after \d+ attempt/m);
    expect(stdout).toMatch(/^verified \d{41}: COMPLETED, 1 item\(s\), sha256 [0-9a-f]{64}$/m);
    expect(stdout).toMatch(/^document: \d+ bytes of application\/pdf$/m);
    expect(stdout).toMatch(/^patient sees \d{41}: VIGENTE until \d{4}-\d{2}-\d{2}, 1 item\(s\)$/m);
    expect(stdout).toMatch(/^patient document: \d+ bytes of application\/pdf$/m);
  }, 120_000);
});
