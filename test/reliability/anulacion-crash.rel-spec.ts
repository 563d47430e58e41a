import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { RunningSandbox, startSandbox } from '../../sandbox/server.js';
import { issueBodyCuir, registrationBody } from '../support/recetas.js';
import {
  cliClient,
  sandboxedEnv,
  ServiceProcess,
  startServiceProcess,
} from '../support/service-process.js';
import { LogGuard } from './support/log-guard.js';
import { sleep } from './support/raw-http.js';

interface Pointer {
  cuir: string;
  recepciones: number;
  anulada: boolean;
  motivo_anulacion: string | null;
  anulaciones: number;
}

/**
 * The ministry's notice of a cancellation (contract §7) is as durable as the pointer: with the
 * ministry failing half its calls and the service SIGKILLed while notices are being delivered,
 * after a restart every cancelled prescription's pointer is marked `anulada` at the ministry,
 * and the service records the cancellation and its acknowledgement exactly once each.
 */
describe('crash: SIGKILL while cancellations are told to the ministry', () => {
  const guard = new LogGuard();
  let sandbox: RunningSandbox;
  let db: pg.Client;
  let env: Record<string, string>;
  let client: { headers: Record<string, string> };
  const processes: ServiceProcess[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true });
    env = sandboxedEnv(sandbox.url, {
      MINISTRY_WORKER_CONCURRENCY: '2',
      REGISTRY_BREAKER_THRESHOLD: '100',
      LOG_LEVEL: 'info',
    });
    client = await cliClient(`anulacion-crash-${randomUUID()}`);
    guard.secret(client.headers['X-API-Secret']);
    db = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop().catch(() => undefined)));
    await sandbox.close();
    await db.end();
  });

  const start = async (name: string) => {
    const p = await startServiceProcess(env);
    processes.push(p);
    guard.watch(name, () => p.output());
    return p;
  };
  const post = (base: string, path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { ...client.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const stateOf = async (ids: string[]) =>
    (
      await db.query<{
        id: string;
        estado: string;
        anulacion_estado: string | null;
        anuladas: number;
        informadas: number;
        fallidas: number;
        intentos: number;
      }>(
        `SELECT r.id_transaccion::text AS id, r.estado, r.anulacion_estado,
                count(*) FILTER (WHERE h.evento = 'ANULADA')::int AS anuladas,
                count(*) FILTER (WHERE h.evento = 'ANULACION_INFORMADA')::int AS informadas,
                count(*) FILTER (WHERE h.evento = 'ANULACION_FALLIDA')::int AS fallidas,
                count(*) FILTER (WHERE h.evento = 'ANULACION_INTENTO')::int AS intentos
           FROM recetas r LEFT JOIN receta_historial h USING (id_transaccion)
          WHERE r.id_transaccion::text = ANY($1) GROUP BY r.id_transaccion`,
        [ids],
      )
    ).rows;
  const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000) => {
    for (const end = Date.now() + ms; ;) {
      const v = await probe();
      if (v !== undefined) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await sleep(250);
    }
  };

  it('every cancelled pointer ends anulada at the ministry, recorded once', async () => {
    const first = await start('anulacion-process-1');
    const regs: Array<{ id: string; cuir: string; motivo: string }> = [];
    for (let i = 0; i < 12; i++) {
      const body = registrationBody();
      await issueBodyCuir(first, client, body);
      const res = await post(first.url, '/v1/recetas/registrar', body);
      expect(res.status).toBe(201);
      const { data } = (await res.json()) as { data: { id_transaccion: string } };
      regs.push({ id: data.id_transaccion, cuir: body.cuir as string, motivo: `Motivo ${i}` });
    }
    const ids = regs.map((r) => r.id);
    await waitFor('the pointers to be delivered', async () =>
      (await stateOf(ids)).every((r) => r.estado === 'COMPLETED') ? true : undefined,
    );

    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ service: 'ministerio', mode: 'error', rate: 0.5 }),
    });
    for (const r of regs) {
      const res = await post(first.url, `/v1/recetas/${r.id}/anular`, { motivo: r.motivo });
      expect(res.status).toBe(200);
    }
    // Kill once the notices are under way, before they are all told.
    const atKill = await waitFor('a first notice attempt', async () => {
      const rows = await stateOf(ids);
      return rows.some((r) => r.intentos > 0) ? rows : undefined;
    });
    await first.kill();
    const pendingAtKill = atKill.filter((r) => r.anulacion_estado === 'PENDING').length;
    expect(pendingAtKill).toBeGreaterThan(0);

    await start('anulacion-process-2');
    const rows = await waitFor(
      'every notice to settle',
      async () => {
        const now = await stateOf(ids);
        return now.every((r) => r.anulacion_estado !== 'PENDING') ? now : undefined;
      },
      90_000,
    );
    for (const r of rows) {
      expect({ ...r, intentos: undefined }).toEqual({
        id: r.id,
        estado: 'COMPLETED',
        anulacion_estado: 'COMPLETED',
        anuladas: 1,
        informadas: 1,
        fallidas: 0,
        intentos: undefined,
      });
    }
    const { punteros } = (await (
      await fetch(`${sandbox.url}/__sandbox/ministerio/punteros`)
    ).json()) as { punteros: Pointer[] };
    for (const r of regs) {
      const held = punteros.filter((p) => p.cuir === r.cuir);
      expect(held).toHaveLength(1);
      expect(held[0]).toMatchObject({ anulada: true, motivo_anulacion: r.motivo });
      // A notice accepted just before the kill may be told again (idempotent at the ministry).
      expect(held[0].anulaciones).toBeGreaterThanOrEqual(1);
    }
    process.stdout.write(
      `cancellations: ${pendingAtKill} of ${regs.length} still pending at the SIGKILL; ministry accepted ${punteros
        .filter((p) => regs.some((r) => r.cuir === p.cuir))
        .reduce((n, p) => n + p.anulaciones, 0)} notices for ${regs.length} pointers\n`,
    );
  }, 180_000);

  it('logs carry no document number, name or secret', () => {
    expect(guard.findings()).toEqual([]);
  });
});
