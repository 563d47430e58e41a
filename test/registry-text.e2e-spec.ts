import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createClient, TestClient } from './support/clients.js';
import { register, registrationBody, waitForFinal } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

/** What a compromised or careless registry sends: an override, an escape sequence, NUL, U+2028. */
const APELLIDO = 'G\u00d3MEZ\u202e\u200f';
const NOMBRE = '\u200eLAURA\u0000\u001b\u2028FIRMA: DR. HOUSE';

/**
 * SPEC 11.6: text that comes from the registries (a prescriber's name from REFEPS) is cleaned of
 * controls, separators and invisible format characters before it is stored, printed or shown.
 * A REFEPS of our own answers the prescriber's name with them; the public page, the document and
 * the professional verification must show it clean.
 */
describe('text from the registries is cleaned (SPEC 11.6)', () => {
  let refeps: Server;
  let t: TestApp;
  let owner: TestClient;

  beforeAll(async () => {
    refeps = createServer((_req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(
        JSON.stringify({
          resultado: 'OK',
          apellido: APELLIDO,
          nombre: NOMBRE,
          tipoDocumento: 'DNI',
          numeroDocumento: '25111222',
          matriculas: {
            matricula: {
              codigo: '8123456',
              matricula: '123456',
              profesion: 'M\u00e9dico\u2029',
              jurisdiccion: 'Ciudad Aut\u00f3noma de Buenos Aires',
              estado: 'Habilitado',
              vigente: 'SI',
            },
          },
        }),
      );
    });
    await new Promise<void>((resolve) => refeps.listen(0, '127.0.0.1', resolve));
    const { port } = refeps.address() as AddressInfo;
    t = await startTestApp({ REFEPS_BASE_URL: `http://127.0.0.1:${port}` });
    owner = await createClient(t, {
      scopes: ['cuir:write', 'recetas:write', 'recetas:read', 'profesional:read'],
    });
  });
  afterAll(async () => {
    await t?.stop();
    await new Promise((resolve) => refeps?.close(resolve));
  });

  const CLEAN = 'GÓMEZ, LAURA FIRMA: DR. HOUSE';
  /** What the registry sent and nothing may show: a control, a separator, a mark or override. */
  const RAW = /[\p{Cc}\p{Zl}\p{Zp}\p{Cf}]/u;

  it("the public page shows the prescriber's name without them, as page and as JSON", async () => {
    const body = registrationBody();
    const id = (await register(t, owner, body).expect(201)).body.data.id_transaccion as string;
    await waitForFinal(t, owner, id);
    const res = await fetch(
      `${t.sandboxUrl}/__sandbox/ministerio/punteros?cuir=${body.cuir as string}`,
    );
    const [pointer] = (
      (await res.json()) as { punteros: Array<{ payload: Record<string, string> }> }
    ).punteros;
    const url = new URL(pointer.payload.url_verificacion);
    const link = url.pathname + url.search;

    const data = (await request(t.url).get(link).set('Accept', 'application/json').expect(200)).body
      .data;
    expect(data.profesional_nombre).toBe(CLEAN);
    const page = await request(t.url).get(link).set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('GÓMEZ, LAURA FIRMA: DR. HOUSE');
    // The page's own markup has line breaks; what the registry sent must not be there.
    for (const ch of [...APELLIDO, ...NOMBRE].filter((c) => RAW.test(c)))
      expect(page.text).not.toContain(ch);
  });

  it('the professional verification answers the cleaned name', async () => {
    const res = await request(t.url)
      .post('/v1/profesional/verificar')
      .set(owner.headers)
      .send({ documento: '25111222' })
      .expect(200);
    expect(res.body.data).toMatchObject({ apellido: 'GÓMEZ', nombre: 'LAURA FIRMA: DR. HOUSE' });
    for (const v of Object.values(res.body.data))
      if (typeof v === 'string') expect(v).not.toMatch(RAW);
  });
});
