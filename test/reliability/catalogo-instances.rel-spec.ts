import pg from 'pg';
import request from 'supertest';
import { RunningSandbox, startSandbox } from '../../sandbox/server.js';
import { MEDICAMENTOS } from '../../sandbox/fixtures/medicamentos.js';
import { cliJson, runCli } from '../support/cli.js';
import { FreshDatabase, freshDatabase } from '../support/fresh-database.js';
import {
  cliClient,
  sandboxedEnv,
  ServiceProcess,
  startServiceProcess,
} from '../support/service-process.js';
import { sleep } from './support/raw-http.js';

/**
 * A catalogue sync run from the CLI (another process) clears every running instance's search
 * cache through PostgreSQL LISTEN/NOTIFY, so no instance keeps answering from the old mirror
 * for CATALOG_SEARCH_CACHE_SECONDS (60 s here, the default).
 */
describe('catalogue sync from the CLI reaches every instance', () => {
  let sandbox: RunningSandbox;
  const instances: ServiceProcess[] = [];
  let headers: Record<string, string>;
  const code = `09${String(Date.now()).slice(-5)}`;
  const name = `NOTIFICAMINA ${code}`;

  const sync = () =>
    runCli(['catalogo', 'sync', '--json'], {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      CATALOGO_BASE_URL: sandbox.url,
    });
  const search = async (p: ServiceProcess) =>
    (
      await request(p.url)
        .get('/v1/medicamentos/buscar')
        .query({ q: name.toLowerCase() })
        .set(headers)
        .expect(200)
    ).body.data.items.map((i: { code: string }) => i.code) as string[];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true });
    await sync(); // the mirror holds the sandbox's catalogue
    for (let i = 0; i < 2; i++)
      instances.push(await startServiceProcess(sandboxedEnv(sandbox.url)));
    headers = (await cliClient(`notify-${Date.now()}`)).headers;
  }, 120_000);
  afterAll(async () => {
    for (const p of instances) await p.stop();
    // Leave the mirror as the other suites expect it: the sandbox's own catalogue.
    await request(sandbox.url).post('/__sandbox/reset').expect(204);
    await sync().catch(() => undefined);
    await sandbox?.close();
  }, 120_000);

  /** Puts (or removes) the test item in the upstream catalogue, syncs from the CLI. */
  const changeAndSync = async (present: boolean) => {
    const template = MEDICAMENTOS.find((m) => m.ifa === 'ENALAPRIL');
    if (present)
      await request(sandbox.url)
        .put(`/__sandbox/catalogo/items/${code}`)
        .send({ ...template, codigo: code, nombre_comercial: name, ifa: 'NOTIFICAMINA' })
        .expect(201);
    else await request(sandbox.url).delete(`/__sandbox/catalogo/items/${code}`).expect(204);
    expect(JSON.parse((await sync()).stdout)).toMatchObject({
      outcome: 'success',
      inserted: present ? 1 : 0,
      deleted: present ? 0 : 1,
    });
  };
  /** Every instance's search shows `expected` within a second. */
  const expectEverywhereWithinASecond = async (expected: string[]) => {
    const synced = Date.now();
    for (const p of instances) {
      let found = await search(p);
      while (JSON.stringify(found) !== JSON.stringify(expected) && Date.now() - synced < 1000) {
        await sleep(50);
        found = await search(p);
      }
      expect(found).toEqual(expected);
    }
  };

  it('both instances search the new mirror within a second of the CLI sync', async () => {
    // Each instance answers from its cache from now on: "not found", cached for 60 s.
    for (const p of instances) expect(await search(p)).toEqual([]);
    await changeAndSync(true);
    await expectEverywhereWithinASecond([code]);
  });

  it('an instance whose listening connection was cut listens again', async () => {
    for (const p of instances) expect(await search(p)).toEqual([code]); // cached again
    const db = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await db.connect();
    try {
      const names = instances.map((p) => `catalogo-listener ${p.child.pid}`);
      const listeners = `SELECT pid FROM pg_stat_activity WHERE application_name = ANY($1)`;
      const cut = await db.query(`SELECT pg_terminate_backend(pid) FROM (${listeners}) l`, [names]);
      expect(cut.rowCount).toBe(2);
      // Both reconnect (backoff starts at 0.5 s) with new sessions.
      const before = new Set(cut.rows.map((r: { pid: number }) => r.pid));
      for (let i = 0; i < 100; i++) {
        const now = (await db.query(listeners, [names])).rows as Array<{ pid: number }>;
        if (now.length === 2 && now.every((r) => !before.has(r.pid))) break;
        await sleep(100);
      }
    } finally {
      await db.end();
    }
    await changeAndSync(false);
    await expectEverywhereWithinASecond([]);
  });
});

/**
 * Two instances cold-starting on an empty mirror: one takes the sync lock and loads it, the
 * other must not warn that the mirror is not loaded while that happens — it says, at info,
 * that another instance is loading it — and both search the mirror once it is loaded.
 */
describe('catalogue cold start with two instances', () => {
  let sandbox: RunningSandbox;
  let db: FreshDatabase;
  const instances: ServiceProcess[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true });
    // Its own database (migrated by the services themselves): an empty mirror.
    db = await freshDatabase('coldstart');
  });
  afterAll(async () => {
    for (const p of instances) await p.stop();
    await sandbox?.close();
    await db?.drop();
  }, 60_000);

  it('the instance that finds the sync locked logs info, not WARN, and both serve the loaded mirror', async () => {
    // Seven slow pages: the first instance holds the sync lock for about ten seconds.
    await request(sandbox.url)
      .post('/__sandbox/faults')
      .send({ service: 'catalogo', mode: 'slow', delay_ms: 1500 })
      .expect(200);
    const env = sandboxedEnv(sandbox.url, {
      DATABASE_URL: db.url,
      CATALOG_SYNC_ON_START: 'true',
      CATALOG_SYNC_PAGE_SIZE: '50',
      REGISTRY_TIMEOUT_MS: '10000',
      LOG_LEVEL: 'info',
    });
    const first = await startServiceProcess(env);
    instances.push(first);
    for (let i = 0; i < 100 && !first.output().includes('catalogue sync started'); i++)
      await sleep(100);
    expect(first.output()).toContain('catalogue sync started');
    const second = await startServiceProcess(env);
    instances.push(second);
    // The second finds the mirror empty and the lock taken, and says what it makes of it.
    const verdict = /another instance is loading|catalogue mirror not loaded/;
    for (let i = 0; i < 100 && !verdict.test(second.output()); i++) await sleep(100);
    expect(second.output()).toContain('catalogue sync skipped');
    const lines = second
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: string; msg: string });
    expect(lines.filter((l) => l.level === 'warn' || l.level === 'error')).toEqual([]);
    expect(lines.map((l) => `${l.level} ${l.msg}`)).toContain(
      'info another instance is loading the catalogue mirror',
    );

    await request(sandbox.url).delete('/__sandbox/faults').expect(204);
    for (let i = 0; i < 300 && !first.output().includes('catalogue sync finished'); i++)
      await sleep(100);
    const created = await cliJson<{ key: string; secret: string }>(
      ['clients', 'create', '--name', `coldstart-${Date.now()}`, '--scopes', 'all'],
      { DATABASE_URL: db.url },
    );
    const headers = { 'X-API-Key': created.key, 'X-API-Secret': created.secret };
    for (const p of instances) {
      const res = await request(p.url)
        .get('/v1/medicamentos/buscar')
        .query({ q: 'ibuprofeno' })
        .set(headers)
        .expect(200);
      expect(res.body.data.total).toBeGreaterThan(0);
    }
  }, 90_000);
});
