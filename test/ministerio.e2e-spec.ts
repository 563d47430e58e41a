import request from 'supertest';
import { createClient, TestClient } from './support/clients.js';
import { newCuir, register, registrationBody, waitForFinal } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

interface Pointer {
  id: string;
  cuir: string;
  recepciones: number;
  payload: Record<string, unknown>;
}

describe('ministry notification: PENDING → COMPLETED / FAILED', () => {
  let t: TestApp;
  let c: TestClient;

  beforeAll(async () => {
    t = await startTestApp({
      MINISTRY_RETRY_DELAY_SECONDS: '1',
      MINISTRY_MAX_ATTEMPTS: '10',
      QUEUE_POLL_INTERVAL_SECONDS: '1',
      MINISTRY_WORKER_CONCURRENCY: '4',
      // Deliveries should fail slowly, not trip the breaker for the whole suite.
      REGISTRY_BREAKER_THRESHOLD: '100',
      MINISTRY_NOTIFY_TYPES: '01,02',
    });
    c = await createClient(t);
  });
  afterAll(async () => {
    await t.stop();
  });
  afterEach(async () => {
    await fetch(`${t.sandboxUrl}/__sandbox/faults`, { method: 'DELETE' });
  });

  const fault = (mode: string, rate = 1) =>
    fetch(`${t.sandboxUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ service: 'ministerio', mode, rate }),
    });
  const pointers = async (cuir: string): Promise<Pointer[]> =>
    (
      (await (
        await fetch(`${t.sandboxUrl}/__sandbox/ministerio/punteros?cuir=${cuir}`)
      ).json()) as { punteros: Pointer[] }
    ).punteros;
  const registered = async (over: Record<string, unknown> = {}) => {
    const body = registrationBody(over);
    const res = await register(t, c, body).expect(201);
    return { id: res.body.data.id_transaccion as string, cuir: body.cuir as string, body };
  };

  it('delivers the pointer: COMPLETED within seconds, one pointer with one reception', async () => {
    const { id, cuir, body } = await registered();
    const final = await waitForFinal(t, c, id);
    expect(final).toMatchObject({ estado: 'COMPLETED', intentos: 1 });
    expect(final.ministerio_ref).toMatch(/^PTR-/);
    expect(final.historial.map((h) => h.evento)).toEqual(['REGISTRADA', 'INTENTO', 'ESTADO']);
    const [p] = await pointers(cuir);
    expect(p).toMatchObject({ cuir, recepciones: 1, id: final.ministerio_ref });
    expect(p.payload).toMatchObject({
      cuir,
      documento_paciente: '30111222',
      matricula_profesional: '123456',
      refeps_id: body.refeps_id,
      id_transaccion: id,
      fecha_creacion: new Date(body.fecha_creacion as string).toISOString(),
    });
    expect(String(p.payload.url_verificacion)).toMatch(
      new RegExp(`/r/${cuir}\\?f=[A-Za-z0-9_-]{22}$`),
    );
    const detail = await request(t.url).get(`/v1/recetas/${id}`).set(c.headers).expect(200);
    expect(detail.body.data.estado).toBe('COMPLETED');
    expect(detail.body.data.completed_at).toBeDefined();
  });

  it('with the ministry failing half the calls, every registration completes with one pointer each', async () => {
    await fault('error', 0.5);
    const regs = await Promise.all(Array.from({ length: 10 }, () => registered()));
    const finals = await Promise.all(regs.map((r) => waitForFinal(t, c, r.id, 30_000)));
    expect(finals.every((f) => f.estado === 'COMPLETED')).toBe(true);
    expect(finals.some((f) => f.intentos > 1)).toBe(true);
    for (const r of regs) {
      const ps = await pointers(r.cuir);
      expect(ps).toHaveLength(1);
      expect(ps[0].recepciones).toBe(1);
    }
    const retried = finals.find((f) => f.intentos > 1);
    const failedAttempt = retried?.historial.find(
      (h) => h.evento === 'INTENTO' && h.resultado === 'error',
    );
    expect(failedAttempt?.detalle).toMatch(/HTTP 503; next attempt at/);
  }, 60_000);

  it('a rejection is final: FAILED with failure_reason, and the detail agrees', async () => {
    await fault('reject');
    const { id, cuir } = await registered();
    const final = await waitForFinal(t, c, id);
    expect(final).toMatchObject({ estado: 'FAILED', intentos: 1 });
    const detail = await request(t.url).get(`/v1/recetas/${id}`).set(c.headers).expect(200);
    expect(detail.body.data).toMatchObject({ estado: 'FAILED' });
    expect(detail.body.data.failure_reason).toMatch(/RECHAZADO/);
    expect(await pointers(cuir)).toHaveLength(0);
  });

  it('while retrying, tracking shows the attempts and the next attempt time', async () => {
    await fault('error');
    const { id } = await registered();
    const until = Date.now() + 10_000;
    let seen: Record<string, unknown> | undefined;
    while (Date.now() < until) {
      const res = await request(t.url).get(`/v1/transacciones/${id}`).set(c.headers);
      if (res.body.data.intentos >= 1 && res.body.data.estado === 'PENDING') {
        seen = res.body.data;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).toBeDefined();
    expect(Date.parse(String(seen?.proximo_intento_at))).toBeGreaterThan(
      Date.parse(String(seen?.ultimo_intento_at)),
    );
  });

  it('a type that needs no notification completes without a delivery', async () => {
    const { id, cuir } = await registered({ cuir: newCuir({ prescriptionType: '03' }) });
    const final = await waitForFinal(t, c, id);
    expect(final).toMatchObject({ estado: 'COMPLETED', intentos: 0, ministerio_ref: null });
    expect(final.historial.map((h) => h.evento)).toContain('NOTIFICACION_NO_REQUERIDA');
    expect(await pointers(cuir)).toHaveLength(0);
  });

  it('exposes queue and delivery metrics', async () => {
    const res = await request(t.url).get('/metrics').expect(200);
    expect(res.text).toMatch(/ministry_delivery_outcomes_total\{outcome="completed"\} \d+/);
    expect(res.text).toContain('ministry_delivery_seconds_bucket');
    expect(res.text).toMatch(/job_queue_jobs\{queue="ministerio-punteros",state="completed"\} \d+/);
  });
});

describe('ministry notification: retries run out', () => {
  let t: TestApp;
  let c: TestClient;

  beforeAll(async () => {
    t = await startTestApp({
      MINISTRY_RETRY_DELAY_SECONDS: '1',
      MINISTRY_MAX_ATTEMPTS: '3',
      QUEUE_POLL_INTERVAL_SECONDS: '1',
    });
    c = await createClient(t);
  });
  afterAll(async () => {
    await t.stop();
  });

  it('a ministry down for longer than the attempts allow: FAILED after MINISTRY_MAX_ATTEMPTS', async () => {
    await fetch(`${t.sandboxUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ service: 'ministerio', mode: 'error' }),
    });
    const res = await register(t, c, registrationBody()).expect(201);
    const final = await waitForFinal(t, c, res.body.data.id_transaccion, 30_000);
    expect(final).toMatchObject({ estado: 'FAILED', intentos: 3 });
    expect(final.historial.filter((h) => h.evento === 'INTENTO')).toHaveLength(3);
    expect(final.historial.at(-1)?.detalle).toMatch(/retries exhausted after 3 attempts/);
    expect(t.rawLogs()).toContain('ministry_notification_failed');
  }, 40_000);
});
