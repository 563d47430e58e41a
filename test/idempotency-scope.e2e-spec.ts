import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { createClient, TestClient } from './support/clients.js';
import { dispensaBody, dispensasApi, PHARMACY_SCOPES } from './support/dispensas.js';
import { register, registrationBody } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * An Idempotency-Key's scope (contract §3): one client's, shared by every endpoint, and bound
 * to the method, the actual path (its ids) and the body. The same key and body on another
 * resource is 409, never a replay of the other resource's answer (security review, issue 27).
 */
describe('Idempotency-Key: bound to the actual path, never replayed across resources', () => {
  let t: TestApp;
  let owner: TestClient;
  let farmacia: TestClient;
  const api = dispensasApi(() => t);

  beforeAll(async () => {
    t = await startTestApp({ MINISTRY_DELIVERY_ENABLED: 'false' });
    owner = await createClient(t, { scopes: ['cuir:write', 'recetas:write', 'recetas:read'] });
    farmacia = await createClient(t, { scopes: [...PHARMACY_SCOPES] });
  });
  afterAll(() => t?.stop());

  const registered = async () => {
    const body = registrationBody();
    const res = await register(t, owner, body).expect(201);
    return { id: res.body.data.id_transaccion as string, cuir: body.cuir as string };
  };
  const reused = (res: Response) => {
    expect(res.status).toBe(409);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(res.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  };

  it('POST /v1/recetas/{id}/anular: the key of one prescription is 409 on another', async () => {
    const [r1, r2] = [await registered(), await registered()];
    const key = { 'Idempotency-Key': randomUUID() };
    const first = await api.anular(owner, r1.id, 'Motivo', key).expect(200);
    expect(first.body.data.id_transaccion).toBe(r1.id);

    reused(await api.anular(owner, r2.id, 'Motivo', key));
    expect((await api.detalle(owner, r2.id)).body.data.estado_receta).toBe('VIGENTE');
    // The first prescription's key still replays its own answer.
    const again = await api.anular(owner, r1.id, 'Motivo', key).expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('POST /v1/dispensas/{id}/revertir: the key of one dispensation is 409 on another', async () => {
    const dispensa = async () => {
      const r = await registered();
      const d = await api.dispensar(farmacia, dispensaBody(r.cuir, [[1, 1]])).expect(201);
      return d.body.data.id_dispensa as string;
    };
    const [a, b] = [await dispensa(), await dispensa()];
    const key = { 'Idempotency-Key': randomUUID() };
    const first = await api.revertir(farmacia, a, 'Cargada por error', key).expect(200);
    expect(first.body.data.id_dispensa).toBe(a);

    reused(await api.revertir(farmacia, b, 'Cargada por error', key));
    expect((await api.obtener(farmacia, b).expect(200)).body.data.revertida).toBe(false);
  });

  it('is shared across endpoints: a key used on one endpoint is 409 on another', async () => {
    const r = await registered();
    const key = { 'Idempotency-Key': randomUUID() };
    await api.anular(owner, r.id, 'Motivo', key).expect(200);
    reused(await register(t, owner, registrationBody(), key));
  });
});
