import request from 'supertest';
import { cliJson } from './support/cli.js';
import { createClient, TestClient } from './support/clients.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * Contract §2: a client may hold two valid secrets during a rotation. The secret `clients rotate`
 * prints must work on the very next request, although the running service holds the client's
 * row in its credential cache (here for a minute, so any wait would show).
 */
describe('secret rotation through the credentials tool, against a running service', () => {
  let t: TestApp;
  let c: TestClient;

  beforeAll(async () => {
    t = await startTestApp({ AUTH_CACHE_TTL_MS: '60000' });
    c = await createClient(t, { scopes: ['recetas:read'] });
  });
  afterAll(async () => {
    await t.stop();
  });

  const list = (key: string, secret: string) =>
    request(t.url)
      .get('/v1/recetas/listar')
      .query({ fecha_desde: '2026-01-01T00:00:00Z', fecha_hasta: '2026-01-02T00:00:00Z' })
      .set({ 'X-API-Key': key, 'X-API-Secret': secret });

  it('the rotated secret works at once, and the old one until the rotation is finished', async () => {
    await list(c.key, c.secret).expect(200); // the client's row is now cached
    const rotated = await cliJson<{ key: string; secret: string }>(['clients', 'rotate', c.key]);
    expect(rotated.key).toBe(c.key);
    await list(c.key, rotated.secret).expect(200);
    await list(c.key, c.secret).expect(200);
    // Still one answer for a wrong secret, and no lockout of the client by the refreshes.
    const wrong = await list(c.key, `rs_${'x'.repeat(43)}`).expect(401);
    expect(wrong.body.error.code).toBe('UNAUTHENTICATED');
    await list(c.key, rotated.secret).expect(200);
  });

  it('a second rotation after --finish: its secret works at once too', async () => {
    await cliJson(['clients', 'rotate', c.key, '--finish']);
    const again = await cliJson<{ secret: string }>(['clients', 'rotate', c.key]);
    await list(c.key, again.secret).expect(200);
  });
});
