import request from 'supertest';
import { createClient, TestClient } from './support/clients.js';
import { pdfBarcodes, pdfPageCount, pdfText, withTools } from './support/pdf-tools.js';
import { register, registrationBody } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

const PUBLIC = 'https://recetas.example.org';

/** GET as a Buffer (supertest would otherwise not keep a binary body). */
const binary = (req: request.Test) =>
  req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
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
      const text = await pdfText(pdf);
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
          `QR-Code:${PUBLIC}/v1/recetas/verificar/${cuir}`,
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
