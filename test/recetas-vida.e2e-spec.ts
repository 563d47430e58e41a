import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ApiClientsService } from '../src/auth/api-clients.service.js';
import { createClient, TestClient } from './support/clients.js';
import { arDate, dispensaBody, dispensasApi, PHARMACY_SCOPES } from './support/dispensas.js';
import { newCuir, register, registrationBody, waitForFinal } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

interface Pointer {
  cuir: string;
  recepciones: number;
  anulada: boolean;
  motivo_anulacion: string | null;
  anulaciones: number;
}

/** A prescription's life (contract §7): its validity window and its cancellation, over real HTTP. */
describe("a prescription's life: validity and cancellation", () => {
  let t: TestApp;
  let db: DataSource;
  let owner: TestClient;
  let other: TestClient;
  let farmacia: TestClient;
  const api = dispensasApi(() => t);

  beforeAll(async () => {
    t = await startTestApp({
      MINISTRY_RETRY_DELAY_SECONDS: '1',
      QUEUE_POLL_INTERVAL_SECONDS: '1',
      REGISTRY_BREAKER_THRESHOLD: '100',
      // Reservations lapse after 6 s here, so a lapse is seen without touching the clock.
      DISPENSA_RESERVA_MINUTOS: '0.1',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_DELAY_SECONDS: '1',
    });
    db = t.app.get(DataSource);
    owner = await createClient(t, { scopes: ['cuir:write', 'recetas:write', 'recetas:read'] });
    await t.app
      .get(ApiClientsService)
      .update(owner.key, { webhookUrl: `${t.sandboxUrl}/__sandbox/webhooks/vida-owner` });
    other = await createClient(t, { scopes: ['cuir:write', 'recetas:write', 'recetas:read'] });
    farmacia = await createClient(t, { scopes: [...PHARMACY_SCOPES] });
  });
  afterAll(async () => {
    await t.stop();
  });
  afterEach(async () => {
    await fetch(`${t.sandboxUrl}/__sandbox/faults`, { method: 'DELETE' });
  });

  const registered = async (over: Record<string, unknown> = {}) => {
    const body = registrationBody(over);
    const res = await register(t, owner, body).expect(201);
    return { id: res.body.data.id_transaccion as string, cuir: body.cuir as string };
  };
  const pointer = async (cuir: string): Promise<Pointer | undefined> =>
    (
      (await (
        await fetch(`${t.sandboxUrl}/__sandbox/ministerio/punteros?cuir=${cuir}`)
      ).json()) as { punteros: Pointer[] }
    ).punteros[0];
  const fault = (mode: string) =>
    fetch(`${t.sandboxUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ service: 'ministerio', mode }),
    });
  const historial = async (id: string) =>
    (await request(t.url).get(`/v1/transacciones/${id}`).set(owner.headers)).body.data
      .historial as Array<{ evento: string; resultado: string; detalle: string }>;
  const until = async <T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000) => {
    for (const end = Date.now() + ms; ;) {
      const v = await probe();
      if (v !== undefined) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  describe('validity (fecha_inicio_vigencia, vigencia_desde/hasta)', () => {
    it("the default window follows the CUIR's type: 30 days for medicines, 60 for the rest", async () => {
      const creada = '2026-11-20T01:30:00Z'; // the 19th in Argentina time
      const med = await registered({ fecha_creacion: creada });
      const dev = await registered({
        fecha_creacion: creada,
        cuir: newCuir({ prescriptionType: '02' }),
      });
      const study = await registered({
        fecha_creacion: creada,
        cuir: newCuir({ prescriptionType: '03' }),
      });
      const window = async (id: string) => {
        const d = (await api.detalle(owner, id).expect(200)).body.data;
        return [d.vigencia_desde, d.vigencia_hasta];
      };
      expect(await window(med.id)).toEqual(['2026-11-19', '2026-12-18']);
      expect(await window(dev.id)).toEqual(['2026-11-19', '2027-01-17']);
      expect(await window(study.id)).toEqual(['2026-11-19', '2027-01-17']);
    });

    it('a later start date is kept; one outside [issue date, +365 days] is a 400', async () => {
      const start = arDate(20);
      const r = await registered({ fecha_inicio_vigencia: start });
      const d = (await api.detalle(owner, r.id)).body.data;
      expect(d).toMatchObject({ vigencia_desde: start, estado_receta: 'VIGENTE' });
      expect(Date.parse(d.vigencia_hasta) - Date.parse(start)).toBe(29 * 86_400_000);
      for (const bad of [arDate(-1), arDate(366), '2026-02-30', '20261122', 20261122]) {
        const res = await register(t, owner, registrationBody({ fecha_inicio_vigencia: bad }));
        expect({ bad, status: res.status, field: res.body.error?.details?.[0]?.field }).toEqual({
          bad,
          status: 400,
          field: 'fecha_inicio_vigencia',
        });
      }
    });

    it('VENCIDA the day after its window, in the detail and the verification', async () => {
      const r = await registered({
        fecha_creacion: new Date(Date.now() - 31 * 86_400_000).toISOString(),
      });
      expect((await api.detalle(owner, r.id)).body.data.estado_receta).toBe('VENCIDA');
      const v = (await api.verificar(farmacia, r.cuir)).body.data;
      expect(v).toMatchObject({ estado_receta: 'VENCIDA', reserva: null });
      expect(v.items[0]).toMatchObject({ item: 1, dispensado: 0, dispensable: false });
      expect(JSON.stringify(v)).not.toContain('30111222');
    });

    it('the listing keeps the summary fields only', async () => {
      const r = await registered();
      const res = await request(t.url)
        .get('/v1/recetas/listar')
        .query({
          fecha_desde: new Date(Date.now() - 3600_000).toISOString(),
          fecha_hasta: new Date(Date.now() + 60_000).toISOString(),
        })
        .set(owner.headers)
        .expect(200);
      const item = res.body.data.items.find(
        (i: { id_transaccion: string }) => i.id_transaccion === r.id,
      );
      expect(Object.keys(item).sort()).toEqual(
        [
          'cuir',
          'documento_paciente',
          'estado',
          'fecha_creacion',
          'id_de_receta',
          'id_transaccion',
          'matricula_profesional',
        ].sort(),
      );
    });
  });

  describe('POST /v1/recetas/{id}/anular', () => {
    it("cancels: ANULADA with the reason; the ministry's pointer marked, the history shows it", async () => {
      const r = await registered();
      await waitForFinal(t, owner, r.id);
      const res = await api.anular(owner, r.id, 'Error en la dosis prescripta').expect(200);
      expect(res.body.data).toMatchObject({
        id_transaccion: r.id,
        estado: 'COMPLETED',
        estado_receta: 'ANULADA',
        anulacion: { at: expect.any(String), motivo: 'Error en la dosis prescripta' },
      });
      const p = await until('the pointer to be cancelled', async () => {
        const found = await pointer(r.cuir);
        return found?.anulada ? found : undefined;
      });
      expect(p).toMatchObject({
        anulada: true,
        motivo_anulacion: 'Error en la dosis prescripta',
        recepciones: 1,
        anulaciones: 1,
      });
      const h = await until('the notice in the history', async () => {
        const all = await historial(r.id);
        return all.some((e) => e.evento === 'ANULACION_INFORMADA') ? all : undefined;
      });
      // (Webhook deliveries land in the history too, whenever they happen.)
      expect(h.map((e) => e.evento).filter((e) => e !== 'WEBHOOK')).toEqual([
        'REGISTRADA',
        'INTENTO',
        'ESTADO',
        'ANULADA',
        'ANULACION_INTENTO',
        'ANULACION_INFORMADA',
      ]);
      // Cancelled: nothing more is reserved or dispensed.
      expect((await api.reservar(farmacia, r.cuir).expect(409)).body.error.code).toBe(
        'RECETA_ANULADA',
      );
      expect(
        (await api.dispensar(farmacia, dispensaBody(r.cuir, [[1, 1]])).expect(409)).body.error.code,
      ).toBe('RECETA_ANULADA');
      expect((await api.verificar(farmacia, r.cuir)).body.data.estado_receta).toBe('ANULADA');
    });

    it('again → 200 with the same detail, nothing recorded twice; an Idempotency-Key replays', async () => {
      const r = await registered();
      const key = randomUUID();
      const first = await api.anular(owner, r.id, 'Motivo uno', { 'Idempotency-Key': key });
      expect(first.status).toBe(200);
      const replay = await api.anular(owner, r.id, 'Motivo uno', { 'Idempotency-Key': key });
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(first.body);
      const again = await api.anular(owner, r.id, 'Otro motivo').expect(200);
      expect(again.body.data.anulacion).toEqual(first.body.data.anulacion);
      expect((await historial(r.id)).filter((e) => e.evento === 'ANULADA')).toHaveLength(1);
      const [{ n }] = await db.query(
        `SELECT count(*)::int AS n FROM auditoria_eventos WHERE tipo = 'anulacion' AND id_transaccion = $1`,
        [r.id],
      );
      expect(n).toBe(1);
    });

    it("owner only: another client's or an unknown id answers 404 alike", async () => {
      const r = await registered();
      const theirs = await api.anular(other, r.id).expect(404);
      const missing = await api.anular(other, '999999999999').expect(404);
      expect({ ...theirs.body, request_id: 0 }).toEqual({ ...missing.body, request_id: 0 });
      await api.anular(other, 'abc').expect(404);
      await api.anular(farmacia, r.id).expect(403);
      expect((await api.detalle(owner, r.id)).body.data.anulacion).toBeNull();
      const bad = await request(t.url)
        .post(`/v1/recetas/${r.id}/anular`)
        .set(owner.headers)
        .send({ motivo: 'no' })
        .expect(400);
      expect(bad.body.error.details[0].field).toBe('motivo');
    });

    it('after a dispensation → 409 RECETA_DISPENSADA; once it is reversed, it can be cancelled', async () => {
      const r = await registered();
      const d = (await api.dispensar(farmacia, dispensaBody(r.cuir, [[1, 1]])).expect(201)).body
        .data;
      expect((await api.anular(owner, r.id).expect(409)).body.error.code).toBe('RECETA_DISPENSADA');
      await api.revertir(farmacia, d.id_dispensa).expect(200);
      await api.anular(owner, r.id).expect(200);
    });

    it('during a reservation → 409 RECETA_RESERVADA; once it lapses (6 s here), it can be cancelled', async () => {
      const r = await registered();
      await api.reservar(farmacia, r.cuir).expect(201);
      const res = await api.anular(owner, r.id).expect(409);
      expect(res.body.error.code).toBe('RECETA_RESERVADA');
      expect(JSON.stringify(res.body)).not.toContain(farmacia.id);
      await until('the reservation to lapse', async () =>
        (await api.verificar(farmacia, r.cuir)).body.data.reserva === null ? true : undefined,
      );
      await api.anular(owner, r.id).expect(200);
    }, 30_000);

    it('VENCIDA can be cancelled too', async () => {
      const r = await registered({
        fecha_creacion: new Date(Date.now() - 40 * 86_400_000).toISOString(),
      });
      expect((await api.anular(owner, r.id).expect(200)).body.data.estado_receta).toBe('ANULADA');
    });

    it('the notice waits while the pointer is still PENDING, then follows it', async () => {
      await fault('error'); // the pointer cannot be delivered for now
      const r = await registered();
      await until('a failed pointer attempt', async () =>
        (await historial(r.id)).some((e) => e.evento === 'INTENTO') ? true : undefined,
      );
      await api.anular(owner, r.id, 'Cambio de tratamiento').expect(200);
      await new Promise((res) => setTimeout(res, 1500));
      expect((await historial(r.id)).some((e) => e.evento === 'ANULACION_INTENTO')).toBe(false);
      await fetch(`${t.sandboxUrl}/__sandbox/faults`, { method: 'DELETE' });
      await waitForFinal(t, owner, r.id, 30_000);
      const p = await until(
        'the pointer to be cancelled',
        async () => {
          const found = await pointer(r.cuir);
          return found?.anulada ? found : undefined;
        },
        30_000,
      );
      expect(p).toMatchObject({ motivo_anulacion: 'Cambio de tratamiento', recepciones: 1 });
      // The ministry answered; the service records it right after.
      const events = await until('the notice in the history', async () => {
        const all = (await historial(r.id)).map((e) => e.evento);
        return all.includes('ANULACION_INFORMADA') ? all : undefined;
      });
      expect(events.indexOf('ESTADO')).toBeLessThan(events.indexOf('ANULACION_INTENTO'));
    }, 60_000);

    it('nothing to tell when the pointer was never accepted (FAILED): recorded in the history', async () => {
      await fault('reject');
      const r = await registered();
      expect((await waitForFinal(t, owner, r.id)).estado).toBe('FAILED');
      await api.anular(owner, r.id).expect(200);
      // The owner's webhook deliveries (transaction.failed, receta.anulada) are in the history
      // too, whenever they land: the cancellation's own entries are what this test reads.
      const h = (await historial(r.id)).filter((e) => e.evento !== 'WEBHOOK');
      expect(h.slice(-2).map((e) => [e.evento, e.resultado])).toEqual([
        ['ANULADA', 'accepted'],
        ['ANULACION_NO_INFORMADA', 'not_required'],
      ]);
      expect(await pointer(r.cuir)).toBeUndefined();
    });

    it('the owner gets receta.anulada and receta.dispensada / receta.dispensa_revertida webhooks', async () => {
      const r = await registered({
        items: [
          { nombre: 'Ibuprofeno 400 mg', cantidad: 2 },
          { nombre: 'Paracetamol 500 mg', cantidad: 1 },
        ],
      });
      const d = (
        await api
          .dispensar(
            farmacia,
            dispensaBody(r.cuir, [{ item: 1, cantidad: 2, codigo: '2105825', sustituido: true }]),
          )
          .expect(201)
      ).body.data;
      await api.revertir(farmacia, d.id_dispensa, 'Cargada por error').expect(200);
      await api.anular(owner, r.id, 'Ya no corresponde').expect(200);
      const events = await until('three events', async () => {
        const res = (await (
          await fetch(`${t.sandboxUrl}/__sandbox/webhooks/vida-owner`)
        ).json()) as { deliveries: Array<{ body: string }> };
        const mine = res.deliveries
          .map((x) => JSON.parse(x.body) as { type: string; data: Record<string, unknown> })
          .filter((e) => e.data.id_transaccion === r.id && e.type !== 'receta.completed');
        return mine.length >= 3 ? mine : undefined;
      });
      const byType = Object.fromEntries(events.map((e) => [e.type, e.data]));
      expect(byType['receta.dispensada']).toMatchObject({
        cuir: r.cuir,
        id_dispensa: d.id_dispensa,
        farmacia: { cuit: '30712345671', nombre: 'Farmacia Central' },
        items: [{ item: 1, cantidad_dispensada: 2, codigo: '2105825', sustituido: true }],
        sustituciones: [1],
      });
      expect(byType['receta.dispensa_revertida']).toMatchObject({
        id_dispensa: d.id_dispensa,
        motivo: 'Cargada por error',
      });
      expect(byType['receta.anulada']).toMatchObject({
        estado_receta: 'ANULADA',
        motivo: 'Ya no corresponde',
      });
    }, 40_000);

    it('is documented in OpenAPI with its scope', async () => {
      const doc = (await request(t.url).get('/openapi.json')).body;
      const op = doc.paths['/v1/recetas/{id_transaccion}/anular'].post;
      expect(op['x-required-scope']).toBe('recetas:write');
      expect(op.description).toContain("the first cancellation's `motivo` (and `at`) is kept");
      expect(JSON.stringify(op.responses['409'])).toBeDefined();
      const detalle = doc.components.schemas.RecetaDetalleDto.properties;
      expect(Object.keys(detalle)).toEqual(
        expect.arrayContaining(['estado_receta', 'vigencia_desde', 'anulacion', 'dispensas']),
      );
    });
  });
});
