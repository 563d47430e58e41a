import request from 'supertest';
import { DataSource } from 'typeorm';
import { createClient, TestClient } from './support/clients.js';
import { dispensaBody, dispensasApi, PHARMACY_SCOPES } from './support/dispensas.js';
import { fullContent, register, registrationBody, waitForFinal } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

const LIMIT = 4;

/**
 * SPEC 11.8 and 11.10: every answer of the public page — its 400 for an unknown query parameter
 * included — carries the page's headers and counts against the address's budget; an anonymous
 * caller's X-Request-Id is never stored; and the page shows exactly what section 9.4 lists.
 */
describe('the public page: every answer, its headers, its budget, its fields', () => {
  let t: TestApp;
  let owner: TestClient;
  let farmacia: TestClient;
  const api = dispensasApi(() => t);

  beforeAll(async () => {
    t = await startTestApp({
      VERIFICACION_PUBLICA_POR_MINUTO: String(LIMIT),
      TRUST_PROXY: 'loopback',
    });
    owner = await createClient(t);
    farmacia = await createClient(t, { scopes: [...PHARMACY_SCOPES] });
  });
  afterAll(async () => {
    await t.stop();
  });

  /** A registered prescription and its printed link (path and query). */
  const registeredWithLink = async (over: Record<string, unknown> = {}) => {
    const body = registrationBody(over);
    const id = (await register(t, owner, body).expect(201)).body.data.id_transaccion as string;
    await waitForFinal(t, owner, id);
    const res = await fetch(
      `${t.sandboxUrl}/__sandbox/ministerio/punteros?cuir=${body.cuir as string}`,
    );
    const [pointer] = (
      (await res.json()) as { punteros: Array<{ payload: Record<string, string> }> }
    ).punteros;
    const url = new URL(pointer.payload.url_verificacion);
    return { id, cuir: body.cuir as string, link: url.pathname + url.search };
  };
  /** Each address gets its own budget: tests do not spend each other's. */
  let n = 0;
  const fromNewAddress = () => `198.51.100.${++n}`;
  const get = (path: string, accept: string, from: string) =>
    request(t.url).get(path).set('Accept', accept).set('X-Forwarded-For', from);

  const pageHeaders = (res: request.Response, remaining?: number) => {
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'/);
    expect(res.headers.vary).toMatch(/\bAccept\b/);
    expect(res.headers['ratelimit-limit']).toBe(String(LIMIT));
    if (remaining !== undefined) expect(res.headers['ratelimit-remaining']).toBe(String(remaining));
    expect(res.headers['ratelimit-reset']).toBeDefined();
  };

  it('a 400 for an unknown query parameter carries the headers and counts; past the budget, 429', async () => {
    const { link } = await registeredWithLink();
    const from = fromNewAddress();
    const bad = `${link}&utm_source=qr`;
    for (const [i, accept] of ['application/json', 'text/html'].entries()) {
      const res = await get(bad, accept, from).expect(400);
      expect(res.body.error.code).toBe('UNKNOWN_FIELD');
      pageHeaders(res, LIMIT - 1 - i);
    }
    pageHeaders(await get(link, 'application/json', from).expect(200), LIMIT - 3);
    pageHeaders(await get(`${link}x`, 'text/html', from).expect(404), LIMIT - 4);
    // The budget is spent: the 400s counted like the views.
    const limited = await get(bad, 'application/json', from).expect(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    pageHeaders(limited, 0);
    pageHeaders(await get(link, 'text/html', from).expect(429), 0);
  });

  it('a path the router cannot decode, or a body, is an answer of the page too: headers, counted', async () => {
    const from = fromNewAddress();
    const undecodable = await get('/r/%E0%A4%A?f=x', 'application/json', from).expect(400);
    pageHeaders(undecodable, LIMIT - 1);
    const malformed = await get('/r/1?f=x', 'application/json', from)
      .set('Content-Type', 'application/json')
      .send('{"a":');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('MALFORMED_JSON');
    pageHeaders(malformed, LIMIT - 2);
  });

  it("an anonymous caller's X-Request-Id is echoed but never stored; an authenticated client's is", async () => {
    const { cuir, link } = await registeredWithLink();
    const res = await get(link, 'text/html', fromNewAddress())
      .set('X-Request-Id', 'planted-by-anyone')
      .expect(200);
    expect(res.headers['x-request-id']).toBe('planted-by-anyone');
    await api.verificar(farmacia, cuir).set('X-Request-Id', 'pos-42').expect(200);
    const rows = await t.app
      .get(DataSource)
      .query(
        `SELECT tipo, client_request_id FROM auditoria_eventos WHERE cuir = $1 AND tipo IN ('verificacion_publica', 'verificacion') ORDER BY id`,
        [cuir],
      );
    expect(rows).toEqual([
      { tipo: 'verificacion_publica', client_request_id: null },
      { tipo: 'verificacion', client_request_id: 'pos-42' },
    ]);
  });

  it('shows exactly the fields of section 9.4 (with dci and concentracion), no more', async () => {
    const { paciente, cobertura, diagnostico } = fullContent();
    const { cuir, link } = await registeredWithLink({
      paciente,
      cobertura,
      diagnostico,
      items: [
        {
          nombre: 'Ibuprofeno 400 mg comprimidos',
          cantidad: 2,
          codigo: '1336421',
          dci: 'ibuprofeno',
          concentracion: '400 mg',
          forma_farmaceutica: 'comprimido',
          presentacion: 'envase x 20',
          posologia: '1 cada 8 horas',
          sustituible: false,
        },
        { nombre: 'Amoxicilina 500 mg', cantidad: 1 },
      ],
    });
    await api.dispensar(farmacia, dispensaBody(cuir, [[1, 1]])).expect(201);
    const data = (await get(link, 'application/json', fromNewAddress()).expect(200)).body.data;
    expect(Object.keys(data).sort()).toEqual(
      [
        'content_sha256',
        'cuir',
        'estado_receta',
        'fecha_creacion',
        'items',
        'jurisdiccion',
        'jurisdiccion_nombre',
        'matricula_profesional',
        'profesional_nombre',
        'vigencia_desde',
        'vigencia_hasta',
      ].sort(),
    );
    expect(data.items).toEqual([
      {
        item: 1,
        nombre: 'Ibuprofeno 400 mg comprimidos',
        dci: 'ibuprofeno',
        concentracion: '400 mg',
        cantidad: 2,
        dispensado: 1,
      },
      { item: 2, nombre: 'Amoxicilina 500 mg', cantidad: 1, dispensado: 0 },
    ]);
    // Never the patient, the coverage, the diagnosis, the code or the dosage, in the page either.
    const page = (await get(link, 'text/html', fromNewAddress()).expect(200)).text;
    for (const hidden of [
      '30111222',
      'Fernández',
      'PAMI',
      'J02.9',
      '1336421',
      '1 cada 8 horas',
      'envase x 20',
    ]) {
      expect(page).not.toContain(hidden);
      expect(JSON.stringify(data)).not.toContain(hidden);
    }
    for (const shown of ['Ibuprofeno 400 mg comprimidos', 'ibuprofeno 400 mg', '1 de 2', cuir])
      expect(page).toContain(shown);
  });
});
