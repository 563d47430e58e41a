import request from 'supertest';
import { DataSource } from 'typeorm';
import { createClient, TestClient } from './support/clients.js';
import { dispensaBody, dispensasApi, PHARMACY_SCOPES } from './support/dispensas.js';
import {
  fullContent,
  newCuir,
  register,
  registrationBody,
  waitForFinal,
} from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

/** Contract §9.4: the public verification behind the printed QR. */
describe('GET /r/{cuir}?f=… (the public verification)', () => {
  let t: TestApp;
  let owner: TestClient;
  let farmacia: TestClient;
  const api = dispensasApi(() => t);

  beforeAll(async () => {
    // Room for every view below; the limit has an app of its own (the last test).
    t = await startTestApp({ VERIFICACION_PUBLICA_POR_MINUTO: '1000' });
    owner = await createClient(t);
    farmacia = await createClient(t, { scopes: [...PHARMACY_SCOPES] });
  });
  afterAll(async () => {
    await t.stop();
  });

  /** A registered prescription and the link the ministry's pointer carries (path and query). */
  const registeredWithLink = async () => {
    const { paciente, cobertura, diagnostico } = fullContent();
    const body = registrationBody({
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
        },
        { nombre: 'Amoxicilina <b>500</b> mg', cantidad: 1 },
      ],
    });
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
  const html = (path: string) => request(t.url).get(path).set('Accept', 'text/html');
  const json = (path: string) => request(t.url).get(path).set('Accept', 'application/json');

  it('shows a phone the prescription, never the patient: a page in Spanish, or JSON on request', async () => {
    const { cuir, link } = await registeredWithLink();
    expect(link).toMatch(new RegExp(`^/r/${cuir}\\?f=[A-Za-z0-9_-]{22}$`));
    await api.dispensar(farmacia, dispensaBody(cuir, [[1, 1]])).expect(201);

    const page = await html(link).expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['x-robots-tag']).toBe('noindex');
    expect(page.headers['content-security-policy']).toMatch(
      /^default-src 'none'; style-src 'sha256-/,
    );
    expect(page.text).toContain('Receta registrada');
    expect(page.text).toContain('Dispensada parcialmente');
    expect(page.text).toContain(cuir);
    expect(page.text).toContain('1 de 2');
    expect(page.text).toContain('ibuprofeno 400 mg');
    // Escaped: an item's text never becomes markup.
    expect(page.text).toContain('Amoxicilina &lt;b&gt;500&lt;/b&gt; mg');
    // Never the patient: document, name, coverage or diagnosis.
    for (const secret of [
      '30111222',
      'Fernández',
      'Ana María',
      'PAMI',
      '15-12345678-9/00',
      'J02.9',
    ])
      expect(page.text).not.toContain(secret);

    const data = (await json(link).expect(200)).body.data;
    expect(data).toMatchObject({
      cuir,
      estado_receta: 'DISPENSADA_PARCIAL',
      matricula_profesional: '123456',
      jurisdiccion: '02',
      jurisdiccion_nombre: 'Ciudad Autónoma de Buenos Aires',
      items: [
        {
          item: 1,
          nombre: 'Ibuprofeno 400 mg comprimidos',
          dci: 'ibuprofeno',
          concentracion: '400 mg',
          cantidad: 2,
          dispensado: 1,
        },
        { item: 2, nombre: 'Amoxicilina <b>500</b> mg', cantidad: 1, dispensado: 0 },
      ],
    });
    expect(data.content_sha256).toMatch(/^[0-9a-f]{64}$/);
    for (const secret of ['30111222', 'Fernández', 'PAMI', 'J02.9'])
      expect(JSON.stringify(data)).not.toContain(secret);
    expect(Object.keys(data)).not.toContain('documento_paciente');
  });

  it('one 404 whatever the reason: a wrong, missing or borrowed signature, an unknown or malformed CUIR', async () => {
    const a = await registeredWithLink();
    const b = await registeredWithLink();
    const f = new URL(a.link, 'http://x').searchParams.get('f') as string;
    const flipped = (f[0] === 'A' ? 'B' : 'A') + f.slice(1);
    const refused = [
      `/r/${a.cuir}?f=${flipped}`,
      `/r/${a.cuir}`,
      `/r/${a.cuir}?f=`,
      `/r/${b.cuir}?f=${f}`, // A's signature on B's CUIR
      `/r/${newCuir()}?f=${f}`,
      `/r/12345?f=${f}`,
      `/r/${a.cuir}?f=${f}&f=${f}`,
    ];
    const bodies = new Set<string>();
    const pages = new Set<string>();
    for (const path of refused) {
      const r = await json(path).expect(404);
      bodies.add(JSON.stringify({ ...r.body, request_id: undefined }));
      pages.add((await html(path).expect(404)).text);
    }
    expect([...bodies]).toEqual([
      JSON.stringify({
        success: false,
        error: { code: 'NOT_FOUND', message: 'Prescription not found' },
      }),
    ]);
    expect(pages.size).toBe(1);
    expect([...pages][0]).toContain('Receta no encontrada');
  });

  it('every view is an event of the sealed log, actor publico', async () => {
    const { cuir, link } = await registeredWithLink();
    await html(link).expect(200);
    await html(`${link.split('?')[0]}?f=nope`).expect(404);
    const rows = await t.app
      .get(DataSource)
      .query(
        `SELECT actor, resultado FROM auditoria_eventos WHERE tipo = 'verificacion_publica' AND cuir = $1 ORDER BY id`,
        [cuir],
      );
    expect(rows).toEqual([
      { actor: 'publico', resultado: 'ok' },
      { actor: 'publico', resultado: 'NOT_FOUND' },
    ]);
  });

  it('rate limited per address: past VERIFICACION_PUBLICA_POR_MINUTO (3 here) → 429 with Retry-After', async () => {
    const { link } = await registeredWithLink();
    const limited = await startTestApp({ VERIFICACION_PUBLICA_POR_MINUTO: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await request(limited.url).get(link)).status);
      expect(statuses.slice(0, 3)).not.toContain(429);
      const refused = await request(limited.url).get(link).set('Accept', 'application/json');
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('RATE_LIMITED');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      const page = await request(limited.url).get(link).set('Accept', 'text/html').expect(429);
      expect(page.text).toContain('Demasiadas consultas');
    } finally {
      await limited.stop();
    }
  });
});
