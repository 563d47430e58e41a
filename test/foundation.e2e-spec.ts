import { spawnSync } from 'node:child_process';
import request from 'supertest';
import { MetricsService } from '../src/common/metrics/metrics.service.js';
import { createClient } from './support/clients.js';
import { startTestApp, TestApp } from './support/test-app.js';

describe('foundation: wire conventions, health, docs, logs', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.stop();
  });

  const expectEnvelope = (body: Record<string, unknown>, code: string) => {
    expect(body).toMatchObject({ success: false, error: { code } });
    expect(typeof (body.error as { message: unknown }).message).toBe('string');
    expect(typeof body.request_id).toBe('string');
  };

  it('serves liveness and readiness', async () => {
    await request(t.url).get('/health/live').expect(200, { status: 'ok' });
    const ready = await request(t.url).get('/health/ready').expect(200);
    expect(ready.body.status).toBe('ok');
    expect(ready.body.info.database.status).toBe('up');
  });

  it("keeps idle connections open longer than a load balancer would (65 s, not Node's 5 s)", async () => {
    const res = await fetch(`${t.url}/health/live`);
    await res.arrayBuffer();
    expect(res.headers.get('keep-alive')).toBe('timeout=65');
  });

  it('answers an unknown /v1 route with the 404 envelope and a request id', async () => {
    const res = await request(t.url).get('/v1/does-not-exist').expect(404);
    expectEnvelope(res.body, 'NOT_FOUND');
    expect(res.headers['x-request-id']).toBe(res.body.request_id);
  });

  it('echoes a sane X-Request-Id and replaces an insane one', async () => {
    const echoed = await request(t.url).get('/nope').set('X-Request-Id', 'abc-123.X_y:z');
    expect(echoed.headers['x-request-id']).toBe('abc-123.X_y:z');
    expect(echoed.body.request_id).toBe('abc-123.X_y:z');
    const replaced = await request(t.url).get('/nope').set('X-Request-Id', 'bad id <script>');
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // The access log carries the echoed id and the service's own (the event log's) beside it.
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const line = t.logs.find((l) => l.request_id === 'abc-123.X_y:z');
    expect(line?.service_request_id).toMatch(uuid);
    const minted = t.logs.find((l) => l.request_id === replaced.headers['x-request-id']);
    expect(minted?.service_request_id).toBe(replaced.headers['x-request-id']);
  });

  it('answers a known path with another method with 405 and Allow', async () => {
    const res = await request(t.url).delete('/health/ready').expect(405);
    expectEnvelope(res.body, 'METHOD_NOT_ALLOWED');
    expect(res.headers.allow).toContain('GET');
  });

  it("a literal path's Allow names its own methods, not those of a parameter route beside it", async () => {
    // /v1/recetas/{id_transaccion} answers GET, but `registrar` is no id: GET there is a 404.
    const res = await request(t.url).put('/v1/recetas/registrar').expect(405);
    expect(res.headers.allow).toBe('POST');
    const c = await createClient(t);
    await request(t.url).get('/v1/recetas/registrar').set(c.headers).expect(404);
    const reservas = await request(t.url).put('/v1/dispensas/reservas').expect(405);
    expect(reservas.headers.allow).toBe('POST');
    // An id keeps its route's methods.
    expect((await request(t.url).put('/v1/recetas/1042').expect(405)).headers.allow).toBe('GET');
  });

  it('refuses malformed JSON with 400 MALFORMED_JSON', async () => {
    const res = await request(t.url)
      .post('/v1/anything')
      .set('Content-Type', 'application/json')
      .send('{"a": ')
      .expect(400);
    expectEnvelope(res.body, 'MALFORMED_JSON');
  });

  it('refuses a text/plain POST with 415', async () => {
    const res = await request(t.url)
      .post('/v1/anything')
      .set('Content-Type', 'text/plain')
      .send('hello')
      .expect(415);
    expectEnvelope(res.body, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses a POST without any content type with 415', async () => {
    const res = await request(t.url).post('/v1/anything').expect(415);
    expectEnvelope(res.body, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses a 300 kB body with 413', async () => {
    const big = JSON.stringify({ blob: 'x'.repeat(300 * 1024) });
    const res = await request(t.url)
      .post('/v1/anything')
      .set('Content-Type', 'application/json')
      .send(big)
      .expect(413);
    expectEnvelope(res.body, 'PAYLOAD_TOO_LARGE');
  });

  it('answers an unexpected error with 500 INTERNAL and no internals', async () => {
    const metrics = t.app.get(MetricsService);
    const original = metrics.registry.metrics.bind(metrics.registry);
    metrics.registry.metrics = () => {
      throw new Error('boom: SELECT secret FROM somewhere');
    };
    try {
      const res = await request(t.url).get('/metrics').expect(500);
      expectEnvelope(res.body, 'INTERNAL');
      const text = JSON.stringify(res.body);
      expect(text).not.toContain('boom');
      expect(text).not.toContain('SELECT');
      expect(text).not.toMatch(/at .*\.(ts|js):\d+/);
    } finally {
      metrics.registry.metrics = original;
    }
  });

  it('serves the OpenAPI document and the docs page', async () => {
    const doc = await request(t.url).get('/openapi.json').expect(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(doc.body.components.securitySchemes).toMatchObject({
      ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      ApiSecret: { type: 'apiKey', in: 'header', name: 'X-API-Secret' },
    });
    expect(doc.body.components.schemas.ErrorEnvelopeDto).toBeDefined();
    const page = await request(t.url).get('/docs').redirects(1).expect(200);
    expect(page.text).toContain('swagger-ui');
  });

  it('exposes Prometheus metrics with the HTTP latency histogram', async () => {
    await request(t.url).get('/health/live');
    const res = await request(t.url).get('/metrics').expect(200);
    expect(res.text).toContain('http_request_duration_seconds_bucket');
    expect(res.text).toMatch(/route="\/health\/live"/);
    expect(res.text).toContain('process_resident_memory_bytes');
  });

  it('logs requests without document numbers or the secret header', async () => {
    await request(t.url)
      .post('/v1/anything?documento=30111222')
      .set('Content-Type', 'application/json')
      .set('X-API-Key', 'rk_test')
      .set('X-API-Secret', 'rs_supersecretvalue')
      .send({ documento: '30111222', nombre: 'Ana María' });
    const raw = t.rawLogs();
    expect(raw).toContain('/v1/anything');
    expect(raw).not.toContain('30111222');
    expect(raw).not.toContain('rs_supersecretvalue');
    expect(raw).not.toContain('Ana María');
    const line = t.logs.find((l) => String(l.url).startsWith('/v1/anything?documento='));
    expect(line).toMatchObject({ status: 404, method: 'POST' });
    expect(typeof line?.latency_ms).toBe('number');
    expect(typeof line?.request_id).toBe('string');
  });

  it('keeps the schema to the migrations (no sync): the migrations table lists them', async () => {
    const ds = t.app.get((await import('typeorm')).DataSource);
    const rows: Array<{ name: string }> = await ds.query('SELECT name FROM schema_migrations');
    expect(rows.map((r) => r.name)).toContain('Extensions1763800000000');
  });
});

describe('configuration', () => {
  it('refuses to start with a bad setting: clear message naming it, non-zero exit', () => {
    const run = spawnSync(process.execPath, ['dist/src/main.js'], {
      encoding: 'utf8',
      env: { ...process.env, PORT: 'abc', DATABASE_URL: '', LOG_LEVEL: 'silent' },
      timeout: 20000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Invalid configuration');
    expect(run.stderr).toMatch(/PORT: .*integer/);
  });
});
