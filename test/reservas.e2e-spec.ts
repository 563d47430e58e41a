import request from 'supertest';
import { DataSource } from 'typeorm';
import { createClient, TestClient } from './support/clients.js';
import { dispensaBody, dispensasApi, PHARMACY_SCOPES } from './support/dispensas.js';
import { register, registrationBody } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

/** Seconds of DISPENSA_RESERVA_MINUTOS and DISPENSA_RESERVA_MAX_MINUTOS in this suite. */
const MINUTOS_S = 6;
const MAX_S = 12;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A reservation cannot be held forever (contract §7): asking again extends it only up to its
 * creation + DISPENSA_RESERVA_MAX_MINUTOS, and once the holder's reservation lapsed or was
 * released, another dispenser gets its turn for DISPENSA_RESERVA_MINUTOS. Short windows
 * (decimals) keep the real clock usable.
 */
describe('reservations: the cap and the turn rule', () => {
  let t: TestApp;
  let db: DataSource;
  let owner: TestClient;
  let farmacias: TestClient[];
  const api = dispensasApi(() => t);

  beforeAll(async () => {
    t = await startTestApp({
      MINISTRY_DELIVERY_ENABLED: 'false',
      DISPENSA_RESERVA_MINUTOS: String(MINUTOS_S / 60),
      DISPENSA_RESERVA_MAX_MINUTOS: String(MAX_S / 60),
    });
    db = t.app.get(DataSource);
    owner = await createClient(t, { scopes: ['cuir:write', 'recetas:write', 'recetas:read'] });
    farmacias = [];
    for (let i = 0; i < 2; i++)
      farmacias.push(await createClient(t, { scopes: [...PHARMACY_SCOPES] }));
  });
  afterAll(async () => {
    await t.stop();
  });

  const registered = async () => {
    const body = registrationBody({
      items: [
        { nombre: 'Ibuprofeno 400 mg comprimidos', cantidad: 2 },
        { nombre: 'Amoxicilina 500 mg cápsulas', cantidad: 1 },
      ],
    });
    await register(t, owner, body).expect(201);
    return body.cuir as string;
  };
  const [a, b] = [() => farmacias[0], () => farmacias[1]];
  const venceAt = (res: { body: { data: { vence_at: string } } }) =>
    Date.parse(res.body.data.vence_at);
  const reiterada = async (c: TestClient, cuir: string) => {
    const res = await api.reservar(c, cuir).expect(409);
    expect(res.body.error.code).toBe('RESERVA_REITERADA');
    expect(res.body.error.message).toMatch(/another dispenser/i);
    return res;
  };

  it('asking again extends it only up to its creation + DISPENSA_RESERVA_MAX_MINUTOS; once lapsed, the holder waits its turn', async () => {
    const cuir = await registered();
    const made = await api.reservar(a(), cuir).expect(201);
    // A new reservation lasts DISPENSA_RESERVA_MINUTOS from its creation.
    const created = venceAt(made) - MINUTOS_S * 1000;
    const cap = created + MAX_S * 1000;
    const seen: number[] = [];
    for (let i = 0; i < 4; i++) {
      await sleep(2500);
      const again = await api.reservar(a(), cuir).expect(200);
      expect(again.body.data.reserva_id).toBe(made.body.data.reserva_id);
      seen.push(venceAt(again));
    }
    for (const v of seen) expect(v).toBeLessThanOrEqual(cap);
    // At ~10 s, from-now would be ~16 s: held at the cap instead.
    expect(seen[seen.length - 1]).toBe(cap);
    await sleep(Math.max(0, cap - Date.now()) + 300);
    // Lapsed: another dispenser's turn; the holder is refused for DISPENSA_RESERVA_MINUTOS.
    expect((await api.verificar(a(), cuir).expect(200)).body.data.reserva).toBeNull();
    await reiterada(a(), cuir);
    const theirs = await api.reservar(b(), cuir).expect(201);
    expect(venceAt(theirs)).toBeGreaterThan(Date.now());
  }, 40_000);

  it('after releasing, the same client is refused for DISPENSA_RESERVA_MINUTOS; others are not, and it may still dispense', async () => {
    const cuir = await registered();
    const made = (await api.reservar(a(), cuir).expect(201)).body.data;
    await api.liberar(a(), made.reserva_id).expect(204);
    const refused = await reiterada(a(), cuir);
    // A refusal does not prolong the wait, and it never names anyone.
    expect(JSON.stringify(refused.body)).not.toContain(a().id);
    const theirs = (await api.reservar(b(), cuir).expect(201)).body.data;
    await api.liberar(b(), theirs.reserva_id).expect(204);
    await reiterada(a(), cuir);
    // Dispensing needs no reservation: still allowed to the client waiting its turn.
    const d = await api.dispensar(a(), dispensaBody(cuir, [[1, 1]])).expect(201);
    expect(d.body.data.estado_receta).toBe('DISPENSADA_PARCIAL');
    // Once DISPENSA_RESERVA_MINUTOS has passed since the release, it may reserve again.
    await sleep(MINUTOS_S * 1000 + 300);
    await api.reservar(a(), cuir).expect(201);
  }, 30_000);

  it('a reservation consumed by its dispensation does not make the client wait', async () => {
    const cuir = await registered();
    const mine = (await api.reservar(a(), cuir).expect(201)).body.data;
    await api
      .dispensar(a(), dispensaBody(cuir, [[1, 2]], { reserva_id: mine.reserva_id }))
      .expect(201);
    const next = await api.reservar(a(), cuir).expect(201);
    expect(next.body.data.reserva_id).not.toBe(mine.reserva_id);
  });

  it('a reversed dispensation ends the turn: reserve, dispense with it, reverse, reserve again → 409 RESERVA_REITERADA (SPEC 11.4)', async () => {
    const body = registrationBody({ items: [{ nombre: 'Ibuprofeno 400 mg', cantidad: 1 }] });
    const id = (await register(t, owner, body).expect(201)).body.data.id_transaccion as string;
    const cuir = body.cuir as string;
    const mine = (await api.reservar(a(), cuir).expect(201)).body.data;
    const d = await api
      .dispensar(a(), dispensaBody(cuir, [[1, 1]], { reserva_id: mine.reserva_id }))
      .expect(201);
    await api.revertir(a(), d.body.data.id_dispensa).expect(200);
    // The cycle that held the prescription forever is broken: the reverser waits its turn...
    await reiterada(a(), cuir);
    // ...the other pharmacy gets it, and the prescriber could cancel it meanwhile.
    const theirs = (await api.reservar(b(), cuir).expect(201)).body.data;
    await api.liberar(b(), theirs.reserva_id).expect(204);
    await api.anular(owner, id).expect(200);
    // A reversal of a dispensation made without a reservation ends the turn the same way.
    const other = registrationBody({ items: [{ nombre: 'Ibuprofeno 400 mg', cantidad: 1 }] });
    await register(t, owner, other).expect(201);
    const plain = await api
      .dispensar(a(), dispensaBody(other.cuir as string, [[1, 1]]))
      .expect(201);
    await api.revertir(a(), plain.body.data.id_dispensa).expect(200);
    await reiterada(a(), other.cuir as string);
    // Once DISPENSA_RESERVA_MINUTOS has passed since the reversal, it may reserve again.
    await sleep(MINUTOS_S * 1000 + 300);
    await api.reservar(a(), other.cuir as string).expect(201);
  }, 30_000);

  it('the refusal is written to the event log', async () => {
    const cuir = await registered();
    const made = (await api.reservar(a(), cuir).expect(201)).body.data;
    await api.liberar(a(), made.reserva_id).expect(204);
    await reiterada(a(), cuir);
    const rows: Array<{ tipo: string; resultado: string }> = await db.query(
      `SELECT tipo, resultado FROM auditoria_eventos WHERE cuir = $1 AND actor = $2 ORDER BY id`,
      [cuir, a().id],
    );
    expect(rows.map((r) => [r.tipo, r.resultado])).toEqual([
      ['reserva', 'ok'],
      ['reserva_liberada', 'ok'],
      ['reserva', 'RESERVA_REITERADA'],
    ]);
  });

  it('documents the cap and the turn rule on the operation, RESERVA_REITERADA under 409', async () => {
    const doc = (await request(t.url).get('/openapi.json')).body;
    const op = doc.paths['/v1/dispensas/reservas'].post;
    expect(op.description).toContain('DISPENSA_RESERVA_MAX_MINUTOS');
    expect(op.description).toContain('RESERVA_REITERADA');
    expect(op.responses['409'].description).toContain('RESERVA_REITERADA');
  });
});
