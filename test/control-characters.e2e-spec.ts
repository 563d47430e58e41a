import request from 'supertest';
import { createClient, TestClient } from './support/clients.js';
import { dispensaBody, dispensasApi, PHARMACY_SCOPES } from './support/dispensas.js';
import { register, registrationBody } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * Contract §1: request text refuses C0 and C1 controls, DEL, the line and paragraph separators
 * and every format character (the bidirectional controls and marks among them), on every
 * endpoint, by one rule. A CR/LF or U+2028 in an item's name printed a fake line on the printable
 * prescription; ESC sequences reached pharmacies' terminals; RLO reorders what they display.
 */
const REFUSED: Array<[string, string]> = [
  ['BEL', '\u0007'],
  ['ESC', '\u001b'],
  ['CR', '\r'],
  ['LF', '\n'],
  ['VT', '\u000b'],
  ['FF', '\u000c'],
  ['NUL', '\u0000'],
  ['DEL', '\u007f'],
  ['C1 NEL', '\u0085'],
  ['RLO', '\u202e'],
  ['LRI', '\u2066'],
  // SPEC 11.6: line and paragraph separators (Zl, Zp) and every format character (Cf).
  ['LS', '\u2028'],
  ['PS', '\u2029'],
  ['LRM', '\u200e'],
  ['RLM', '\u200f'],
  ['ALM', '\u061c'],
  ['BOM', '\ufeff'],
  ['ZWSP', '\u200b'],
  ['SHY', '\u00ad'],
  ['TAG A', '\u{e0041}'],
];

/** Ordinary Spanish text: accents, ñ, typographic quotes, an emoji (a surrogate pair). */
const SPANISH = 'Clínica Ñandú “Señor Peñaloza” – ¿dónde? 💊';

describe('control characters in request text (contract §1)', () => {
  let t: TestApp;
  let owner: TestClient;
  let farmacia: TestClient;
  let reader: TestClient;
  const api = dispensasApi(() => t);

  beforeAll(async () => {
    t = await startTestApp({
      MINISTRY_DELIVERY_ENABLED: 'false',
      // Each case checks by verification that nothing was registered: dozens of 404s a minute,
      // far past the enumeration limit a pharmacy gets.
      VERIFICACION_FALLOS_POR_MINUTO: '1000',
    });
    const many = { rateLimitPerMinute: 100_000 };
    owner = await createClient(t, {
      scopes: ['cuir:write', 'recetas:write', 'recetas:read'],
      ...many,
    });
    farmacia = await createClient(t, { scopes: [...PHARMACY_SCOPES], ...many });
    reader = await createClient(t, { scopes: ['medicamentos:read'], ...many });
  });
  afterAll(async () => {
    await t.stop();
  });

  const registered = async (over: Record<string, unknown> = {}) => {
    const body = registrationBody(over);
    const res = await register(t, owner, body).expect(201);
    return { id: res.body.data.id_transaccion as string, cuir: body.cuir as string };
  };
  /** A 400 VALIDATION_FAILED naming exactly `fields`. */
  const refusedNaming = (res: request.Response, ...fields: string[]) => {
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(
      [...fields].sort(),
    );
  };
  const withChar = (ch: string) => `Ibuprofeno 400 mg${ch}DOSIS: 100 comprimidos`;

  describe.each(REFUSED)('%s', (_name, ch) => {
    it('in an item name or the locacion: 400 naming the field, the CUIR stays unregistered', async () => {
      const nombre = registrationBody({ items: [{ nombre: withChar(ch), cantidad: 1 }] });
      refusedNaming(await register(t, owner, nombre), 'items[0].nombre');
      const locacion = registrationBody({ locacion: `Consultorio 12${ch}` });
      refusedNaming(await register(t, owner, locacion), 'locacion');
      for (const body of [nombre, locacion])
        await api.verificar(farmacia, body.cuir as string).expect(404);
    });

    it("in a cancellation's motivo: 400, the prescription still VIGENTE", async () => {
      const r = await registered();
      refusedNaming(await api.anular(owner, r.id, `Error${ch}en la dosis`), 'motivo');
      expect((await api.detalle(owner, r.id).expect(200)).body.data.estado_receta).toBe('VIGENTE');
    });

    it("in a dispensation's farmacia.nombre and a reversal's motivo: 400, nothing changed", async () => {
      const r = await registered();
      const bad = dispensaBody(r.cuir, [[1, 1]], {
        farmacia: { cuit: '30712345671', nombre: `Farmacia${ch}Central` },
      });
      refusedNaming(await api.dispensar(farmacia, bad), 'farmacia.nombre');
      const v = (await api.verificar(farmacia, r.cuir).expect(200)).body.data;
      expect(v.estado_receta).toBe('VIGENTE');
      expect(v.items.map((i: { dispensado: number }) => i.dispensado)).toEqual([0]);

      const d = (await api.dispensar(farmacia, dispensaBody(r.cuir, [[1, 1]])).expect(201)).body
        .data;
      refusedNaming(await api.revertir(farmacia, d.id_dispensa, `Cargada${ch}por error`), 'motivo');
      expect((await api.obtener(farmacia, d.id_dispensa).expect(200)).body.data.revertida).toBe(
        false,
      );
    });

    it('in the catalogue search q: 400 naming q', async () => {
      const res = await request(t.url)
        .get('/v1/medicamentos/buscar')
        .query({ q: `ibu${ch}profeno` })
        .set(reader.headers);
      refusedNaming(res, 'q');
    });
  });

  it('names every field at fault in one answer, a field name escaped rather than echoed', async () => {
    const res = await register(
      t,
      owner,
      registrationBody({
        locacion: 'a\u001b[2Jb',
        items: [
          { nombre: 'ok', cantidad: 1 },
          { nombre: 'x\ny', cantidad: 1 },
        ],
        ['clave\u0007']: 'x',
      }),
    );
    refusedNaming(res, 'locacion', 'items[1].nombre', 'clave\\u0007');
  });

  it("in every member of the prescription's content (SPEC 9.2): 400 naming each", async () => {
    const bad = 'x\u001b[2Jy';
    const res = await register(
      t,
      owner,
      registrationBody({
        paciente: { nombre: bad, apellido: bad, sexo: 'F', fecha_nacimiento: '1985-03-14' },
        cobertura: { financiador: bad, numero_afiliado: '1', plan: bad },
        diagnostico: { codigo: 'J02.9', descripcion: bad },
        items: [
          {
            nombre: 'Ibuprofeno',
            cantidad: 1,
            dci: bad,
            concentracion: bad,
            forma_farmaceutica: bad,
            presentacion: bad,
            posologia: `1 cada 8 h\n2 cada 4 h`,
          },
        ],
      }),
    );
    refusedNaming(
      res,
      'paciente.nombre',
      'paciente.apellido',
      'cobertura.financiador',
      'cobertura.plan',
      'diagnostico.descripcion',
      'items[0].dci',
      'items[0].concentracion',
      'items[0].forma_farmaceutica',
      'items[0].presentacion',
      'items[0].posologia',
    );
    const r = await registered({
      paciente: {
        nombre: SPANISH,
        apellido: 'Peñaloza',
        sexo: 'X',
        fecha_nacimiento: '1990-01-01',
      },
      items: [{ nombre: 'Ibuprofeno', cantidad: 1, dci: SPANISH, posologia: SPANISH }],
    });
    const detail = (await api.detalle(owner, r.id).expect(200)).body.data;
    expect(detail.paciente.nombre).toBe(SPANISH);
    expect(detail.items[0]).toMatchObject({ dci: SPANISH, posologia: SPANISH });
  });

  it('ordinary Spanish text with accents, ñ, quotes and an emoji still passes everywhere', async () => {
    const r = await registered({ locacion: SPANISH, items: [{ nombre: SPANISH, cantidad: 2 }] });
    const detail = (await api.detalle(owner, r.id).expect(200)).body.data;
    expect(detail.locacion).toBe(SPANISH);
    expect(detail.items[0].nombre).toBe(SPANISH);

    const d = (
      await api
        .dispensar(
          farmacia,
          dispensaBody(r.cuir, [[1, 1]], { farmacia: { cuit: '30712345671', nombre: SPANISH } }),
        )
        .expect(201)
    ).body.data;
    expect(d.farmacia.nombre).toBe(SPANISH);
    const reverted = await api.revertir(farmacia, d.id_dispensa, SPANISH).expect(200);
    expect(reverted.body.data.motivo_reversion).toBe(SPANISH);
    const anulada = await api.anular(owner, r.id, SPANISH).expect(200);
    expect(anulada.body.data.estado_receta).toBe('ANULADA');

    await request(t.url)
      .get('/v1/medicamentos/buscar')
      .query({ q: 'ñandú “x”' })
      .set(reader.headers)
      .expect(200);
  });
});
