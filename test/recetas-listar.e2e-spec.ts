import request from 'supertest';
import { DataSource } from 'typeorm';
import { createClient, TestClient } from './support/clients.js';
import { newCuir, register, registrationBody } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

describe('listing, detail and tracking are tenant-scoped', () => {
  let t: TestApp;
  let a: TestClient;
  let b: TestClient;
  const ids: string[] = [];
  // A range of its own, in the past, so other suites' registrations never fall into it.
  const base = Date.parse('2025-03-01T12:00:00Z') + Math.floor(Math.random() * 1e9);
  const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();
  const range = { fecha_desde: at(-1), fecha_hasta: at(100) };

  beforeAll(async () => {
    t = await startTestApp({ MINISTRY_DELIVERY_ENABLED: 'false' });
    a = await createClient(t);
    b = await createClient(t);
    // 12 prescriptions for A: minutes 0..11, two licences and two patients; 2 share one instant.
    for (let i = 0; i < 12; i++) {
      const res = await register(
        t,
        a,
        registrationBody({
          fecha_creacion: at(i === 11 ? 10 : i),
          matricula_profesional: i % 2 ? '654321' : '123456',
          cuir: newCuir({ jurisdiction: i % 2 ? '06' : '02' }),
          documento_paciente: i < 6 ? '30111222' : '25111222',
        }),
      ).expect(201);
      ids.push(res.body.data.id_transaccion);
    }
    await register(t, b, registrationBody({ fecha_creacion: at(5) })).expect(201);
  });
  afterAll(async () => {
    await t.stop();
  });

  const list = (c: TestClient, q: Record<string, string | number>) =>
    request(t.url).get('/v1/recetas/listar').query(q).set(c.headers);

  it("lists only the caller's rows, newest first with id as tie-break, total counting all", async () => {
    const res = await list(a, { ...range, per_page: 50 }).expect(200);
    expect(res.body.data).toMatchObject({ total: 12, total_exact: true, page: 1, per_page: 50 });
    const got = res.body.data.items.map((i: { id_transaccion: string }) => i.id_transaccion);
    expect(got).toHaveLength(12);
    // minute 11 was registered at minute 10 too: the two at minute 10 come by id, descending.
    const expected = [...ids.keys()]
      .map((i) => ({ id: ids[i], minute: i === 11 ? 10 : i }))
      .sort((x, y) => y.minute - x.minute || Number(BigInt(y.id) - BigInt(x.id)))
      .map((x) => x.id);
    expect(got).toEqual(expected);
    expect(Object.keys(res.body.data.items[0]).sort()).toEqual([
      'cuir',
      'documento_paciente',
      'estado',
      'fecha_creacion',
      'id_de_receta',
      'id_transaccion',
      'matricula_profesional',
    ]);
    const bRes = await list(b, { ...range }).expect(200);
    expect(bRes.body.data.total).toBe(1);
    expect(
      bRes.body.data.items.every(
        (i: { id_transaccion: string }) => !ids.includes(i.id_transaccion),
      ),
    ).toBe(true);
  });

  it('filters by matricula, documento and estado, and the range is inclusive', async () => {
    expect((await list(a, { ...range, matricula: '654321' })).body.data.total).toBe(6);
    expect((await list(a, { ...range, documento: '25111222' })).body.data.total).toBe(6);
    expect((await list(a, { ...range, estado: 'PENDING' })).body.data.total).toBe(12);
    expect((await list(a, { ...range, estado: 'COMPLETED' })).body.data.total).toBe(0);
    expect((await list(a, { fecha_desde: at(3), fecha_hasta: at(5) })).body.data.total).toBe(3);
    // Another client's filters never reveal A's rows.
    expect((await list(b, { ...range, matricula: '654321' })).body.data.total).toBe(0);
  });

  it('pages are disjoint and complete while new rows arrive (as_of snapshot)', async () => {
    const first = await list(a, { ...range, per_page: 5, page: 1 }).expect(200);
    const asOf = first.body.data.as_of;
    await register(t, a, registrationBody({ fecha_creacion: at(50) })).expect(201); // newest: lands on page 1
    const pages = [first.body.data.items];
    for (const page of [2, 3])
      pages.push(
        (await list(a, { ...range, per_page: 5, page, as_of: asOf }).expect(200)).body.data.items,
      );
    const seen = pages.flat().map((i: { id_transaccion: string }) => i.id_transaccion);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.sort()).toEqual([...ids].sort());
    expect(
      (await list(a, { ...range, per_page: 5, page: 4, as_of: asOf })).body.data.items,
    ).toEqual([]);
  });

  it.each([
    ['missing fecha_desde', { fecha_hasta: '2026-01-01T00:00:00Z' }],
    ['missing fecha_hasta', { fecha_desde: '2026-01-01T00:00:00Z' }],
    ['invalid date', { fecha_desde: '2026-13-01T00:00:00Z', fecha_hasta: '2026-12-01T00:00:00Z' }],
    [
      'date without offset',
      { fecha_desde: '2026-01-01T00:00:00', fecha_hasta: '2026-12-01T00:00:00Z' },
    ],
    [
      'inverted range',
      { fecha_desde: '2026-12-01T00:00:00Z', fecha_hasta: '2026-01-01T00:00:00Z' },
    ],
  ])('answers 400 INVALID_DATE_RANGE for %s', async (_name, q) => {
    const res = await list(a, q).expect(400);
    expect(res.body.error.code).toBe('INVALID_DATE_RANGE');
  });

  it('a "+" of an offset left unencoded in the query (read as a space) is named, with the fix', async () => {
    // As a shell user types it: `?fecha_desde=2026-01-01T00:00:00+00:00` (the + is a space).
    const res = await request(t.url)
      .get(
        '/v1/recetas/listar?fecha_desde=2026-01-01T00:00:00+00:00&fecha_hasta=2026-12-01T00:00:00Z',
      )
      .set(a.headers)
      .expect(400);
    expect(res.body.error.code).toBe('INVALID_DATE_RANGE');
    expect(res.body.error.message).toMatch(/"\+".*%2B.*Z/);
    expect(res.body.error.details).toEqual([
      { field: 'fecha_desde', issue: res.body.error.message },
    ]);
    // A date that is simply wrong keeps the plain message.
    const plain = await list(a, {
      fecha_desde: '2026-13-01T00:00:00Z',
      fecha_hasta: '2026-12-01T00:00:00Z',
    }).expect(400);
    expect(plain.body.error.message).not.toMatch(/%2B/);
  });

  it.each([
    [{ per_page: 201 }, 'per_page'],
    [{ per_page: 0 }, 'per_page'],
    [{ page: 0 }, 'page'],
    [{ page: 'abc' }, 'page'],
    [{ estado: 'DONE' }, 'estado'],
    [{ documento: '12' }, 'documento'],
  ])('answers 400 VALIDATION_FAILED for %j', async (q, field) => {
    const res = await list(a, { ...range, ...q }).expect(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details[0].field).toBe(field);
  });

  it('refuses unknown query parameters', async () => {
    const res = await list(a, { ...range, sort: 'asc' }).expect(400);
    expect(res.body.error).toMatchObject({ code: 'UNKNOWN_FIELD', details: [{ field: 'sort' }] });
  });

  it('counts exactly up to 10,000 matches, then says the total is a floor', async () => {
    const big = await createClient(t);
    // Bulk rows straight into the table: 10,050 in one day, 50 of them by licence 777 (each
    // CUIR's row written by recetas' insert trigger).
    await t.app.get(DataSource).query(
      `WITH s AS MATERIALIZED (
         SELECT g, nextval('recetas_id_transaccion_seq') AS id,
                lpad((9e40 + g + $2::bigint)::numeric::text, 41, '0') AS cuir
           FROM generate_series(1, 10050) g
       )
       INSERT INTO recetas (id_transaccion, client_id, cuir, documento_paciente, matricula_profesional, locacion, fecha_creacion, items, mensaje,
                            vigencia_desde, vigencia_hasta)
       SELECT s.id, $1, s.cuir, '30111222',
              CASE WHEN g <= 50 THEN '777' ELSE '123456' END, 'x',
              $3::timestamptz + g * interval '100 milliseconds', '[]', 'seeded',
              current_date, current_date + 29
         FROM s`,
      [big.id, Math.floor(Math.random() * 1e9) * 100000, at(0)],
    );
    const all = await list(big, { ...range }).expect(200);
    expect(all.body.data).toMatchObject({ total: 10000, total_exact: false });
    expect(all.body.data.items).toHaveLength(50);
    // Paging still reaches every row: the oldest 50 (licence 777) are on page 201.
    const deep = await list(big, { ...range, page: 201, per_page: 50 }).expect(200);
    expect(deep.body.data.items).toHaveLength(50);
    expect(
      deep.body.data.items.every(
        (i: { matricula_profesional: string }) => i.matricula_profesional === '777',
      ),
    ).toBe(true);
    expect((await list(big, { ...range, page: 202, per_page: 50 })).body.data.items).toHaveLength(
      0,
    );
    const narrow = await list(big, { ...range, matricula: '777' }).expect(200);
    expect(narrow.body.data).toMatchObject({ total: 50, total_exact: true });
  });

  it('a page past the end, or a range with nothing in it, is empty but still counted and stamped', async () => {
    const all = await list(a, range).expect(200);
    expect(all.body.data.total).toBeGreaterThanOrEqual(12);
    const past = await list(a, { ...range, per_page: 5, page: 100 }).expect(200);
    expect(past.body.data).toMatchObject({
      total: all.body.data.total,
      total_exact: true,
      page: 100,
      items: [],
    });
    expect(past.body.data.as_of).toMatch(/^\d+$/);
    const none = await list(a, { fecha_desde: at(-100), fecha_hasta: at(-50) }).expect(200);
    expect(none.body.data).toMatchObject({ total: 0, total_exact: true, items: [] });
    expect(none.body.data.as_of).toMatch(/^\d+$/);
  });

  it('defaults to page 1 and 50 per page', async () => {
    const res = await list(a, range).expect(200);
    expect(res.body.data).toMatchObject({ page: 1, per_page: 50 });
  });

  it("answers another client's id exactly like a missing one (404), for detail and tracking", async () => {
    for (const path of ['/v1/recetas', '/v1/transacciones']) {
      const other = await request(t.url).get(`${path}/${ids[0]}`).set(b.headers).expect(404);
      const missing = await request(t.url).get(`${path}/999999999999`).set(b.headers).expect(404);
      expect({ ...other.body, request_id: 'x' }).toEqual({ ...missing.body, request_id: 'x' });
      await request(t.url).get(`${path}/not-a-number`).set(b.headers).expect(404);
      await request(t.url).get(`${path}/${ids[0]}`).set(a.headers).expect(200);
    }
  });

  it('needs recetas:read', async () => {
    const writer = await createClient(t, { scopes: ['recetas:write'] });
    await list(writer, range).expect(403);
    await request(t.url).get(`/v1/recetas/${ids[0]}`).set(writer.headers).expect(403);
  });
});
