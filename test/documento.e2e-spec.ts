import request from 'supertest';
import { createClient, TestClient } from './support/clients.js';
import { pdfBarcodes, pdfPageCount, pdfText, withTools } from './support/pdf-tools.js';
import { register, registrationBody } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

const PUBLIC = 'https://recetas.example.org';

/**
 * GET with a PDF as a Buffer (supertest would otherwise not keep a binary body); an error
 * envelope is still parsed as JSON.
 */
const binary = (req: request.Test) =>
  req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => {
      const body = Buffer.concat(chunks);
      const json = String(res.headers['content-type']).startsWith('application/json');
      done(null, json ? JSON.parse(body.toString()) : body);
    });
  });

describe('GET /v1/recetas/{id}/documento: the printable prescription (contract §8)', () => {
  let t: TestApp;
  let owner: TestClient;
  let other: TestClient;

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_BASE_URL: PUBLIC });
    owner = await createClient(t);
    other = await createClient(t);
  });
  afterAll(() => t?.stop());

  const documento = (c: TestClient, id: string) =>
    binary(request(t.url).get(`/v1/recetas/${id}/documento`).set(c.headers));

  it('is one A4 page with the CUIR, the items, a Code 128 of the CUIR and a QR of its verification URL', async () => {
    const body = registrationBody({
      items: [
        { nombre: 'Ibuprofeno 400 mg comprimidos — tomar uno cada 8 h', cantidad: 2 },
        { nombre: 'Enalapril 10 mg, pañuelo y cápsula (acentos: á é í ó ú ñ)', cantidad: 1 },
      ],
    });
    const cuir = body.cuir as string;
    const id = (await register(t, owner, body).expect(201)).body.data.id_transaccion as string;
    const res = await documento(owner, id).expect(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('no-store');
    const pdf = res.body as Buffer;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

    await withTools(['pdftotext', 'pdfinfo'], 'the PDF text and page count', async () => {
      // Whitespace made single spaces: a name wrapped in its column still reads as one line.
      const text = (await pdfText(pdf)).replace(/\s+/g, ' ');
      expect(text.replace(/\s+/g, '')).toContain(cuir);
      expect(text).toContain('Ibuprofeno 400 mg comprimidos');
      expect(text).toContain('pañuelo y cápsula (acentos: á é í ó ú ñ)');
      expect(text).toContain('VIGENTE');
      expect(await pdfPageCount(pdf)).toBe(1);
    });
    await withTools(['pdftoppm', 'zbarimg'], 'the barcodes at 150 dpi', async () => {
      expect(await pdfBarcodes(pdf, 150)).toEqual(
        expect.arrayContaining([
          `CODE-128:${cuir}`,
          // The public verification link (contract §9.4): the CUIR and its signature.
          expect.stringMatching(new RegExp(`^QR-Code:${PUBLIC}/r/${cuir}\\?f=[A-Za-z0-9_-]{22}$`)),
        ]),
      );
    });
  });

  it('marks a cancelled prescription ANULADA', async () => {
    const id = (await register(t, owner, registrationBody()).expect(201)).body.data
      .id_transaccion as string;
    await request(t.url)
      .post(`/v1/recetas/${id}/anular`)
      .set(owner.headers)
      .send({ motivo: 'Error en la dosis indicada' })
      .expect(200);
    const pdf = (await documento(owner, id).expect(200)).body as Buffer;
    await withTools(['pdftotext'], 'the ANULADA mark', async () => {
      const text = await pdfText(pdf);
      expect(text).toContain('ANULADA');
      expect(text).toContain('Error en la dosis indicada');
    });
  });

  it("answers another client's prescription like a missing one", async () => {
    const id = (await register(t, owner, registrationBody()).expect(201)).body.data
      .id_transaccion as string;
    const theirs = await request(t.url).get(`/v1/recetas/${id}/documento`).set(other.headers);
    const missing = await request(t.url).get('/v1/recetas/999999999/documento').set(other.headers);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toEqual(missing.body.error);
  });
});

describe('the printable prescription under load: worker threads, a short queue, then 503', () => {
  let t: TestApp;
  let owner: TestClient;

  // One worker and one waiting render: the rest of a burst must be refused, never a 500.
  beforeAll(async () => {
    t = await startTestApp({ PDF_RENDERS_MAX: '1', PDF_RENDERS_QUEUE: '1' });
    owner = await createClient(t);
  });
  afterAll(() => t?.stop());

  it('answers a burst with PDFs and 503 SERVICE_UNAVAILABLE with Retry-After, no 500', async () => {
    const body = registrationBody();
    const cuir = body.cuir as string;
    const id = (await register(t, owner, body).expect(201)).body.data.id_transaccion as string;
    const answers = await Promise.all(
      Array.from({ length: 16 }, () =>
        binary(request(t.url).get(`/v1/recetas/${id}/documento`).set(owner.headers)),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    const busy = answers.filter((a) => a.status === 503);
    const ok = answers.filter((a) => a.status === 200);
    expect(busy.length).toBeGreaterThan(0);
    expect(ok.length).toBeGreaterThanOrEqual(2);
    for (const a of busy) {
      expect(a.headers['retry-after']).toMatch(/^[1-9]\d*$/);
      expect(a.body.error.code).toBe('SERVICE_UNAVAILABLE');
    }
    const pdfs = ok.map((a) => a.body as Buffer);
    // The same view renders the same bytes, in whichever worker.
    for (const pdf of pdfs) expect(pdf.equals(pdfs[0])).toBe(true);
    await withTools(['pdftotext'], 'the PDFs rendered under load', async () => {
      expect((await pdfText(pdfs[0])).replace(/\s+/g, '')).toContain(cuir);
    });
    // The refused downloads are in the event log too, and the service still renders.
    const log = await request(t.url)
      .get(`/v1/recetas/${id}/eventos?per_page=100`)
      .set(owner.headers)
      .expect(200);
    const documentos = (log.body.data.items as { tipo: string; resultado: string }[])
      .filter((e) => e.tipo === 'documento')
      .map((e) => e.resultado);
    expect(documentos.filter((r) => r === 'SERVICE_UNAVAILABLE')).toHaveLength(busy.length);
    expect(documentos.filter((r) => r === 'ok')).toHaveLength(ok.length);
    await documentoOk(t, owner, id);
  });
});

async function documentoOk(t: TestApp, c: TestClient, id: string): Promise<void> {
  const res = await binary(request(t.url).get(`/v1/recetas/${id}/documento`).set(c.headers));
  expect(res.status).toBe(200);
  expect((res.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');
}
