import request from 'supertest';
import { DataSource } from 'typeorm';
import { createClient, TestClient } from './support/clients.js';
import { newCuir, register, registrationBody } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

describe('GET /v1/recetas/verificar/{cuir} (dispensers)', () => {
  let t: TestApp;
  let owner: TestClient;
  let dispenser: TestClient;
  let other: TestClient;

  beforeAll(async () => {
    t = await startTestApp({ MINISTRY_DELIVERY_ENABLED: 'false' });
    owner = await createClient(t, { scopes: ['cuir:write', 'recetas:write', 'recetas:read'] });
    dispenser = await createClient(t, { scopes: ['recetas:verify'] });
    other = await createClient(t, { scopes: ['recetas:read'] });
  });
  afterAll(async () => {
    await t.stop();
  });

  const verify = (c: TestClient, cuir: string) =>
    request(t.url).get(`/v1/recetas/verificar/${cuir}`).set(c.headers);
  const audit = (c: TestClient, q: Record<string, string> = {}) =>
    request(t.url)
      .get('/v1/verificaciones')
      .query({
        fecha_desde: new Date(Date.now() - 3600_000).toISOString(),
        fecha_hasta: new Date(Date.now() + 60_000).toISOString(),
        ...q,
      })
      .set(c.headers);

  it("answers for another client's prescription with a minimal projection and no patient document", async () => {
    const body = registrationBody();
    await register(t, owner, body).expect(201);
    const res = await verify(dispenser, body.cuir as string).expect(200);
    const fecha = new Date(body.fecha_creacion as string);
    const desde = new Date(fecha.getTime() - 3 * 3600_000).toISOString().slice(0, 10);
    const hasta = new Date(Date.parse(desde) + 29 * 86_400_000).toISOString().slice(0, 10);
    expect(res.body.data).toEqual({
      cuir: body.cuir,
      estado: 'PENDING',
      estado_receta: 'VIGENTE',
      fecha_creacion: fecha.toISOString(),
      vigencia_desde: desde,
      vigencia_hasta: hasta,
      matricula_profesional: '123456',
      jurisdiccion: '02',
      items: (body.items as object[]).map((i, n) => ({
        item: n + 1,
        ...i,
        // SPEC 9.2: always said; true unless the prescriber forbade substitution.
        sustituible: true,
        dispensado: 0,
        dispensable: true,
      })),
      reserva: null,
      content_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(JSON.stringify(res.body)).not.toContain('30111222');
  });

  it('audits every call; the owner lists them, others see none', async () => {
    const body = registrationBody();
    await register(t, owner, body).expect(201);
    await verify(dispenser, body.cuir as string).expect(200);
    await verify(dispenser, body.cuir as string).expect(200);
    const res = await audit(owner, { cuir: body.cuir as string }).expect(200);
    expect(res.body.data.total).toBe(2);
    expect(res.body.data.items[0]).toMatchObject({
      cuir: body.cuir,
      verificado_por_id: dispenser.id,
    });
    expect(res.body.data.items[0].verificado_por).toMatch(/^test-/);
    expect((await audit(other, { cuir: body.cuir as string }).expect(200)).body.data.total).toBe(0);
  });

  it('the hash is stable and changes when the registered content differs', async () => {
    const body = registrationBody();
    await register(t, owner, body).expect(201);
    const first = (await verify(dispenser, body.cuir as string)).body.data.content_sha256;
    expect((await verify(dispenser, body.cuir as string)).body.data.content_sha256).toBe(first);
    // Tamper with the stored content: the hash must tell.
    await t.app
      .get(DataSource)
      .query(`UPDATE recetas SET items = '[{"nombre":"Otro","cantidad":9}]' WHERE cuir = $1`, [
        body.cuir,
      ]);
    expect((await verify(dispenser, body.cuir as string)).body.data.content_sha256).not.toBe(first);
    const twin = registrationBody({ items: [{ nombre: 'Otro', cantidad: 3 }] });
    await register(t, owner, twin).expect(201);
    expect((await verify(dispenser, twin.cuir as string)).body.data.content_sha256).not.toBe(first);
  });

  it('unknown CUIR → 404 (and audited); malformed → 400; without the scope → 403', async () => {
    const unknown = newCuir();
    const res = await verify(dispenser, unknown).expect(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    const rows = await t.app
      .get(DataSource)
      .query('SELECT found FROM verificaciones_cuir WHERE cuir = $1', [unknown]);
    expect(rows).toEqual([{ found: false }]);
    await verify(dispenser, '123').expect(400);
    await verify(owner, unknown).expect(403);
  });

  it('is documented in OpenAPI with its scope', async () => {
    const doc = (await request(t.url).get('/openapi.json')).body;
    const op = doc.paths['/v1/recetas/verificar/{cuir}'].get;
    expect(op['x-required-scope']).toBe('recetas:verify');
    expect(JSON.stringify(op.responses['200'])).toContain('VerificacionRecetaDto');
  });
});
