import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { RunningSandbox, startSandbox } from '../sandbox/server.js';
import { cliClient, sandboxedEnv, startServiceProcess } from './support/service-process.js';

describe('graceful shutdown (SIGTERM)', () => {
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('finishes the in-flight request, stops accepting, closes and exits 0', async () => {
    const service = await startServiceProcess(sandboxedEnv(sandbox.url, { LOG_LEVEL: 'info' }));
    const client = await cliClient(`shutdown-${randomUUID()}`);
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ service: 'renaper', mode: 'slow', delay_ms: 1500 }),
    });
    const inFlight = request(service.url)
      .post('/v1/persona/verificar')
      .set(client.headers)
      .send({ documento: '30111222' });
    const answered = inFlight.then((r) => r);
    await new Promise((r) => setTimeout(r, 300)); // the request is now waiting on RENAPER
    const exit = service.stop();
    const res = await answered;
    expect(res.status).toBe(200);
    expect(res.body.data.apellido).toMatch(/FERN/);
    expect(await exit).toBe(0);
    expect(service.output()).toContain('shutting down');
    await expect(fetch(`${service.url}/health/live`)).rejects.toThrow();
  });
});
