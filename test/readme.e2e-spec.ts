import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parentDeathWrapper } from '../src/database/embedded/postgres-binaries.js';
import { withRoles } from './support/database-roles.js';
import { type FreshDatabase, freshDatabase } from './support/fresh-database.js';
import { shellBlocks } from './support/readme/markdown-blocks.js';
import { answerProblems, prelude, readmeScript } from './support/readme/readme-script.js';
import { bodyMismatches, mismatches, parseShownAnswer } from './support/readme/shown-answer.js';

/**
 * The README's commands, run as a newcomer runs them: every ```sh block under these headings
 * (in README.md or any docs/*.md page they moved to) is run in the order of HEADINGS, by one
 * bash session, against a service of the test's own (its own database and ports), and every
 * answer the text shows under a command (`#  → …`) must be what that command got. A block that
 * cannot run here (it needs Docker or a third party's real system) says so on the line before
 * its fence: `<!-- not run: needs Docker -->`.
 */
const FILES = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
const HEADINGS = [
  'Two commands',
  'Credentials tool',
  'Walk-through',
  'For dispensing systems',
  'For the health authority',
  'For the patient',
  // 'Webhooks, tried against the sandbox',
];
/** The ports the README's commands name: the service's and the sandbox's defaults. */
const README_PORTS = { service: 3000, sandbox: 4010 };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runBash(script: string, cwd: string, env: Record<string, string>): Promise<Run> {
  const [command, ...args] = [...parentDeathWrapper('SIGKILL'), 'bash', script];
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((done) => child.on('exit', (code) => done({ code, stdout, stderr })));
}

describe('README: its commands run as written and answer what it shows', () => {
  let db: FreshDatabase;
  let dir: string;

  beforeAll(async () => {
    db = await freshDatabase('readme');
    dir = mkdtempSync(join(tmpdir(), 'prs-readme-'));
  });
  afterAll(async () => {
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('reads the answers it shows as a loose JSON, "…" standing for any value', () => {
    const shown = parseShownAnswer(
      '201 {"cuir":"0001…01", estado: "PENDING", id_de_receta: null, items: [{item: 1, …}], motivo, …} then prose',
    );
    expect(shown.status).toBe(201);
    const body = shown.body as NonNullable<typeof shown.body>;
    const answer = {
      cuir: '000100099901',
      estado: 'PENDING',
      id_de_receta: null,
      items: [{ item: 1, nombre: 'x' }],
      motivo: 'y',
      other: true,
    };
    expect(bodyMismatches(body, { success: true, data: answer })).toEqual([]);
    const { motivo: _, ...withoutMotivo } = answer;
    expect(mismatches(body, withoutMotivo)).toEqual(['$.motivo: missing']);
    expect(mismatches(body, { ...answer, items: [] })).toEqual([
      '$.items: shown 1 elements, got 0',
      '$.items[0]: missing',
    ]);
    expect(mismatches(body, { ...answer, cuir: '0002' })).toEqual([
      '$.cuir: shown "0001…01", got "0002"',
    ]);
    expect(parseShownAnswer('200 receta.pdf: one page').body).toBeUndefined();
    expect(() => parseShownAnswer('estado COMPLETED')).toThrow(/starts with a status/);
  });

  it('finds blocks by their heading in whichever file holds it, and skips only marked ones', () => {
    const a = join(dir, 'a.md');
    const b = join(dir, 'b.md');
    writeFileSync(
      a,
      '# Title\n\n## Start\n\n```sh\necho one\n```\n\n## Other\n\n```sh\necho no\n```\n',
    );
    writeFileSync(
      b,
      [
        '# Moved',
        '',
        '### Walk',
        '',
        '```sh',
        '# ## not a heading',
        'echo two',
        '```',
        '',
        '<!-- not run: needs Docker -->',
        '',
        '```sh',
        'docker compose up',
        '```',
        '',
        '#### Inside',
        '',
        '```bash',
        'echo three',
        '```',
        '',
        '### Next',
        '',
        '```sh',
        'echo no',
        '```',
        '',
      ].join('\n'),
    );
    const blocks = shellBlocks([a, b], ['Start', 'Walk']);
    expect(blocks.map((x) => [x.heading, x.lines.join(';'), x.notRun ?? null])).toEqual([
      ['Start', 'echo one', null],
      ['Walk', '# ## not a heading;echo two', null],
      ['Walk', 'docker compose up', 'needs Docker'],
      ['Walk', 'echo three', null],
    ]);
    expect(blocks[1].line).toBe(6);
    // The headings' order, not the files': a section moved to a later page still runs first.
    expect(shellBlocks([b, a], ['Start', 'Walk']).map((x) => x.heading)).toEqual([
      'Start',
      'Walk',
      'Walk',
      'Walk',
    ]);
    expect(() => shellBlocks([a, b], ['Start', 'Gone'])).toThrow(/"Gone" found 0 times/);
    expect(() => shellBlocks([a, a], ['Start'])).toThrow(/"Start" found 2 times/);
  });

  it('runs the start, the credentials tool, the walk-through, the pharmacy, the authority, the patient and webhooks in order', async () => {
    const ports = { service: await freePort(), sandbox: await freePort() };
    const blocks = shellBlocks(FILES, HEADINGS);
    const run = blocks.filter((b) => !b.notRun);
    const script = readmeScript(run, (s) =>
      s.replace(
        new RegExp(
          `\\b(localhost|127\\.0\\.0\\.1):(${README_PORTS.service}|${README_PORTS.sandbox})\\b`,
          'g',
        ),
        (_m, host: string, p: string) =>
          `${host}:${Number(p) === README_PORTS.service ? ports.service : ports.sandbox}`,
      ),
    );
    expect(script.placeholders.sort()).toEqual(['KEY', 'SECRET']);
    const records = join(dir, 'records');
    const scratch = join(dir, 'cwd');
    for (const d of [records, scratch]) mkdirSync(d, { recursive: true });
    const file = join(dir, 'readme.sh');
    writeFileSync(
      file,
      `${prelude({ repo: resolve('.'), records, deathWrapper: parentDeathWrapper('SIGKILL') })}\n${script.body}\n`,
    );

    const result = await runBash(
      file,
      scratch,
      withRoles({
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        LANG: 'C.UTF-8',
        LC_ALL: 'C.UTF-8',
        // `npm start` as a newcomer's, on the test's database and ports: one worker (the
        // machine's CPUs are the test run's), the sandbox in the service (no registry URL set).
        NODE_ENV: 'development',
        DATABASE_URL: db.url,
        DATABASE_POOL_SIZE: '5',
        HOST: '127.0.0.1',
        PORT: String(ports.service),
        SANDBOX_PORT: String(ports.sandbox),
        DEMO_CLIENT: 'true',
        WEB_CONCURRENCY: '1',
        LOG_LEVEL: 'warn',
      }),
    );

    const problems: string[] = [];
    if (result.code !== 0)
      problems.push(`the script stopped (exit ${result.code}):\n${result.stderr.slice(-4000)}`);
    problems.push(...answerProblems(records, script.answers));
    if (problems.length > 0) {
      const logs = readdirSync(records)
        .filter((f) => /^service\.\d+\.log$/.test(f))
        .map((f) => `${f}:\n${readFileSync(join(records, f), 'utf8').slice(-3000)}`);
      throw new Error(`${problems.join('\n\n')}\n\n--- service output ---\n${logs.join('\n')}`);
    }
  }, 240_000);
});
