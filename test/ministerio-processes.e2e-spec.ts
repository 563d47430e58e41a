import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { RunningSandbox, startSandbox } from '../sandbox/server.js';
import { register, registrationBody } from './support/recetas.js';
import {
  cliClient,
  sandboxedEnv,
  ServiceProcess,
  startServiceProcess,
} from './support/service-process.js';

interface Pointer {
  cuir: string;
  recepciones: number;
}

/**
 * The service as real processes: killed with SIGKILL mid-delivery, and two instances sharing
 * one queue. The sandbox runs here, so it outlives the service processes.
 */
describe('ministry delivery across processes', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let client: { headers: Record<string, string> };
  const running: ServiceProcess[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true });
    env = sandboxedEnv(sandbox.url, { REGISTRY_BREAKER_THRESHOLD: '100' });
    client = await cliClient(`proc-${randomUUID()}`);
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop()));
    await fetch(`${sandbox.url}/__sandbox/faults`, { method: 'DELETE' });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  const start = async (over: Record<string, string> = {}) => {
    const p = await startServiceProcess({ ...env, ...over });
    running.push(p);
    return p;
  };
  const pointer = async (cuir: string): Promise<Pointer[]> =>
    (
      (await (await fetch(`${sandbox.url}/__sandbox/ministerio/punteros?cuir=${cuir}`)).json()) as {
        punteros: Pointer[];
      }
    ).punteros;
  const estado = async (url: string, id: string) =>
    (await request(url).get(`/v1/transacciones/${id}`).set(client.headers)).body.data?.estado as
      string | undefined;
  const waitAll = async (url: string, ids: string[], timeoutMs: number) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const states = await Promise.all(ids.map((id) => estado(url, id)));
      if (states.every((s) => s === 'COMPLETED')) return;
      if (Date.now() > until) throw new Error(`not all COMPLETED: ${JSON.stringify(states)}`);
      await new Promise((r) => setTimeout(r, 300));
    }
  };

  it('SIGKILL while deliveries are in flight: every acknowledged registration completes with one pointer', async () => {
    // Slow answers keep deliveries in flight when the process dies (the ministry stores first).
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ service: 'ministerio', mode: 'slow', delay_ms: 4000 }),
    });
    const first = await start();
    const acknowledged: Array<{ id: string; cuir: string }> = [];
    for (let i = 0; i < 10; i++) {
      const body = registrationBody();
      const res = await register(first, client, body);
      if (res.status === 201)
        acknowledged.push({ id: res.body.data.id_transaccion, cuir: body.cuir as string });
    }
    expect(acknowledged).toHaveLength(10);
    await new Promise((r) => setTimeout(r, 1500)); // workers have picked jobs up
    await first.kill();
    running.splice(running.indexOf(first), 1);
    await fetch(`${sandbox.url}/__sandbox/faults`, { method: 'DELETE' });

    const second = await start();
    await waitAll(
      second.url,
      acknowledged.map((a) => a.id),
      40_000,
    );
    for (const a of acknowledged) expect(await pointer(a.cuir)).toHaveLength(1);
  }, 90_000);

  it('two processes on one database deliver a batch of 50: every pointer has one reception', async () => {
    const [p1, p2] = await Promise.all([start(), start()]);
    const ids: string[] = [];
    const cuirs: string[] = [];
    await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const body = registrationBody();
        const res = await register(i % 2 ? p1 : p2, client, body).expect(201);
        ids.push(res.body.data.id_transaccion);
        cuirs.push(body.cuir as string);
      }),
    );
    await waitAll(p1.url, ids, 40_000);
    for (const cuir of cuirs) {
      const ps = await pointer(cuir);
      expect(ps).toHaveLength(1);
      expect(ps[0].recepciones).toBe(1);
    }
  }, 90_000);
});
