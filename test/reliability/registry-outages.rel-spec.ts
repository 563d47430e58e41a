import { DataSource } from 'typeorm';
import type { TestClient } from '../support/clients.js';
import { issueBodyCuir, registrationBody } from '../support/recetas.js';
import type { TestApp } from '../support/test-app.js';
import { fuzzDni, LogGuard } from './support/log-guard.js';
import { checkAnswer, median, rawRequest, RawResponse, sleep } from './support/raw-http.js';
import { startWatchedApp, watchedClient } from './support/setup.js';

const TIMEOUT_MS = 400;
const HALF_OPEN_MS = 2500;

/**
 * One registry down (timeout or 5xx) at a time: its endpoints fail with UPSTREAM_UNAVAILABLE,
 * fast once its breaker is open; every other endpoint keeps its latency (the bulkheads and
 * breakers are per system). Caches are off so each call reaches the registry.
 */
describe('registry outages', () => {
  const guard = new LogGuard();
  let t: TestApp;
  let c: TestClient;
  let db: DataSource;
  let n = 0;

  beforeAll(async () => {
    t = await startWatchedApp(guard, 'outage-app', {
      MINISTRY_DELIVERY_ENABLED: 'false',
      REGISTRY_TIMEOUT_MS: String(TIMEOUT_MS),
      REGISTRY_MAX_ATTEMPTS: '2',
      REGISTRY_BREAKER_THRESHOLD: '3',
      REGISTRY_BREAKER_HALF_OPEN_MS: String(HALF_OPEN_MS),
      REGISTRY_CACHE_TTL_SECONDS: '0',
      REGISTRY_NEGATIVE_CACHE_TTL_SECONDS: '0',
      REGISTRY_STALE_TTL_SECONDS: '0',
      PERSONA_CACHE_TTL_SECONDS: '0',
    });
    c = await watchedClient(t, guard);
    db = t.app.get(DataSource);
    // The catalogue mirror is loaded at start; search must not depend on the upstream after.
    for (let i = 0; i < 50; i++) {
      const r = await endpoints.buscar();
      if (r.status === 200 && r.body.data.total > 0) break;
      await sleep(200);
    }
  });
  afterAll(async () => {
    await fault({ service: 'refeps', mode: 'ok' }).catch(() => undefined);
    await t.stop();
  });

  const fault = async (setting: Record<string, unknown>) => {
    const res = await fetch(`${t.sandboxUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(setting),
    });
    expect(res.status).toBe(200);
  };
  const clearFaults = () => fetch(`${t.sandboxUrl}/__sandbox/faults`, { method: 'DELETE' });

  const post = (path: string, body: unknown) =>
    rawRequest(t.url, {
      method: 'POST',
      path,
      headers: { ...c.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const endpoints: Record<string, () => Promise<RawResponse>> = {
    registrar: async () => {
      const body = registrationBody();
      await issueBodyCuir(t, c, body); // generation asks no registry
      return post('/v1/recetas/registrar', body);
    },
    profesional: () => post('/v1/profesional/verificar', { documento: '25111222' }),
    persona: () => post('/v1/persona/verificar', { documento: '30111222' }),
    buscar: () =>
      rawRequest(t.url, { path: '/v1/medicamentos/buscar?q=amoxicilina', headers: c.headers }),
    cuir: () =>
      post('/v1/cuir/generar', {
        groupId: String(Date.now() * 1000 + ++n).padStart(25, '5'),
        itemId: '01',
        state: '02',
        prescriptionType: '01',
        medicationType: '02',
      }),
    listar: () =>
      rawRequest(t.url, {
        path: '/v1/recetas/listar?fecha_desde=2000-01-01T00:00:00Z&fecha_hasta=2100-01-01T00:00:00Z&per_page=5',
        headers: c.headers,
      }),
  };
  const AFFECTED: Record<string, string[]> = {
    refeps: ['registrar', 'profesional'],
    renaper: ['persona'],
    catalogo: [],
  };

  async function latency(name: string, rounds = 9) {
    const ms: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const r = await endpoints[name]();
      checkAnswer(r, `${name} (healthy)`);
      expect({ name, status: r.status < 300 }).toEqual({ name, status: true });
      ms.push(r.ms);
    }
    return median(ms);
  }

  const recetasOfClient = async () =>
    Number(
      (await db.query('SELECT count(*)::int AS n FROM recetas WHERE client_id = $1', [c.id]))[0].n,
    );

  describe.each([
    ['refeps', 'timeout'],
    ['refeps', 'error'],
    ['renaper', 'timeout'],
    ['renaper', 'error'],
    ['catalogo', 'timeout'],
    ['catalogo', 'error'],
  ])('%s in %s mode', (service, mode) => {
    const unaffected = Object.keys(endpoints).filter((e) => !AFFECTED[service].includes(e));
    const baseline: Record<string, number> = {};

    beforeAll(async () => {
      await clearFaults();
      await sleep(HALF_OPEN_MS + 100); // any breaker a previous mode opened lets a trial through
      for (const e of Object.keys(endpoints)) await endpoints[e](); // closes it again
      for (const e of Object.keys(endpoints)) baseline[e] = await latency(e);
      await fault({ service, mode });
    });
    afterAll(async () => {
      await clearFaults();
    });

    if (AFFECTED[service].length > 0) {
      it('the affected endpoints answer 500 UPSTREAM_UNAVAILABLE, fast once the breaker is open', async () => {
        const before = await recetasOfClient();
        for (const e of AFFECTED[service]) {
          const answers: RawResponse[] = [];
          for (let i = 0; i < 12; i++) answers.push(await endpoints[e]());
          for (const a of answers) {
            checkAnswer(a, `${e} during ${service} ${mode}`, { allow500: true });
            expect({ e, status: a.status, code: a.body.error?.code }).toEqual({
              e,
              status: 500,
              code: 'UPSTREAM_UNAVAILABLE',
            });
            // Never longer than the attempts' timeouts plus the backoff between them.
            expect(a.ms).toBeLessThan(2 * TIMEOUT_MS + 1500);
          }
          const open = median(answers.slice(-6).map((a) => a.ms));
          expect({
            e,
            openBreakerMedianMs: open,
            // Well under one attempt's timeout (not a speed target: the breaker answers at once).
            fast: open < Math.max(TIMEOUT_MS / 2, baseline[e] * 3),
          }).toEqual({
            e,
            openBreakerMedianMs: open,
            fast: true,
          });
        }
        // A registration refused for the registry's sake stored nothing.
        expect(await recetasOfClient()).toBe(before);
      });
    } else {
      it('catalogue search keeps answering from the mirror', async () => {
        const r = await endpoints.buscar();
        expect(r.status).toBe(200);
        expect(r.body.data.total).toBeGreaterThan(0);
      });
    }

    it('every other endpoint keeps its normal latency (medians)', async () => {
      for (const e of unaffected) {
        const during = await latency(e);
        expect({
          e,
          baseline: baseline[e],
          during,
          ok: during < Math.max(3 * baseline[e], baseline[e] + 150),
        }).toEqual({
          e,
          baseline: baseline[e],
          during,
          ok: true,
        });
      }
    });
  });

  it('a person not in the registry stays 404 (not an outage) and the fuzzed DNIs are not logged', async () => {
    await clearFaults();
    const r = await post('/v1/persona/verificar', { documento: fuzzDni(5) });
    checkAnswer(r, 'unknown person');
    expect(r.status).toBe(404);
  });

  it('logs carry no document number, name or secret', () => {
    expect(guard.findings()).toEqual([]);
  });
});
