import request from 'supertest';
import { DataSource } from 'typeorm';
import { ApiClientsService } from '../src/auth/api-clients.service.js';
import { CatalogoSyncService } from '../src/medicamentos/catalogo-sync.service.js';
import { CifradoPaciente } from '../src/recetas/cifrado/cifrado-paciente.js';
import { sandboxCitizenToken } from './support/citizen-tokens.js';
import { createClient, TestClient } from './support/clients.js';
import { dispensaBody, dispensasApi, PHARMACY_SCOPES } from './support/dispensas.js';
import { freshDatabase, type FreshDatabase } from './support/fresh-database.js';
import { pdfBarcodes, pdfPageCount, pdfText, withTools } from './support/pdf-tools.js';
import {
  fullContent,
  personalesEnClaroSet,
  register,
  registrationBody,
} from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

/** Ana María Fernández's CUIL (DNI 30111222, registrationBody's document). */
const ANA = '27301112225';
const PUBLIC = 'https://recetas.example.org';

/** A 400 VALIDATION_FAILED naming exactly `fields`. */
const refusedNaming = (res: request.Response, ...fields: string[]) => {
  expect({ status: res.status, code: res.body.error?.code }).toEqual({
    status: 400,
    code: 'VALIDATION_FAILED',
  });
  expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(
    [...fields].sort(),
  );
};

/** The PDF as a Buffer (supertest keeps no binary body otherwise). */
const binary = (req: request.Test) =>
  req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });

describe("the prescription's content (SPEC 9.2)", () => {
  let t: TestApp;
  let owner: TestClient;
  let farmacia: TestClient;
  let db: DataSource;
  const api = dispensasApi(() => t);

  beforeAll(async () => {
    t = await startTestApp({
      PUBLIC_BASE_URL: PUBLIC,
      WEBHOOK_ALLOW_PRIVATE: 'true', // the receiver is the local sandbox
      WEBHOOK_RETRY_DELAY_SECONDS: '1',
      QUEUE_POLL_INTERVAL_SECONDS: '1',
    });
    owner = await createClient(t);
    farmacia = await createClient(t, { scopes: [...PHARMACY_SCOPES] });
    db = t.app.get(DataSource);
    // The mirror is the sandbox's: the codes are checked from here on.
    await t.app.get(CatalogoSyncService).ensureLoaded('manual');
  });
  afterAll(() => t?.stop());

  const registered = async (over: Record<string, unknown> = {}) => {
    const body = registrationBody({ ...fullContent(), ...over });
    const res = await register(t, owner, body).expect(201);
    return { id: res.body.data.id_transaccion as string, cuir: body.cuir as string, body };
  };

  it("stores the insurer's members in typed columns, the personal ones sealed, and shows them all in the detail", async () => {
    const r = await registered();
    const row = (
      await db.query(
        `SELECT paciente_nombre, paciente_apellido, paciente_sexo,
                paciente_fecha_nacimiento::text AS nacimiento, cobertura_financiador,
                cobertura_numero_afiliado, cobertura_codigo_rnos, cobertura_plan,
                diagnostico_codigo, diagnostico_descripcion, content_salt AS salt,
                personales_cifrado IS NOT NULL AS sellado, items
           FROM recetas WHERE id_transaccion = $1`,
        [r.id],
      )
    )[0];
    // SPEC 10: the personal members at rest only in the seal (test/datos-paciente greps a dump).
    expect(row).toMatchObject({
      paciente_nombre: null,
      paciente_apellido: null,
      paciente_sexo: null,
      nacimiento: null,
      cobertura_financiador: 'PAMI',
      cobertura_numero_afiliado: null,
      cobertura_codigo_rnos: '500807',
      cobertura_plan: 'Plan 210',
      diagnostico_codigo: null,
      diagnostico_descripcion: null,
      // SPEC 11.2: content_sha256's salt is sealed with the document, never in clear.
      salt: null,
      sellado: true,
    });
    // sustituible is stored only when false (an item without the new members is stored as before).
    expect(row.items[0]).not.toHaveProperty('sustituible');
    expect(row.items[1].sustituible).toBe(false);

    const detail = (await api.detalle(owner, r.id).expect(200)).body.data;
    const sent = r.body;
    expect(detail).toMatchObject({
      paciente: sent.paciente,
      cobertura: sent.cobertura,
      diagnostico: sent.diagnostico,
    });
    expect(detail.items).toEqual((sent.items as object[]).map((i) => ({ ...i, dispensado: 0 })));
  });

  it('without the members, answers as before: no objects, sustituible true, nothing stored', async () => {
    const body = registrationBody();
    const id = (await register(t, owner, body).expect(201)).body.data.id_transaccion as string;
    const detail = (await api.detalle(owner, id).expect(200)).body.data;
    expect(detail).not.toHaveProperty('paciente');
    expect(detail).not.toHaveProperty('cobertura');
    expect(detail).not.toHaveProperty('diagnostico');
    expect(detail.items).toEqual([
      { ...(body.items as object[])[0], sustituible: true, dispensado: 0 },
    ]);
    const [row] = await db.query(
      'SELECT items, personales_cifrado FROM recetas WHERE id_transaccion = $1',
      [id],
    );
    expect(row.items).toEqual(body.items);
    // No personal member, nothing sealed.
    expect(row.personales_cifrado).toBeNull();
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    [
      'paciente without a member',
      { paciente: { nombre: 'Ana', apellido: 'F', sexo: 'F' } },
      ['paciente.fecha_nacimiento'],
    ],
    ['paciente not an object', { paciente: 'Ana' }, ['paciente']],
    ['paciente as an array', { paciente: [] }, ['paciente']],
    [
      'paciente with bad members',
      {
        paciente: {
          nombre: '',
          apellido: 'x'.repeat(101),
          sexo: 'f',
          fecha_nacimiento: '1985-02-30',
        },
      },
      ['paciente.nombre', 'paciente.apellido', 'paciente.sexo', 'paciente.fecha_nacimiento'],
    ],
    [
      'a birth date in the future',
      { paciente: { nombre: 'A', apellido: 'B', sexo: 'X', fecha_nacimiento: '2999-01-01' } },
      ['paciente.fecha_nacimiento'],
    ],
    [
      'a birth date before 1900',
      { paciente: { nombre: 'A', apellido: 'B', sexo: 'M', fecha_nacimiento: '1899-12-31' } },
      ['paciente.fecha_nacimiento'],
    ],
    [
      'cobertura without numero_afiliado',
      { cobertura: { financiador: 'PAMI' } },
      ['cobertura.numero_afiliado'],
    ],
    [
      'cobertura with bad members',
      {
        cobertura: {
          financiador: 'x'.repeat(101),
          numero_afiliado: '15 123',
          codigo_rnos: '12345',
          plan: '',
        },
      },
      [
        'cobertura.financiador',
        'cobertura.numero_afiliado',
        'cobertura.codigo_rnos',
        'cobertura.plan',
      ],
    ],
    ['a diagnosis not ICD-10', { diagnostico: { codigo: 'U07.1' } }, ['diagnostico.codigo']],
    [
      'a diagnosis without codigo',
      { diagnostico: { descripcion: 'Gripe' } },
      ['diagnostico.codigo'],
    ],
    [
      'a diagnosis description too long',
      { diagnostico: { codigo: 'J11', descripcion: 'x'.repeat(201) } },
      ['diagnostico.descripcion'],
    ],
    [
      'item members out of bounds',
      {
        items: [
          {
            nombre: 'Ibuprofeno',
            cantidad: 1,
            dci: 'x'.repeat(201),
            concentracion: 'x'.repeat(51),
            forma_farmaceutica: '',
            presentacion: 'x'.repeat(101),
            posologia: 'x'.repeat(301),
            sustituible: 'no',
          },
        ],
      },
      [
        'items[0].dci',
        'items[0].concentracion',
        'items[0].forma_farmaceutica',
        'items[0].presentacion',
        'items[0].posologia',
        'items[0].sustituible',
      ],
    ],
  ])('refuses %s with 400 naming each field', async (_case, over, fields) => {
    const body = registrationBody(over);
    refusedNaming(await register(t, owner, body), ...fields);
    await api.verificar(farmacia, body.cuir as string).expect(404);
  });

  it('refuses an unknown member inside an object with UNKNOWN_FIELD', async () => {
    const res = await register(
      t,
      owner,
      registrationBody({ cobertura: { financiador: 'PAMI', numero_afiliado: '1', extra: 1 } }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('UNKNOWN_FIELD');
    expect(res.body.error.details).toEqual([
      { field: 'cobertura.extra', issue: 'is not a known field' },
    ]);
  });

  it('verification by CUIR shows the items in full and the coverage, never the patient, the diagnosis or the document', async () => {
    const r = await registered();
    const res = await api.verificar(farmacia, r.cuir).expect(200);
    const v = res.body.data;
    const sent = r.body;
    expect(v.cobertura).toEqual(sent.cobertura);
    expect(v.items).toEqual(
      (sent.items as Array<Record<string, unknown>>).map((i, n) => ({
        item: n + 1,
        ...i,
        dispensado: 0,
        dispensable: true,
      })),
    );
    expect(v).not.toHaveProperty('paciente');
    expect(v).not.toHaveProperty('diagnostico');
    expect(v).not.toHaveProperty('documento_paciente');
    // Nowhere in the answer, under any name.
    for (const hidden of [
      'Ana María',
      'Fernández',
      '1985-03-14',
      'J02.9',
      'Faringitis',
      '30111222',
    ])
      expect(res.text).not.toContain(hidden);
  });

  it("content_sha256 changes with every member, the window and the patient's data", async () => {
    const base = await registered();
    const hashOf = async (cuir: string) =>
      (await api.verificar(farmacia, cuir).expect(200)).body.data.content_sha256 as string;
    const h = await hashOf(base.cuir);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(await hashOf(base.cuir)).toBe(h);
    const alter = async (set: string) => {
      await db.query(`UPDATE recetas SET ${set} WHERE id_transaccion = $1`, [base.id]);
      return hashOf(base.cuir);
    };
    // The same members in clear (a row registered before sealing, its salt in its column):
    // the same hash, which hashes the members, not how they are stored.
    const [row] = await db.query(
      'SELECT cuir, documento_paciente, documento_cifrado FROM recetas WHERE id_transaccion = $1',
      [base.id],
    );
    const { sal } = t.app.get(CifradoPaciente).abrirDocumento(row);
    expect(sal).toHaveLength(16);
    await db.query('UPDATE recetas SET content_salt = $2 WHERE id_transaccion = $1', [
      base.id,
      sal,
    ]);
    expect(
      await alter(
        `${personalesEnClaroSet()}, documento_paciente = '30111222', documento_cifrado = NULL,
         documento_indice = NULL`,
      ),
    ).toBe(h);
    // Changing one stored member (the row, as an attacker with the database would) changes it.
    const seen = new Set([h]);
    for (const set of [
      `diagnostico_codigo = 'J03.9'`,
      `paciente_fecha_nacimiento = '1985-03-15'`,
      // Another DNI (in clear, as a row registered before sealing holds it).
      `documento_paciente = '30111223'`,
      `cobertura_numero_afiliado = '15-12345678-9/01'`,
      `vigencia_hasta = vigencia_hasta + 1`,
      `items = jsonb_set(items, '{1,sustituible}', 'true')`,
      `items = jsonb_set(items, '{0,posologia}', '"2 comprimidos"')`,
    ]) {
      const next = await alter(set);
      expect(seen.has(next)).toBe(false);
      seen.add(next);
    }
  });

  it('a prescription registered before the content members keeps its hash (no salt)', async () => {
    const r = await registered();
    // As such a row is stored: no salt, in its column or in the document's seal.
    await db.query(
      `UPDATE recetas SET content_salt = NULL, documento_paciente = '30111222',
              documento_cifrado = NULL, documento_indice = NULL WHERE id_transaccion = $1`,
      [r.id],
    );
    const before = (await api.verificar(farmacia, r.cuir).expect(200)).body.data.content_sha256;
    // The v1 formula leaves the window, the document and the new members out.
    await db.query(
      `UPDATE recetas SET vigencia_hasta = vigencia_hasta + 1,
              ${personalesEnClaroSet({ diagnostico_codigo: `'A00'` })}
        WHERE id_transaccion = $1`,
      [r.id],
    );
    expect((await api.verificar(farmacia, r.cuir).expect(200)).body.data.content_sha256).toBe(
      before,
    );
  });

  it("the patient's view shows their data, the coverage, the diagnosis and every item member", async () => {
    const r = await registered();
    const token = await sandboxCitizenToken(t.sandboxUrl as string, ANA);
    const res = await request(t.url)
      .get(`/v1/paciente/recetas/${r.cuir}`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    const sent = r.body;
    expect(res.body.data).toMatchObject({
      paciente: sent.paciente,
      cobertura: sent.cobertura,
      diagnostico: sent.diagnostico,
    });
    expect(res.body.data.items).toEqual(
      (sent.items as object[]).map((i) => ({ ...i, dispensado: 0 })),
    );
  });

  describe('catalogue codes and substitution', () => {
    it('refuses an item code not in the catalogue with 422 MEDICAMENTO_DESCONOCIDO naming the item, nothing stored', async () => {
      const body = registrationBody({
        items: [
          { nombre: 'Ibupirac 400', cantidad: 1, codigo: '1336421' },
          { nombre: 'Inventado', cantidad: 1, codigo: '9999999' },
        ],
      });
      const res = await register(t, owner, body).expect(422);
      expect(res.body.error.code).toBe('MEDICAMENTO_DESCONOCIDO');
      expect(res.body.error.details).toEqual([
        { field: 'items[1].codigo', issue: '9999999 is not a code of the medication catalogue' },
      ]);
      await api.verificar(farmacia, body.cuir as string).expect(404);
    });

    it('dispensing: SUSTITUCION_NO_PERMITIDA, SUSTITUCION_NO_DECLARADA, MEDICAMENTO_DESCONOCIDO, all or nothing', async () => {
      const r = await registered();
      const refused = async (
        items: Array<Record<string, unknown>>,
        code: string,
        field: string,
      ) => {
        const res = await api.dispensar(farmacia, dispensaBody(r.cuir, items));
        expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 422, code });
        expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
      };
      // Item 2 is sustituible: false; item 1 was prescribed as 1336421.
      await refused(
        [
          { item: 1, cantidad: 2, codigo: '1336421' },
          { item: 2, cantidad: 1, codigo: '4083108', sustituido: true },
        ],
        'SUSTITUCION_NO_PERMITIDA',
        'items[1].sustituido',
      );
      await refused(
        [{ item: 1, cantidad: 2, codigo: '2105825' }],
        'SUSTITUCION_NO_DECLARADA',
        'items[0].codigo',
      );
      await refused(
        [
          { item: 2, cantidad: 1, codigo: '2393070' },
          { item: 1, cantidad: 2, codigo: '9999999', sustituido: true },
        ],
        'MEDICAMENTO_DESCONOCIDO',
        'items[1].codigo',
      );
      // Nothing of the refused requests was dispensed.
      const v = (await api.verificar(farmacia, r.cuir).expect(200)).body.data;
      expect(v.items.map((i: { dispensado: number }) => i.dispensado)).toEqual([0, 0]);
      // The prescribed code, and a declared substitution where allowed, are dispensed.
      const ok = await api
        .dispensar(
          farmacia,
          dispensaBody(r.cuir, [
            { item: 1, cantidad: 1, codigo: '2105825', sustituido: true },
            { item: 2, cantidad: 1, codigo: '2393070' },
          ]),
        )
        .expect(201);
      expect(ok.body.data.items).toEqual([
        {
          item: 1,
          nombre: 'Ibupirac 400',
          dci: 'ibuprofeno',
          codigo_prescrito: '1336421',
          cantidad_prescrita: 2,
          cantidad_dispensada: 1,
          codigo: '2105825',
          sustituido: true,
        },
        {
          item: 2,
          nombre: 'Amoxidal 500',
          dci: 'amoxicilina',
          codigo_prescrito: '2393070',
          cantidad_prescrita: 1,
          cantidad_dispensada: 1,
          codigo: '2393070',
          sustituido: false,
        },
      ]);
    });
  });

  it('the webhook of a dispensation carries the items with their content', async () => {
    const hooked = await createClient(t);
    await t.app
      .get(ApiClientsService)
      .update(hooked.key, { webhookUrl: `${t.sandboxUrl}/__sandbox/webhooks/contenido` });
    const body = registrationBody(fullContent());
    await register(t, hooked, body).expect(201);
    await api
      .dispensar(
        farmacia,
        dispensaBody(body.cuir as string, [
          { item: 1, cantidad: 2, codigo: '2105825', sustituido: true },
        ]),
      )
      .expect(201);
    const until = Date.now() + 20_000;
    let event: { type: string; data: Record<string, unknown> } | undefined;
    while (!event && Date.now() < until) {
      const got = (await (await fetch(`${t.sandboxUrl}/__sandbox/webhooks/contenido`)).json()) as {
        deliveries: Array<{ body: string }>;
      };
      event = got.deliveries
        .map((d) => JSON.parse(d.body) as { type: string; data: Record<string, unknown> })
        .find((e) => e.type === 'receta.dispensada');
      if (!event) await new Promise((r) => setTimeout(r, 200));
    }
    expect(event?.data).toMatchObject({
      cuir: body.cuir,
      items: [
        {
          item: 1,
          nombre: 'Ibupirac 400',
          dci: 'ibuprofeno',
          codigo_prescrito: '1336421',
          codigo: '2105825',
          sustituido: true,
        },
      ],
      sustituciones: [1],
    });
  });

  it('the printable document of 10 fully described items is one page that prints every member and decodes', async () => {
    const items = Array.from({ length: 10 }, (_, i) => ({
      ...(fullContent().items as object[])[i % 2],
      nombre: `Medicamento ${i + 1}`,
    }));
    const r = await registered({ items });
    await api
      .dispensar(
        farmacia,
        dispensaBody(r.cuir, [{ item: 1, cantidad: 1, codigo: '2105825', sustituido: true }]),
      )
      .expect(201);
    const res = await binary(
      request(t.url).get(`/v1/recetas/${r.id}/documento`).set(owner.headers),
    ).expect(200);
    const pdf = res.body as Buffer;
    await withTools(['pdfinfo', 'pdftotext'], 'the document of ten full items', async () => {
      expect(await pdfPageCount(pdf)).toBe(1);
      const text = (await pdfText(pdf)).replace(/\s+/g, ' ');
      for (const expected of [
        'Ana María Fernández',
        'PAMI',
        'Afiliado 15-12345678-9/00',
        'J02.9',
        'Medicamento 10',
        'ibuprofeno · 400 mg · comprimido recubierto · envase x 20 comprimidos recubiertos',
        'Posología: 1 comprimido cada 8 horas durante 7 días',
        'NO SUSTITUIR',
        '1 de 2 dispensado',
        'Farmacia Central',
        'Sustituido por el código 2105825',
        '0 de 1 dispensado',
      ])
        expect(text).toContain(expected);
      expect(text).not.toContain('Faringitis'); // the diagnosis's code only
      expect(text.match(/NO SUSTITUIR/g)).toHaveLength(5);
    });
    await withTools(['pdftoppm', 'zbarimg'], 'the barcodes of ten full items', async () => {
      expect(await pdfBarcodes(pdf, 150)).toEqual(
        expect.arrayContaining([
          `CODE-128:${r.cuir}`,
          expect.stringMatching(
            new RegExp(`^QR-Code:${PUBLIC}/r/${r.cuir}\\?f=[A-Za-z0-9_-]{22}$`),
          ),
        ]),
      );
    });
  });
});

describe('catalogue codes while the mirror has never synced (SPEC 9.2)', () => {
  let fresh: FreshDatabase;
  let t: TestApp;
  let owner: TestClient;

  beforeAll(async () => {
    fresh = await freshDatabase('contenido');
    t = await startTestApp({ DATABASE_URL: fresh.url, CATALOG_SYNC_ON_START: 'false' });
    owner = await createClient(t);
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
    await fresh?.drop();
  }, 60_000);

  it('accepts any code as before, and checks them once a sync completed', async () => {
    const unknown = () =>
      registrationBody({ items: [{ nombre: 'Inventado', cantidad: 1, codigo: '9999999' }] });
    await register(t, owner, unknown()).expect(201);
    await t.app.get(CatalogoSyncService).run('manual');
    const res = await register(t, owner, unknown()).expect(422);
    expect(res.body.error.code).toBe('MEDICAMENTO_DESCONOCIDO');
    await register(t, owner, registrationBody()).expect(201);
  });
});
