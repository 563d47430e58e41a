import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createClient, TestClient } from './support/clients.js';
import {
  arDate,
  BAD_CUIT,
  dispensaBody,
  dispensasApi,
  PHARMACY_SCOPES,
} from './support/dispensas.js';
import { newCuir, register, registrationBody } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

/** Reservation, dispensation and reversal (contract §7) over real HTTP and PostgreSQL. */
describe('dispensation: POST /v1/dispensas, reservations, reversal', () => {
  let t: TestApp;
  let db: DataSource;
  let owner: TestClient;
  let farmacias: TestClient[];
  const api = dispensasApi(() => t);

  beforeAll(async () => {
    t = await startTestApp({ MINISTRY_DELIVERY_ENABLED: 'false' });
    db = t.app.get(DataSource);
    owner = await createClient(t, { scopes: ['cuir:write', 'recetas:write', 'recetas:read'] });
    farmacias = [];
    for (let i = 0; i < 5; i++)
      farmacias.push(
        await createClient(t, { scopes: [...PHARMACY_SCOPES], rateLimitPerMinute: 100_000 }),
      );
  });
  afterAll(async () => {
    await t.stop();
  });

  /** A prescription of Ibuprofeno ×2 and Amoxicilina ×1 (or `items`). */
  const registered = async (over: Record<string, unknown> = {}) => {
    const body = registrationBody({
      items: [
        { nombre: 'Ibuprofeno 400 mg comprimidos', cantidad: 2, codigo: '1336421' },
        { nombre: 'Amoxicilina 500 mg cápsulas', cantidad: 1 },
      ],
      ...over,
    });
    const res = await register(t, owner, body).expect(201);
    return { id: res.body.data.id_transaccion as string, cuir: body.cuir as string };
  };
  const [a, b] = [() => farmacias[0], () => farmacias[1]];

  it('dispenses part, then the rest: DISPENSADA_PARCIAL, then DISPENSADA; the owner sees both', async () => {
    const r = await registered();
    const first = await api
      .dispensar(
        a(),
        dispensaBody(r.cuir, [{ item: 1, cantidad: 1, codigo: '2105825', sustituido: true }]),
      )
      .expect(201);
    expect(first.body.data).toMatchObject({
      cuir: r.cuir,
      estado_receta: 'DISPENSADA_PARCIAL',
      farmacia: { cuit: '30712345671', nombre: 'Farmacia Central' },
      items: [
        {
          item: 1,
          nombre: 'Ibuprofeno 400 mg comprimidos',
          cantidad_prescrita: 2,
          cantidad_dispensada: 1,
          codigo: '2105825',
          sustituido: true,
        },
      ],
      revertida: false,
      revertida_at: null,
    });
    expect(first.body.data.id_dispensa).toMatch(/^[0-9a-f-]{36}$/);
    // One unit of two closes item 1: only item 2 is left.
    const v = (await api.verificar(b(), r.cuir).expect(200)).body.data;
    expect(
      v.items.map((i: { dispensado: number; dispensable: boolean }) => [
        i.dispensado,
        i.dispensable,
      ]),
    ).toEqual([
      [1, false],
      [0, true],
    ]);
    const rest = await api.dispensar(b(), dispensaBody(r.cuir, [[2, 1]])).expect(201);
    expect(rest.body.data.estado_receta).toBe('DISPENSADA');

    const detail = (await api.detalle(owner, r.id).expect(200)).body.data;
    expect(detail.estado_receta).toBe('DISPENSADA');
    expect(detail.items.map((i: { dispensado: number }) => i.dispensado)).toEqual([1, 1]);
    expect(detail.dispensas).toHaveLength(2);
    // One name per field in every view (SPEC 11.11): the dispensation's own answer's names.
    expect(detail.dispensas[0]).toEqual({
      id_dispensa: first.body.data.id_dispensa,
      fecha_dispensa: first.body.data.fecha_dispensa,
      farmacia: { cuit: '30712345671', nombre: 'Farmacia Central' },
      items: [
        {
          item: 1,
          nombre: first.body.data.items[0].nombre,
          cantidad_dispensada: 1,
          codigo: '2105825',
          sustituido: true,
        },
      ],
      revertida: false,
    });
    // Nothing left: no reservation either.
    expect((await api.reservar(a(), r.cuir).expect(409)).body.error.code).toBe('RECETA_DISPENSADA');
  });

  it('the same item again → 409 ITEM_YA_DISPENSADO naming it, from any client', async () => {
    const r = await registered();
    await api.dispensar(a(), dispensaBody(r.cuir, [[1, 2]])).expect(201);
    for (const c of [a(), b()]) {
      const res = await api
        .dispensar(
          c,
          dispensaBody(r.cuir, [
            [2, 1],
            [1, 1],
          ]),
        )
        .expect(409);
      expect(res.body.error.code).toBe('ITEM_YA_DISPENSADO');
      expect(res.body.error.details).toEqual([
        { field: 'items[1].item', issue: 'item 1 was dispensed already' },
      ]);
    }
    // All or nothing: item 2 was not dispensed by the refused requests.
    const v = (await api.verificar(a(), r.cuir)).body.data;
    expect(v.items[1]).toMatchObject({ dispensado: 0, dispensable: true });
  });

  it('one bad item changes nothing: 422 CANTIDAD_EXCEDIDA, 400 for an item beyond the prescription', async () => {
    const r = await registered();
    const over = await api
      .dispensar(
        a(),
        dispensaBody(r.cuir, [
          [1, 1],
          [2, 2],
        ]),
      )
      .expect(422);
    expect(over.body.error).toMatchObject({
      code: 'CANTIDAD_EXCEDIDA',
      details: [{ field: 'items[1].cantidad', issue: 'item 2 was prescribed 1 unit at most' }],
    });
    const beyond = await api
      .dispensar(
        a(),
        dispensaBody(r.cuir, [
          [1, 1],
          [3, 1],
        ]),
      )
      .expect(400);
    expect(beyond.body.error.details).toEqual([
      { field: 'items[1].item', issue: 'the prescription has 2 items' },
    ]);
    const detail = (await api.detalle(owner, r.id)).body.data;
    expect(detail).toMatchObject({ estado_receta: 'VIGENTE', dispensas: [] });
    const [{ n }] = await db.query(
      'SELECT count(*)::int AS n FROM dispensa_items WHERE id_transaccion = $1',
      [r.id],
    );
    expect(n).toBe(0);
  });

  it('50 concurrent dispensations of one item from 5 clients: exactly one 201, never more units than prescribed', async () => {
    const r = await registered();
    const attempts = Array.from({ length: 50 }, (_, i) =>
      api.dispensar(farmacias[i % 5], dispensaBody(r.cuir, [[1, 1 + (i % 2)]])),
    );
    const answers = await Promise.all(attempts);
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 409)).toBe(true);
    expect(
      answers
        .filter((res) => res.status === 409)
        .every((res) => res.body.error.code === 'ITEM_YA_DISPENSADO'),
    ).toBe(true);
    const [row] = await db.query(
      `SELECT count(*)::int AS dispensas, coalesce(sum(cantidad), 0)::int AS unidades
         FROM dispensa_items WHERE id_transaccion = $1 AND item = 1 AND NOT revertida`,
      [r.id],
    );
    expect(row.dispensas).toBe(1);
    expect(row.unidades).toBeLessThanOrEqual(2);
    process.stdout.write(
      `50 concurrent dispensations: ${JSON.stringify(
        statuses.reduce<Record<number, number>>((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {}),
      )}; units of item 1 dispensed: ${row.unidades} of 2\n`,
    );
  }, 60_000);

  it('the database itself refuses a second dispensation of an item (the constraint, not only the code)', async () => {
    const r = await registered();
    const d = (await api.dispensar(a(), dispensaBody(r.cuir, [[1, 1]])).expect(201)).body.data;
    const insertSecond = () =>
      db.transaction(async (tx) => {
        const [second] = await tx.query(
          `INSERT INTO dispensas (id_transaccion, client_id, farmacia_cuit, farmacia_nombre, fecha_dispensa)
           VALUES ($1, $2, '30712345671', 'Bypass', now()) RETURNING id`,
          [r.id, b().id],
        );
        await tx.query(
          `INSERT INTO dispensa_items (id_dispensa, item, id_transaccion, cantidad) VALUES ($1, 1, $2, 1)`,
          [second.id, r.id],
        );
      });
    await expect(insertSecond()).rejects.toMatchObject({
      // The partition's copy of the index (database/particiones names it after the table's).
      driverError: {
        code: '23505',
        constraint: expect.stringMatching(/^dispensa_items_una_vez_p(0|\d{4}_\d{2})$/),
      },
    });
    // Reversed, the item leaves the index (the reversal is copied onto the item row).
    await api.revertir(a(), d.id_dispensa).expect(200);
    const [item] = await db.query('SELECT revertida FROM dispensa_items WHERE id_dispensa = $1', [
      d.id_dispensa,
    ]);
    expect(item.revertida).toBe(true);
    await insertSecond();
  });

  it('an Idempotency-Key replays the first answer; a different body under it is 409', async () => {
    const r = await registered();
    const key = randomUUID();
    const body = dispensaBody(r.cuir, [[2, 1]]);
    const first = await api.dispensar(a(), body, { 'Idempotency-Key': key }).expect(201);
    const again = await api.dispensar(a(), body, { 'Idempotency-Key': key }).expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const other = await api
      .dispensar(a(), dispensaBody(r.cuir, [[1, 1]]), { 'Idempotency-Key': key })
      .expect(409);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await api.detalle(owner, r.id)).body.data.dispensas).toHaveLength(1);
  });

  it('reversal: by the dispensing client only, within the window; again → 200 the same; later → 409', async () => {
    const r = await registered();
    const d = (
      await api
        .dispensar(
          a(),
          dispensaBody(r.cuir, [
            [1, 2],
            [2, 1],
          ]),
        )
        .expect(201)
    ).body.data;
    expect(d.estado_receta).toBe('DISPENSADA');
    // Another client's dispensation answers exactly like a missing one.
    const theirs = await api.revertir(b(), d.id_dispensa).expect(404);
    const missing = await api.revertir(b(), randomUUID()).expect(404);
    expect({ ...theirs.body, request_id: 0 }).toEqual({ ...missing.body, request_id: 0 });
    await api.obtener(b(), d.id_dispensa).expect(404);
    expect((await api.obtener(a(), d.id_dispensa).expect(200)).body.data).toEqual(d);

    const reverted = await api.revertir(a(), d.id_dispensa, 'Cargada por error').expect(200);
    expect(reverted.body.data).toMatchObject({
      id_dispensa: d.id_dispensa,
      estado_receta: 'VIGENTE',
      revertida: true,
      motivo_reversion: 'Cargada por error',
    });
    const again = await api.revertir(a(), d.id_dispensa, 'Otra vez').expect(200);
    expect(again.body.data).toEqual(reverted.body.data);
    // Its items are dispensable again; the detail shows the reversed dispensation.
    const v = (await api.verificar(b(), r.cuir)).body.data;
    expect(v.items.map((i: { dispensable: boolean }) => i.dispensable)).toEqual([true, true]);
    expect((await api.detalle(owner, r.id)).body.data.dispensas[0].revertida).toBe(true);
    const redo = await api.dispensar(b(), dispensaBody(r.cuir, [[1, 1]])).expect(201);

    // Past DISPENSA_REVERSION_HORAS (24): the clock moved back in the database.
    await db.query(`UPDATE dispensas SET created_at = now() - interval '25 hours' WHERE id = $1`, [
      redo.body.data.id_dispensa,
    ]);
    const late = await api.revertir(b(), redo.body.data.id_dispensa).expect(409);
    expect(late.body.error.code).toBe('REVERSION_VENCIDA');
  });

  it('a reservation holds the prescription; releasing frees it; another holder is never named', async () => {
    const r = await registered();
    const made = await api.reservar(a(), r.cuir).expect(201);
    expect(made.body.data).toEqual({
      reserva_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      cuir: r.cuir,
      vence_at: expect.any(String),
    });
    const venceAt = Date.parse(made.body.data.vence_at);
    expect(venceAt - Date.now()).toBeGreaterThan(9 * 60_000); // DISPENSA_RESERVA_MINUTOS = 10
    // The holder asking again gets it back, extended (200).
    const again = await api.reservar(a(), r.cuir).expect(200);
    expect(again.body.data.reserva_id).toBe(made.body.data.reserva_id);
    expect(Date.parse(again.body.data.vence_at)).toBeGreaterThanOrEqual(venceAt);

    const refused = await api.reservar(b(), r.cuir).expect(409);
    expect(refused.body.error).toMatchObject({
      code: 'RECETA_RESERVADA',
      details: [{ field: 'vence_at', issue: again.body.data.vence_at }],
    });
    const text = JSON.stringify(refused.body);
    expect(text).not.toContain(a().id);
    expect(text).not.toContain(made.body.data.reserva_id);
    const held = await api.dispensar(b(), dispensaBody(r.cuir, [[2, 1]])).expect(409);
    expect(held.body.error.code).toBe('RECETA_RESERVADA');
    // Verification tells each caller whether it is theirs, never whose it is.
    expect((await api.verificar(b(), r.cuir)).body.data).toMatchObject({
      reserva: { vence_at: again.body.data.vence_at, propia: false },
      items: [{ dispensable: false }, { dispensable: false }],
    });
    expect((await api.verificar(a(), r.cuir)).body.data).toMatchObject({
      reserva: { propia: true },
      items: [{ dispensable: true }, { dispensable: true }],
    });

    await api.liberar(b(), made.body.data.reserva_id).expect(404);
    await api.liberar(b(), 'not-a-uuid').expect(404);
    await api.liberar(a(), made.body.data.reserva_id).expect(204);
    await api.liberar(a(), made.body.data.reserva_id).expect(204);
    expect((await api.verificar(b(), r.cuir)).body.data.reserva).toBeNull();
    await api.reservar(b(), r.cuir).expect(201);
  });

  it('releasing takes no body: one is refused with 400 and the reservation stays', async () => {
    const r = await registered();
    const id = (await api.reservar(a(), r.cuir).expect(201)).body.data.reserva_id as string;
    const release = () => request(t.url).delete(`/v1/dispensas/reservas/${id}`).set(a().headers);
    for (const body of [{ motivo: 'stock' }, {}]) {
      const res = await release().send(body).expect(400);
      expect(res.body.error).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: [{ field: '(body)', issue: expect.stringContaining('no body') }],
      });
    }
    expect((await api.verificar(b(), r.cuir)).body.data.reserva).toMatchObject({ propia: false });
    await release().expect(204);
    expect((await api.verificar(b(), r.cuir)).body.data.reserva).toBeNull();
  });

  it('a lapsed reservation frees itself (time moved in the database; no job lapses it)', async () => {
    const r = await registered();
    const made = (await api.reservar(a(), r.cuir).expect(201)).body.data;
    await api.reservar(b(), r.cuir).expect(409);
    await db.query(
      `UPDATE dispensa_reservas SET vence_at = now() - interval '1 second' WHERE id = $1`,
      [made.reserva_id],
    );
    expect((await api.verificar(b(), r.cuir)).body.data.reserva).toBeNull();
    await api.dispensar(b(), dispensaBody(r.cuir, [[2, 1]])).expect(201);
  });

  it("a dispensation consumes the caller's reservation; someone else's reserva_id is a 400", async () => {
    const r = await registered();
    const mine = (await api.reservar(a(), r.cuir).expect(201)).body.data;
    const other = await registered();
    const theirs = (await api.reservar(b(), other.cuir).expect(201)).body.data;
    const wrong = await api
      .dispensar(a(), dispensaBody(r.cuir, [[1, 1]], { reserva_id: theirs.reserva_id }))
      .expect(400);
    expect(wrong.body.error.details).toEqual([
      { field: 'reserva_id', issue: 'is not a reservation of yours on this prescription' },
    ]);
    await api
      .dispensar(a(), dispensaBody(r.cuir, [[1, 1]], { reserva_id: mine.reserva_id }))
      .expect(201);
    expect((await api.verificar(b(), r.cuir)).body.data.reserva).toBeNull();
    await api.reservar(b(), r.cuir).expect(201);
  });

  it('outside the validity window: reserving and dispensing get 422 RECETA_NO_VIGENTE', async () => {
    const later = await registered({ fecha_inicio_vigencia: arDate(5) });
    expect((await api.reservar(a(), later.cuir).expect(422)).body.error.code).toBe(
      'RECETA_NO_VIGENTE',
    );
    expect(
      (await api.dispensar(a(), dispensaBody(later.cuir, [[1, 1]])).expect(422)).body.error.code,
    ).toBe('RECETA_NO_VIGENTE');
    // Issued 40 days ago: a medicine's 30 days are over (VENCIDA).
    const old = await registered({
      fecha_creacion: new Date(Date.now() - 40 * 86_400_000).toISOString(),
    });
    expect((await api.verificar(a(), old.cuir)).body.data.estado_receta).toBe('VENCIDA');
    await api.reservar(a(), old.cuir).expect(422);
    const res = await api.dispensar(a(), dispensaBody(old.cuir, [[1, 1]])).expect(422);
    expect(res.body.error.code).toBe('RECETA_NO_VIGENTE');
  });

  it('validates the request: CUIT check digit, dates, distinct items, the CUIR', async () => {
    const r = await registered();
    const field = async (body: unknown) =>
      (await api.dispensar(a(), body).expect(400)).body.error.details[0].field;
    expect(
      await field(dispensaBody(r.cuir, [[1, 1]], { farmacia: { cuit: BAD_CUIT, nombre: 'F' } })),
    ).toBe('farmacia.cuit');
    const ahead = new Date(Date.now() + 10 * 60_000).toISOString();
    expect(await field(dispensaBody(r.cuir, [[1, 1]], { fecha_dispensa: ahead }))).toBe(
      'fecha_dispensa',
    );
    expect(
      await field(dispensaBody(r.cuir, [[1, 1]], { fecha_dispensa: '2026-11-22T10:00:00' })),
    ).toBe('fecha_dispensa');
    const before = new Date(Date.now() - 2 * 86_400_000).toISOString();
    expect(await field(dispensaBody(r.cuir, [[1, 1]], { fecha_dispensa: before }))).toBe(
      'fecha_dispensa',
    );
    expect(
      await field(
        dispensaBody(r.cuir, [
          [1, 1],
          [1, 1],
        ]),
      ),
    ).toBe('items');
    expect(await field(dispensaBody(r.cuir, []))).toBe('items');
    expect(await field(dispensaBody(r.cuir, [[1, 0]]))).toBe('items[0].cantidad');
    // An array where an item belongs (the fuzzer's `items: [[]]`, once a 500).
    expect(await field({ ...dispensaBody(r.cuir, [[1, 1]]), items: [[]] })).toBe('items');
    expect(await field(dispensaBody('123', [[1, 1]]))).toBe('cuir');
    const unknown = await api
      .dispensar(a(), dispensaBody(r.cuir, [[1, 1]], { extra: 1 }))
      .expect(400);
    expect(unknown.body.error.code).toBe('UNKNOWN_FIELD');
    // Unknown CUIR: 404; without the scope: 403.
    await api.dispensar(a(), dispensaBody(newCuir(), [[1, 1]])).expect(404);
    await api.reservar(a(), newCuir()).expect(404);
    await api.dispensar(owner, dispensaBody(r.cuir, [[1, 1]])).expect(403);
    expect((await api.detalle(owner, r.id)).body.data.dispensas).toEqual([]);
  });

  it('writes every action to the event log, refusals too, with the client, the CUIR and the request', async () => {
    const r = await registered();
    const rid = `req-${randomUUID()}`;
    const made = (await api.reservar(a(), r.cuir).set('X-Request-Id', rid).expect(201)).body.data;
    await api.reservar(b(), r.cuir).expect(409);
    await api.liberar(a(), made.reserva_id).expect(204);
    const d = (await api.dispensar(b(), dispensaBody(r.cuir, [[1, 1]])).expect(201)).body.data;
    await api.dispensar(a(), dispensaBody(r.cuir, [[1, 1]])).expect(409);
    await api.revertir(b(), d.id_dispensa).expect(200);
    const rows: Array<{
      tipo: string;
      actor: string;
      resultado: string;
      request_id: string | null;
      client_request_id: string | null;
    }> = await db.query(
      `SELECT tipo, actor, resultado, request_id, client_request_id FROM auditoria_eventos
          WHERE cuir = $1 AND id_transaccion = $2 ORDER BY id`,
      [r.cuir, r.id],
    );
    expect(rows.map((e) => [e.tipo, e.actor, e.resultado])).toEqual([
      ['registro', owner.id, 'ok'],
      ['reserva', a().id, 'ok'],
      ['reserva', b().id, 'RECETA_RESERVADA'],
      ['reserva_liberada', a().id, 'ok'],
      ['dispensa', b().id, 'ok'],
      ['dispensa', a().id, 'ITEM_YA_DISPENSADO'],
      ['reversion', b().id, 'ok'],
    ]);
    // The service's own id of each request; the client's X-Request-Id apart.
    expect(rows[1].client_request_id).toBe(rid);
    expect(rows.every((e) => /^[0-9a-f-]{36}$/.test(e.request_id ?? ''))).toBe(true);
  });

  it('is documented in OpenAPI with its scope and codes', async () => {
    const doc = (await request(t.url).get('/openapi.json')).body;
    for (const [path, method] of [
      ['/v1/dispensas', 'post'],
      ['/v1/dispensas/{id_dispensa}', 'get'],
      ['/v1/dispensas/{id_dispensa}/revertir', 'post'],
      ['/v1/dispensas/reservas', 'post'],
      ['/v1/dispensas/reservas/{reserva_id}', 'delete'],
    ])
      expect(doc.paths[path][method]['x-required-scope']).toBe('dispensas:write');
    const post = doc.paths['/v1/dispensas'].post;
    expect(Object.keys(post.responses)).toEqual(
      expect.arrayContaining(['201', '404', '409', '422']),
    );
    expect(JSON.stringify(doc)).toContain('ITEM_YA_DISPENSADO');
    // A reservation answers 201 when new, 200 when the holder's own is extended.
    expect(Object.keys(doc.paths['/v1/dispensas/reservas'].post.responses)).toEqual(
      expect.arrayContaining(['200', '201', '409', '422']),
    );
    expect(doc.paths['/v1/dispensas/reservas/{reserva_id}'].delete.responses['204']).toBeDefined();
  });
});
