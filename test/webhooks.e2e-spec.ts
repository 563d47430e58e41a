import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import request from 'supertest';
import { ApiClientsService } from '../src/auth/api-clients.service.js';
import { verifySignature } from '../src/webhooks/webhook-signer.js';
import { createClient, TestClient } from './support/clients.js';
import { register, registrationBody, waitForFinal } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

const run = promisify(execFile);

interface Delivery {
  headers: Record<string, string>;
  body: string;
  answered: number;
}

describe('webhooks: signed events when a transaction completes or fails', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      WEBHOOK_ALLOW_PRIVATE: 'true', // the receiver is the local sandbox
      WEBHOOK_RETRY_DELAY_SECONDS: '1',
      MINISTRY_RETRY_DELAY_SECONDS: '1',
      QUEUE_POLL_INTERVAL_SECONDS: '1',
    });
  });
  afterAll(async () => {
    await t.stop();
  });
  afterEach(async () => {
    await fetch(`${t.sandboxUrl}/__sandbox/faults`, { method: 'DELETE' });
  });

  const withWebhook = async (name: string): Promise<TestClient & { signing: string }> => {
    const c = await createClient(t);
    const view = await t.app
      .get(ApiClientsService)
      .update(c.key, { webhookUrl: `${t.sandboxUrl}/__sandbox/webhooks/${name}` });
    return { ...c, signing: view.webhook_secret as string };
  };
  const deliveries = async (name: string): Promise<Delivery[]> =>
    (
      (await (await fetch(`${t.sandboxUrl}/__sandbox/webhooks/${name}`)).json()) as {
        deliveries: Delivery[];
      }
    ).deliveries;
  const waitDeliveries = async (name: string, n: number, ok = true) => {
    const until = Date.now() + 20_000;
    for (;;) {
      const ds = (await deliveries(name)).filter((d) => !ok || d.answered === 204);
      if (ds.length >= n) return ds;
      if (Date.now() > until) throw new Error(`only ${ds.length} deliveries to ${name}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  it('a receiver gets exactly the events of its client, signed', async () => {
    const a = await withWebhook('client-a');
    const b = await withWebhook('client-b');
    const ra = await register(t, a, registrationBody()).expect(201);
    const rb = await register(t, b, registrationBody()).expect(201);
    await waitForFinal(t, a, ra.body.data.id_transaccion);
    await waitForFinal(t, b, rb.body.data.id_transaccion);
    const [da] = await waitDeliveries('client-a', 1);
    await waitDeliveries('client-b', 1);
    await new Promise((r) => setTimeout(r, 1500)); // nothing else should arrive
    expect(await deliveries('client-a')).toHaveLength(1);
    const event = JSON.parse(da.body);
    expect(event).toMatchObject({
      type: 'receta.completed',
      data: {
        id_transaccion: ra.body.data.id_transaccion,
        cuir: ra.body.data.cuir,
        estado: 'COMPLETED',
      },
    });
    expect(event.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(da.headers['x-event-id']).toBe(event.id);
    expect(verifySignature(a.signing, da.body, da.headers['x-signature'])).toBe(true);
    expect(verifySignature(b.signing, da.body, da.headers['x-signature'])).toBe(false);
    const track = await request(t.url)
      .get(`/v1/transacciones/${ra.body.data.id_transaccion}`)
      .set(a.headers);
    expect(
      track.body.data.historial.some(
        (h: { evento: string; resultado: string }) =>
          h.evento === 'WEBHOOK' && h.resultado === 'ok',
      ),
    ).toBe(true);
  });

  it('a failed transaction sends receta.failed', async () => {
    const c = await withWebhook('client-failed');
    await fetch(`${t.sandboxUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ service: 'ministerio', mode: 'reject' }),
    });
    await register(t, c, registrationBody()).expect(201);
    const [d] = await waitDeliveries('client-failed', 1);
    expect(JSON.parse(d.body)).toMatchObject({ type: 'receta.failed', data: { estado: 'FAILED' } });
  });

  it('a receiver failing 3 times still gets the event, with the same event id', async () => {
    const c = await withWebhook('flaky');
    await fetch(`${t.sandboxUrl}/__sandbox/webhooks/flaky/fail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ times: 3 }),
    });
    const res = await register(t, c, registrationBody()).expect(201);
    await waitDeliveries('flaky', 1);
    const all = await deliveries('flaky');
    expect(all.map((d) => d.answered)).toEqual([500, 500, 500, 204]);
    expect(new Set(all.map((d) => JSON.parse(d.body).id)).size).toBe(1);
    // The receiver has its 204 a moment before the service records the attempt that got it.
    const webhookAttempts = async (): Promise<Array<{ resultado: string }>> => {
      const track = await request(t.url)
        .get(`/v1/transacciones/${res.body.data.id_transaccion}`)
        .set(c.headers);
      return track.body.data.historial.filter((h: { evento: string }) => h.evento === 'WEBHOOK');
    };
    let attempts = await webhookAttempts();
    for (const until = Date.now() + 10_000; attempts.length < 4 && Date.now() < until;) {
      await new Promise((r) => setTimeout(r, 100));
      attempts = await webhookAttempts();
    }
    expect(attempts.map((h) => h.resultado)).toEqual(['error', 'error', 'error', 'ok']);
  }, 40_000);

  it('refuses webhook URLs pointing at metadata or private addresses (credentials tool)', async () => {
    const cli = (args: string[]) =>
      run(process.execPath, ['dist/src/cli/main.js', ...args], {
        env: { ...process.env, DATABASE_URL: process.env.TEST_DATABASE_URL, LOG_LEVEL: 'silent' },
      });
    const c = await createClient(t);
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'https://10.0.0.1/hook',
      'http://127.0.0.1:9/hook',
    ]) {
      await expect(cli(['clients', 'update', c.key, '--webhook-url', url])).rejects.toMatchObject({
        code: 1,
        // Names the setting that allows one (a receiver on the developer's machine, the sandbox's).
        stderr: expect.stringMatching(/Webhook URL refused.*WEBHOOK_ALLOW_PRIVATE/),
      });
    }
    const ok = JSON.parse(
      (await cli(['clients', 'update', c.key, '--webhook-url', 'https://8.8.8.8/hook', '--json']))
        .stdout,
    );
    expect(ok.webhook_url).toBe('https://8.8.8.8/hook');
    expect(ok.webhook_secret).toMatch(/^whsec_/);
  });

  it("the tool's --webhook-url help names every event a client receives", async () => {
    const { stdout } = await run(process.execPath, [
      'dist/src/cli/main.js',
      'clients',
      'update',
      '--help',
    ]);
    const help = stdout.replace(/\s+/g, ' ');
    for (const type of [
      'receta.completed',
      'receta.failed',
      'receta.anulada',
      'receta.dispensada',
      'receta.dispensa_revertida',
    ])
      expect(help).toContain(type);
  });
});
