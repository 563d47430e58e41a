import request from 'supertest';
import { createClient, TestClient } from './support/clients.js';
import { sandboxControl } from './support/sandbox-control.js';
import { startTestApp, TestApp } from './support/test-app.js';

/** REFEPS failing: timeouts, the breaker, stale hits, refused credentials. */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function verifier(app: () => { t: TestApp; client: TestClient }) {
  return (documento: string) =>
    request(app().t.url)
      .post('/v1/profesional/verificar')
      .set(app().client.headers)
      .send({ documento });
}

describe('POST /v1/profesional/verificar with REFEPS timing out', () => {
  let t: TestApp;
  let client: TestClient;
  const sandbox = sandboxControl(() => t);
  const verify = verifier(() => ({ t, client }));
  const TIMEOUT_MS = 300;
  const ATTEMPTS = 2;

  beforeAll(async () => {
    t = await startTestApp({
      REGISTRY_TIMEOUT_MS: String(TIMEOUT_MS),
      REGISTRY_MAX_ATTEMPTS: String(ATTEMPTS),
      REGISTRY_BREAKER_THRESHOLD: '2',
      REGISTRY_BREAKER_HALF_OPEN_MS: '60000',
    });
    client = await createClient(t, { scopes: ['profesional:read', 'persona:read'] });
  });
  afterEach(async () => {
    await sandbox.clearFaults();
  });
  afterAll(async () => {
    await t.stop();
  });

  const timed = async (documento: string) => {
    const started = Date.now();
    const res = await verify(documento);
    return { res, ms: Date.now() - started };
  };

  it('answers 500 UPSTREAM_UNAVAILABLE within timeout × attempts + 1 s, then fails fast once the breaker opens', async () => {
    const ready = await request(t.url).get('/health/ready').expect(200);
    expect(ready.body.info.registries).toMatchObject({ status: 'up', refeps: 'closed' });

    await sandbox.fault('refeps', 'timeout');
    const first = await timed('25111222');
    expect(first.res.status).toBe(500);
    expect(first.res.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(first.ms).toBeGreaterThanOrEqual(TIMEOUT_MS);
    expect(first.ms).toBeLessThan(TIMEOUT_MS * ATTEMPTS + 1000);

    const second = await timed('27333444'); // the second failed call opens the breaker
    expect(second.res.status).toBe(500);

    const callsBefore = await sandbox.calls('refeps');
    const latencies: number[] = [];
    for (const documento of ['28444555', '20777888', '23555666', '31666777', '12345678']) {
      const later = await timed(documento);
      expect(later.res.status).toBe(500);
      expect(later.res.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
      latencies.push(later.ms);
    }
    expect(await sandbox.calls('refeps')).toBe(callsBefore); // fail fast: REFEPS is not even called
    // Well under one attempt's timeout, judged on the median so that a GC pause or a busy
    // 2-core box does not flake the test (the call count above is the behaviour; this is its
    // consequence, not a speed target).
    const median = [...latencies].sort((a, b) => a - b)[2];
    expect({ latencies, median: median < TIMEOUT_MS / 2 }).toEqual({ latencies, median: true });
    expect(Math.max(...latencies)).toBeLessThan(TIMEOUT_MS);

    // Readiness reports the open breaker but stays ready.
    const stillReady = await request(t.url).get('/health/ready').expect(200);
    expect(stillReady.body.status).toBe('ok');
    expect(stillReady.body.info.registries.refeps).toBe('open');
    expect(stillReady.body.info.registries.renaper).toBe('closed');

    // The other registry has its own breaker: persona keeps answering.
    const persona = await request(t.url)
      .post('/v1/persona/verificar')
      .set(client.headers)
      .send({ documento: '30111222' })
      .expect(200);
    expect(persona.body.data.apellido).toBe('FERNÁNDEZ');
  });
});

describe('POST /v1/profesional/verificar serving stale while REFEPS is down', () => {
  let t: TestApp;
  let client: TestClient;
  const sandbox = sandboxControl(() => t);
  const verify = verifier(() => ({ t, client }));

  beforeAll(async () => {
    t = await startTestApp({
      REGISTRY_CACHE_TTL_SECONDS: '1',
      REGISTRY_NEGATIVE_CACHE_TTL_SECONDS: '1',
    });
    client = await createClient(t, { scopes: ['profesional:read'] });
  });
  afterEach(async () => {
    await sandbox.clearFaults();
  });
  afterAll(async () => {
    await t.stop();
  });

  it('serves the expired hit when the reload fails; an uncached document gets 500', async () => {
    const fresh = await verify('25111222').expect(200);
    await sleep(1100); // past the 1 s lifetime
    await sandbox.fault('refeps', 'error');
    const before = await sandbox.calls('refeps');
    const stale = await verify('25111222').expect(200);
    expect(stale.body.data).toEqual(fresh.body.data);
    expect(await sandbox.calls('refeps')).toBeGreaterThan(before); // the registry was tried first
    expect(
      t.logs.some((l) => l.msg === 'registry unavailable: serving a stale professional record'),
    ).toBe(true);

    const uncached = await verify('27333444').expect(500);
    expect(uncached.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
  });

  it('does not serve a cached miss stale: it is asked again once expired', async () => {
    await verify('99999999').expect(404);
    await sleep(1100);
    await sandbox.fault('refeps', 'error');
    await verify('99999999').expect(500);
  });
});

describe('POST /v1/profesional/verificar with wrong SISA credentials', () => {
  let t: TestApp;
  let client: TestClient;
  const WRONG = 'clave-equivocada-xyz';
  const verify = verifier(() => ({ t, client }));

  beforeAll(async () => {
    t = await startTestApp({ SISA_CLAVE: WRONG });
    client = await createClient(t, { scopes: ['profesional:read'] });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('answers 500 UPSTREAM_UNAVAILABLE, logs ERROR_AUTENTICACION and never the credential', async () => {
    const res = await verify('25111222').expect(500);
    expect(res.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(t.logs.some((l) => l.upstream_code === 'ERROR_AUTENTICACION')).toBe(true);
    expect(t.rawLogs()).not.toContain(WRONG);
  });
});
