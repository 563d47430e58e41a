import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createClient, TestClient } from './support/clients.js';
import { dispensaBody } from './support/dispensas.js';
import { register, registrationBody } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

interface Evento {
  tipo: string;
  cuir: string | null;
  id_transaccion: string | null;
  actor: string;
  resultado: string;
  request_id: string | null;
  client_request_id: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('GET /v1/recetas/{id}/eventos: the event log of a prescription (contract §8)', () => {
  let t: TestApp;
  let owner: TestClient;
  let pharmacy: TestClient;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createClient(t);
    pharmacy = await createClient(t);
  });
  afterAll(() => t?.stop());

  const eventos = (c: TestClient, id: string, query = '') =>
    request(t.url).get(`/v1/recetas/${id}/eventos${query}`).set(c.headers);

  it('holds the registration and each verification, with actor, result and request id, oldest first', async () => {
    const requestId = `req-${randomUUID()}`;
    const body = registrationBody();
    const created = await register(t, owner, body, { 'X-Request-Id': requestId }).expect(201);
    const id = created.body.data.id_transaccion as string;
    await request(t.url)
      .get(`/v1/recetas/verificar/${body.cuir as string}`)
      .set(pharmacy.headers)
      .expect(200);

    const res = await eventos(owner, id).expect(200);
    expect(res.body.data).toMatchObject({ total: 2, page: 1, per_page: 50 });
    const items = res.body.data.items as Evento[];
    expect(items.map((e) => [e.tipo, e.actor, e.resultado])).toEqual([
      ['registro', owner.id, 'ok'],
      ['verificacion', pharmacy.id, 'ok'],
    ]);
    expect(items[0]).toMatchObject({
      cuir: body.cuir,
      id_transaccion: id,
      client_request_id: requestId,
    });
    expect(items[0].request_id).toMatch(UUID);
    // No X-Request-Id sent: the id the service minted is the one it answered with.
    expect(items[1].client_request_id).toBeNull();
    expect(items[1].request_id).toMatch(UUID);

    const second = await eventos(owner, id, '?page=2&per_page=1').expect(200);
    expect((second.body.data.items as Evento[]).map((e) => e.tipo)).toEqual(['verificacion']);
  });

  it('logs refused registrations with their code', async () => {
    const body = registrationBody();
    await register(t, owner, body).expect(201);
    const requestId = `dup-${randomUUID()}`;
    await register(t, owner, body, { 'X-Request-Id': requestId }).expect(409);
    const [row] = await t.app
      .get((await import('typeorm')).DataSource)
      .query(
        `SELECT tipo, cuir, actor, resultado FROM auditoria_eventos WHERE client_request_id = $1`,
        [requestId],
      );
    expect(row).toEqual({
      tipo: 'registro',
      cuir: body.cuir,
      actor: owner.id,
      resultado: 'CUIR_ALREADY_REGISTERED',
    });
  });

  it("keeps a client's X-Request-Id apart from the service's request id (security review, issue 27)", async () => {
    // A pharmacy's text must not pass for the service's own record on the prescriber's log.
    const planted = 'ANMAT:dispensa-anulada-por-prescriptor';
    const body = registrationBody();
    const id = (await register(t, owner, body).expect(201)).body.data.id_transaccion as string;
    const dispensed = await request(t.url)
      .post('/v1/dispensas')
      .set(pharmacy.headers)
      .set('X-Request-Id', planted)
      .send(dispensaBody(body.cuir as string, [[1, 1]]))
      .expect(201);
    // Still echoed to the client that sent it.
    expect(dispensed.headers['x-request-id']).toBe(planted);
    const refused = await request(t.url)
      .post('/v1/dispensas')
      .set(pharmacy.headers)
      .set('X-Request-Id', planted)
      .send(dispensaBody(body.cuir as string, [[1, 1]]))
      .expect(409);
    expect(refused.body.request_id).toBe(planted);

    const items = (await eventos(owner, id).expect(200)).body.data.items as Evento[];
    const dispensas = items.filter((e) => e.tipo === 'dispensa');
    expect(dispensas.map((e) => e.resultado)).toEqual(['ok', 'ITEM_YA_DISPENSADO']);
    for (const e of dispensas) {
      expect(e.request_id).toMatch(UUID);
      expect(e.client_request_id).toBe(planted);
    }
    expect(dispensas[0].request_id).not.toBe(dispensas[1].request_id);
    expect(items.some((e) => e.request_id === planted)).toBe(false);
  });

  it("answers another client's prescription like a missing one", async () => {
    const created = await register(t, owner, registrationBody()).expect(201);
    const other = await eventos(pharmacy, created.body.data.id_transaccion as string).expect(404);
    const missing = await eventos(pharmacy, '999999999').expect(404);
    expect(other.body.error).toEqual(missing.body.error);
  });
});
