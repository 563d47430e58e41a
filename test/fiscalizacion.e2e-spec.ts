import request from 'supertest';
import { DataSource } from 'typeorm';
import { ApiClientsService, parseScopes } from '../src/auth/api-clients.service.js';
import { allScopes, knownScopes } from '../src/common/http/scopes.js';
import { createClient, TestClient } from './support/clients.js';
import { dispensaBody, dispensasApi, PHARMACY_SCOPES } from './support/dispensas.js';
import { pdfBarcodes, pdfText, withTools } from './support/pdf-tools.js';
import { fullContent, newCuir, register, registrationBody } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

const PUBLIC = 'https://recetas.example.org';

/** SPEC 9.3's required members, every one given (fullContent's: Ana María, two items). */
const restrictedContent = () => {
  const { paciente, diagnostico, items } = fullContent();
  return { paciente, diagnostico, items };
};

/** A restricted prescription: licence 123456 is enabled in 02, 654321 in 06 (SPEC §5). */
const restricted = (jurisdiction: '02' | '06', subtipo: '03' | '04' = '03') =>
  registrationBody({
    ...restrictedContent(),
    cuir: newCuir({ jurisdiction, medicationType: subtipo }),
    matricula_profesional: jurisdiction === '02' ? '123456' : '654321',
  });

/** SPEC 9.3: restricted prescriptions and the health authority's copy of them. */
describe('restricted prescriptions and the health authority (SPEC 9.3)', () => {
  let t: TestApp;
  let prescriber: TestClient;
  let farmacia: TestClient;
  let autoridad06: TestClient;
  let autoridad02: TestClient;
  const api = dispensasApi(() => t);
  const since = new Date(Date.now() - 120_000).toISOString();

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_BASE_URL: PUBLIC });
    prescriber = await createClient(t);
    farmacia = await createClient(t, { scopes: [...PHARMACY_SCOPES] });
    autoridad06 = await createClient(t, {
      scopes: ['fiscalizacion:read'],
      jurisdicciones: ['06'],
    });
    autoridad02 = await createClient(t, {
      scopes: ['fiscalizacion:read'],
      jurisdicciones: ['02'],
    });
  });
  afterAll(() => t?.stop());

  const listar = (c: TestClient, query: Record<string, string> = {}) =>
    request(t.url)
      .get('/v1/fiscalizacion/recetas')
      .query({
        fecha_desde: since,
        fecha_hasta: new Date(Date.now() + 60_000).toISOString(),
        ...query,
      })
      .set(c.headers);
  const obtener = (c: TestClient, cuir: string) =>
    request(t.url).get(`/v1/fiscalizacion/recetas/${cuir}`).set(c.headers);
  const registered = async (body: Record<string, unknown>) =>
    (await register(t, prescriber, body).expect(201)).body.data.id_transaccion as string;

  describe('registration', () => {
    it.each(['03', '04'] as const)(
      'refuses a subtype %s prescription without its patient and dosage, naming each missing member',
      async (subtipo) => {
        const body = registrationBody({
          cuir: newCuir({ medicationType: subtipo }),
          items: [
            { nombre: 'Clonazepam 2 mg', cantidad: 1, dci: 'clonazepam', concentracion: '2 mg' },
            { nombre: 'Alprazolam 1 mg', cantidad: 1, posologia: '1 por la noche' },
          ],
        });
        const res = await register(t, prescriber, body).expect(400);
        expect(res.body.error.code).toBe('VALIDATION_FAILED');
        expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(
          [
            'paciente',
            'items[0].forma_farmaceutica',
            'items[0].posologia',
            'items[1].dci',
            'items[1].concentracion',
            'items[1].forma_farmaceutica',
          ].sort(),
        );
        expect(res.body.error.details[0].issue).toMatch(/restricted prescription/);
      },
    );

    it('registers a restricted prescription with every required member, and a plain one without', async () => {
      await register(t, prescriber, restricted('02', '04')).expect(201);
      await register(t, prescriber, registrationBody()).expect(201);
    });
  });

  describe('who may be an authority', () => {
    it('--scopes all never includes fiscalizacion:read: it is granted only by name', () => {
      expect(knownScopes()).toContain('fiscalizacion:read');
      expect(allScopes()).not.toContain('fiscalizacion:read');
      expect(parseScopes('all')).not.toContain('fiscalizacion:read');
      expect(parseScopes('fiscalizacion:read')).toEqual(['fiscalizacion:read']);
    });

    it('needs its jurisdictions with that scope, valid INDEC codes, and only with it', async () => {
      const clients = t.app.get(ApiClientsService);
      const refusal = (p: Promise<unknown>) =>
        p.then(
          () => 'accepted',
          (e: { code?: string; details?: Array<{ field: string }> }) =>
            `${e.code}:${e.details?.[0]?.field}`,
        );
      expect(
        await refusal(clients.create('autoridad-sin', { scopes: ['fiscalizacion:read'] })),
      ).toBe('VALIDATION_FAILED:jurisdicciones');
      expect(
        await refusal(
          clients.create('autoridad-99', {
            scopes: ['fiscalizacion:read'],
            jurisdicciones: ['99'],
          }),
        ),
      ).toBe('VALIDATION_FAILED:jurisdicciones');
      expect(
        await refusal(
          clients.create('prescriptor-06', { scopes: ['recetas:write'], jurisdicciones: ['06'] }),
        ),
      ).toBe('VALIDATION_FAILED:jurisdicciones');
      const ok = await clients.create('autoridad-bsas-caba', {
        scopes: ['fiscalizacion:read'],
        jurisdicciones: ['06', '02', '06'],
      });
      expect(ok.client.jurisdicciones).toEqual(['02', '06']);
    });

    it('a prescriber and a pharmacy get 403 on the authority routes', async () => {
      const cuir = newCuir({ medicationType: '03' });
      for (const c of [prescriber, farmacia]) {
        const list = await listar(c).expect(403);
        expect(list.body.error.code).toBe('FORBIDDEN');
        await obtener(c, cuir).expect(403);
      }
    });
  });

  describe('what an authority sees', () => {
    let cuir06: string;
    let cuir02: string;
    let plain06: string;

    beforeAll(async () => {
      const r06 = restricted('06', '03');
      cuir06 = r06.cuir as string;
      await registered(r06);
      const r02 = restricted('02', '04');
      cuir02 = r02.cuir as string;
      await registered(r02);
      // A plain prescription of the same jurisdiction, with every member too.
      const p06 = registrationBody({
        ...restrictedContent(),
        cuir: newCuir({ jurisdiction: '06', medicationType: '02' }),
        matricula_profesional: '654321',
      });
      plain06 = p06.cuir as string;
      await registered(p06);
    });

    it('lists only restricted prescriptions of its own jurisdictions, oldest first', async () => {
      const seen06 = (await listar(autoridad06, { per_page: '200' }).expect(200)).body.data;
      const cuirs06 = seen06.items.map((i: { cuir: string }) => i.cuir);
      expect(cuirs06).toContain(cuir06);
      expect(cuirs06).not.toContain(cuir02);
      expect(cuirs06).not.toContain(plain06);
      expect(seen06.items.every((i: { jurisdiccion: string }) => i.jurisdiccion === '06')).toBe(
        true,
      );
      const times = seen06.items.map((i: { fecha_creacion: string }) => i.fecha_creacion);
      expect([...times].sort()).toEqual(times);
      expect(seen06.total).toBe(seen06.items.length);

      const seen02 = (await listar(autoridad02, { per_page: '200' }).expect(200)).body.data;
      const cuirs02 = seen02.items.map((i: { cuir: string }) => i.cuir);
      expect(cuirs02).toContain(cuir02);
      expect(cuirs02).not.toContain(cuir06);
      // No plain prescription ever: every one listed is type 01, subtype 03 or 04.
      for (const i of [...seen06.items, ...seen02.items] as Array<{ cuir: string }>)
        expect(i.cuir.slice(10, 14)).toMatch(/^01(03|04)$/);
    });

    it('shows the patient, the diagnosis, the items with their dosage and every dispensation', async () => {
      const dispensa = (
        await api
          .dispensar(
            farmacia,
            dispensaBody(cuir06, [{ item: 1, cantidad: 2, codigo: '1336421', sustituido: false }]),
          )
          .expect(201)
      ).body.data;
      await api.revertir(farmacia, dispensa.id_dispensa).expect(200);
      await api.dispensar(farmacia, dispensaBody(cuir06, [[1, 1]])).expect(201);

      const r = (await obtener(autoridad06, cuir06).expect(200)).body.data;
      expect(r).toMatchObject({
        cuir: cuir06,
        subtipo: '03',
        jurisdiccion: '06',
        documento_paciente: '30111222',
        matricula_profesional: '654321',
        paciente: { nombre: 'Ana María', apellido: 'Fernández', sexo: 'F' },
        diagnostico: { codigo: 'J02.9' },
        estado_receta: 'DISPENSADA_PARCIAL',
        anulacion: null,
      });
      // The authority audits prescribing and dispensing, not the insurer.
      expect(r.cobertura).toBeUndefined();
      expect(r.items[0]).toMatchObject({
        dci: 'ibuprofeno',
        concentracion: '400 mg',
        forma_farmaceutica: 'comprimido recubierto',
        posologia: '1 comprimido cada 8 horas durante 5 días',
        dispensado: 1,
      });
      expect(r.dispensas).toHaveLength(2);
      expect(r.dispensas[0]).toMatchObject({
        id_dispensa: dispensa.id_dispensa,
        farmacia: { cuit: '30712345671', nombre: 'Farmacia Central' },
        items: [{ item: 1, cantidad_dispensada: 2, codigo: '1336421', sustituido: false }],
        revertida: true,
      });
      expect(r.dispensas[1]).toMatchObject({ revertida: false, revertida_at: null });

      // The listing carries the same view.
      const listed = (await listar(autoridad06, { per_page: '200' }).expect(200)).body.data.items;
      expect(listed.find((i: { cuir: string }) => i.cuir === cuir06)).toEqual(r);
    });

    it('answers not restricted, another jurisdiction and unknown with one 404', async () => {
      const answers = await Promise.all([
        obtener(autoridad06, plain06),
        obtener(autoridad06, cuir02),
        obtener(autoridad06, newCuir({ jurisdiction: '06', medicationType: '03' })),
        obtener(autoridad06, 'not-a-cuir'),
      ]);
      for (const a of answers) {
        expect(a.status).toBe(404);
        expect(a.body.error).toEqual(answers[0].body.error);
      }
    });

    it('filters by subtype, licence and document, and pages', async () => {
      const more = restricted('06', '04');
      await registered(more);
      const only04 = (await listar(autoridad06, { subtipo: '04', per_page: '200' }).expect(200))
        .body.data;
      expect(only04.items.map((i: { cuir: string }) => i.cuir)).toContain(more.cuir);
      expect(only04.items.every((i: { subtipo: string }) => i.subtipo === '04')).toBe(true);

      const byLicence = (await listar(autoridad06, { matricula: '999999' }).expect(200)).body.data;
      expect(byLicence).toMatchObject({ total: 0, items: [] });
      const byDocument = (
        await listar(autoridad06, { documento: '30111222', per_page: '1' }).expect(200)
      ).body.data;
      expect(byDocument.total).toBeGreaterThanOrEqual(2);
      expect(byDocument.items).toHaveLength(1);
      expect(byDocument.per_page).toBe(1);
      const page2 = (
        await listar(autoridad06, { documento: '30111222', per_page: '1', page: '2' }).expect(200)
      ).body.data;
      expect(page2.items[0].cuir).not.toBe(byDocument.items[0].cuir);

      await listar(autoridad06, { subtipo: '02' }).expect(400);
      const inverted = await listar(autoridad06, {
        fecha_desde: new Date().toISOString(),
        fecha_hasta: since,
      }).expect(400);
      expect(inverted.body.error.code).toBe('INVALID_DATE_RANGE');
    });

    it('writes one event per call, with the authority as actor', async () => {
      const db = t.app.get(DataSource);
      const count = async () =>
        Number(
          (
            await db.query(
              `SELECT count(*) AS n FROM auditoria_eventos WHERE tipo = 'fiscalizacion' AND actor = $1`,
              [autoridad06.id],
            )
          )[0].n,
        );
      const before = await count();
      await listar(autoridad06).expect(200);
      await obtener(autoridad06, cuir06).expect(200);
      await obtener(autoridad06, cuir02).expect(404);
      expect(await count()).toBe(before + 3);
      const last: Array<{ cuir: string; id_transaccion: string | null; resultado: string }> =
        await db.query(
          `SELECT cuir, id_transaccion, resultado FROM auditoria_eventos
            WHERE tipo = 'fiscalizacion' AND actor = $1 ORDER BY id DESC LIMIT 3`,
          [autoridad06.id],
        );
      expect(last.map((e) => e.resultado)).toEqual(['NOT_FOUND', 'ok', 'ok']);
      // Another jurisdiction's prescription: its CUIR asked for, never its id.
      expect(last[0]).toMatchObject({ cuir: cuir02, id_transaccion: null });
      expect(last[1].cuir).toBe(cuir06);
    });
  });

  describe('the printable document', () => {
    const documento = (id: string) =>
      request(t.url)
        .get(`/v1/recetas/${id}/documento`)
        .set(prescriber.headers)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });

    it.each([
      ['03', 'Receta archivada'],
      ['04', 'Legalmente restringida'],
    ] as const)(
      'marks subtype %s "%s", and its QR answers 200 with no credentials',
      async (subtipo, mark) => {
        const id = await registered(restricted('02', subtipo));
        const pdf = (await documento(id).expect(200)).body as Buffer;
        await withTools(['pdftotext'], 'the restricted mark', async () => {
          expect(await pdfText(pdf)).toContain(mark);
        });
        await withTools(
          ['pdftoppm', 'zbarimg'],
          'the QR of a restricted prescription',
          async () => {
            const qr = (await pdfBarcodes(pdf, 150)).find((c) => c.startsWith('QR-Code:'));
            const url = new URL((qr ?? '').slice('QR-Code:'.length));
            expect(url.origin).toBe(PUBLIC);
            // PUBLIC_BASE_URL is where the service is published; here it listens at t.url.
            const page = await request(t.url)
              .get(url.pathname + url.search)
              .expect(200);
            expect(page.headers['content-type']).toMatch(/^text\/html/);
            expect(page.text).not.toContain('Fernández');
          },
        );
      },
    );

    it('does not mark a plain prescription', async () => {
      const id = await registered(registrationBody());
      const pdf = (await documento(id).expect(200)).body as Buffer;
      await withTools(['pdftotext'], 'no restricted mark', async () => {
        const text = await pdfText(pdf);
        expect(text).not.toContain('Receta archivada');
        expect(text).not.toContain('Legalmente restringida');
      });
    });
  });
});
