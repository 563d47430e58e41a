import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { TestClient } from '../support/clients.js';
import { dispensaBody } from '../support/dispensas.js';
import { fullContent, issueBodyCuir, newCuir, registrationBody } from '../support/recetas.js';
import type { TestApp } from '../support/test-app.js';
import { LogGuard } from './support/log-guard.js';
import { checkAnswer, rawRequest, RawResponse } from './support/raw-http.js';
import { startWatchedApp, watchedClient } from './support/setup.js';

/**
 * OWASP API1 (broken object level authorisation): client B can neither read client A's
 * prescriptions nor tell that they exist, whatever id, filter or key it tries.
 */
describe('tenant isolation', () => {
  const guard = new LogGuard();
  let t: TestApp;
  let a: TestClient;
  let b: TestClient;
  let db: DataSource;
  const aIds: string[] = [];
  const aKey = randomUUID();
  let missingId: string;

  beforeAll(async () => {
    t = await startWatchedApp(guard, 'tenant-app');
    a = await watchedClient(t, guard);
    b = await watchedClient(t, guard);
    db = t.app.get(DataSource);
    for (let i = 0; i < 3; i++) {
      const res = await call(
        a,
        'POST',
        '/v1/recetas/registrar',
        registrationBody(),
        i === 0 ? { 'Idempotency-Key': aKey } : {},
      );
      expect(res.status).toBe(201);
      aIds.push(res.body.data.id_transaccion);
    }
    const max = (await db.query('SELECT max(id_transaccion)::text AS id FROM recetas'))[0]
      .id as string;
    missingId = String(BigInt(max) + 1_000_000n);
  });
  afterAll(async () => {
    await t.stop();
  });

  async function call(
    c: TestClient,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    // Only issued CUIRs register: a registration's is asked of generation first.
    if (method === 'POST' && path === '/v1/recetas/registrar') await issueBodyCuir(t, c, body);
    return rawRequest(t.url, {
      method,
      path,
      headers: {
        ...c.headers,
        ...(body ? { 'Content-Type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }
  /** The answer without what differs per request anyway. */
  const shape = (r: RawResponse) => ({
    status: r.status,
    body: { ...r.body, request_id: undefined },
  });

  it.each(['/v1/recetas', '/v1/transacciones'])(
    "%s/:id of another client's transaction answers exactly like a missing id",
    async (base) => {
      for (const id of aIds) {
        const theirs = await call(b, 'GET', `${base}/${id}`);
        const missing = await call(b, 'GET', `${base}/${missingId}`);
        checkAnswer(theirs, `B reads A's ${id}`);
        expect(theirs.status).toBe(404);
        expect(shape(theirs)).toEqual(shape(missing));
        // Headers too: nothing (length, cache, rate headers aside) tells them apart.
        expect(theirs.headers['content-length']).toBe(missing.headers['content-length']);
        // Zero-padded and other spellings of A's id do not slip through either.
        for (const spelled of [`0${id}`, `00000${id}`, `${id}%20`, `+${id}`]) {
          const res = await call(b, 'GET', `${base}/${spelled}`);
          expect(shape(res)).toEqual(shape(missing));
        }
        // A itself reads it.
        expect((await call(a, 'GET', `${base}/${id}`)).status).toBe(200);
      }
    },
  );

  const listar = (c: TestClient, extra = '') =>
    call(
      c,
      'GET',
      `/v1/recetas/listar?fecha_desde=2000-01-01T00:00:00Z&fecha_hasta=2100-01-01T00:00:00Z${extra}`,
    );

  it("listar filters never count or return another client's rows", async () => {
    const filters = [
      '',
      '&documento=30111222',
      '&matricula=123456',
      '&estado=PENDING',
      '&documento=30111222&matricula=123456&estado=PENDING',
      `&as_of=${aIds[2]}`,
      '&page=1&per_page=200',
    ];
    for (const f of filters) {
      const res = await listar(b, f);
      checkAnswer(res, `B listar ${f}`);
      expect(res.status).toBe(200);
      expect({ filter: f, total: res.body.data.total, items: res.body.data.items }).toEqual({
        filter: f,
        total: 0,
        items: [],
      });
    }
    // B's own row is counted exactly as A's rows are for A: totals are per client.
    const mine = await call(b, 'POST', '/v1/recetas/registrar', registrationBody());
    expect(mine.status).toBe(201);
    const bList = await listar(b, '&documento=30111222');
    expect(bList.body.data.total).toBe(1);
    expect(bList.body.data.items.map((i: { id_transaccion: string }) => i.id_transaccion)).toEqual([
      mine.body.data.id_transaccion,
    ]);
    const aList = await listar(a, '&documento=30111222');
    expect(aList.body.data.total).toBe(3);
    expect(
      aList.body.data.items.map((i: { id_transaccion: string }) => i.id_transaccion),
    ).not.toContain(mine.body.data.id_transaccion);
  });

  it("an Idempotency-Key A used is B's own: no 409, no replay of A's answer", async () => {
    const res = await call(b, 'POST', '/v1/recetas/registrar', registrationBody(), {
      'Idempotency-Key': aKey,
    });
    expect(res.status).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(aIds).not.toContain(res.body.data.id_transaccion);
  });

  it("a CUIR issued to A is never issued to B: B's own platform id makes it another CUIR", async () => {
    const body = {
      groupId: `${Date.now()}`.padStart(25, '3'),
      itemId: '01',
      state: '02',
      prescriptionType: '01',
      medicationType: '02',
    };
    const issued = await call(a, 'POST', '/v1/cuir/generar', body);
    expect(issued.status).toBe(201);
    expect((await call(a, 'POST', '/v1/cuir/generar', body)).status).toBe(409);
    // A and B share the default platform id: the same input is A's CUIR, so B is refused.
    const refused = await call(b, 'POST', '/v1/cuir/generar', body);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('CUIR_ALREADY_ISSUED');
    // A client with a platform id of its own gets its own CUIR for the same groupId+itemId.
    const own = await watchedClient(t, guard, { cuirPlatformId: '0777' });
    const mine = await call(own, 'POST', '/v1/cuir/generar', body);
    expect(mine.status).toBe(201);
    expect(mine.body.data.cuir).toBe(`0777${issued.body.data.cuir.slice(4)}`);
  });

  it("registering A's CUIR tells B nothing: the same 422 as a CUIR nobody registered", async () => {
    // Only CUIRs issued to the caller register (contract §3), checked before the duplicate check:
    // B's answer for A's registered CUIR is the answer for one never registered.
    const [row] = await db.query('SELECT cuir FROM recetas WHERE id_transaccion = $1', [aIds[0]]);
    const taken = registrationBody({ cuir: row.cuir.trim() });
    const free = registrationBody({ cuir: `${row.cuir.trim().slice(0, 14)}${'9'.repeat(25)}01` });
    const answers = [];
    for (const body of [taken, free]) {
      // Sent as is: `call` would ask generation for the free one first.
      const res = await rawRequest(t.url, {
        method: 'POST',
        path: '/v1/recetas/registrar',
        headers: { ...b.headers, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      checkAnswer(res, 'registrar');
      expect(res.status).toBe(422);
      expect(Object.keys(res.body)).toEqual(['success', 'error', 'request_id']);
      answers.push(res.body.error);
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0].code).toBe('CUIR_NOT_OWNED');
  });

  it("another client's dispensation or reservation answers 404 exactly like a missing one", async () => {
    // A dispenses and reserves on a prescription of its own; B (every scope too) probes them.
    const reg = registrationBody({
      items: [
        { nombre: 'Ibuprofeno 400 mg', cantidad: 2 },
        { nombre: 'Amoxicilina 500 mg', cantidad: 1 },
      ],
    });
    expect((await call(a, 'POST', '/v1/recetas/registrar', reg)).status).toBe(201);
    const cuir = reg.cuir as string;
    const d = await call(a, 'POST', '/v1/dispensas', dispensaBody(cuir, [[1, 1]]));
    expect(d.status).toBe(201);
    const reserva = await call(a, 'POST', '/v1/dispensas/reservas', { cuir });
    expect(reserva.status).toBe(201);
    const idDispensa = d.body.data.id_dispensa as string;
    const idReserva = reserva.body.data.reserva_id as string;
    const missing = '00000000-0000-4000-8000-000000000000';
    const probes: Array<[string, (id: string) => string, unknown]> = [
      ['GET', (id) => `/v1/dispensas/${id}`, undefined],
      ['POST', (id) => `/v1/dispensas/${id}/revertir`, { motivo: 'Intento ajeno' }],
      ['DELETE', (id) => `/v1/dispensas/reservas/${id}`, undefined],
    ];
    for (const [method, path, body] of probes) {
      const id = path('x').includes('reservas') ? idReserva : idDispensa;
      const theirs = await call(b, method, path(id), body);
      const none = await call(b, method, path(missing), body);
      checkAnswer(theirs, `B ${method} ${path(id)}`);
      expect(theirs.status).toBe(404);
      expect(shape(theirs)).toEqual(shape(none));
      expect(theirs.headers['content-length']).toBe(none.headers['content-length']);
    }
    // Nothing B did changed A's: still A's live reservation and unreversed dispensation.
    const own = await call(a, 'GET', `/v1/dispensas/${idDispensa}`);
    expect(own.body.data).toMatchObject({ revertida: false });
    const v = await call(b, 'GET', `/v1/recetas/verificar/${cuir}`);
    expect(v.body.data.reserva).toMatchObject({ propia: false });
    // B's reservation attempt is refused without naming the holder.
    const refused = await call(b, 'POST', '/v1/dispensas/reservas', { cuir });
    expect(refused.status).toBe(409);
    expect(refused.text).not.toContain(a.id);
    expect(refused.text).not.toContain(idReserva);
    // And A's prescription cannot be cancelled by B: 404 like a missing id.
    const [row] = await db.query('SELECT id_transaccion::text AS id FROM recetas WHERE cuir = $1', [
      cuir,
    ]);
    const cancel = await call(b, 'POST', `/v1/recetas/${row.id}/anular`, { motivo: 'Ajena' });
    const cancelMissing = await call(b, 'POST', `/v1/recetas/${missingId}/anular`, {
      motivo: 'Ajena',
    });
    expect(shape(cancel)).toEqual(shape(cancelMissing));
    expect(cancel.status).toBe(404);
  });

  it("A's content (SPEC 9.2) reaches B only as a dispenser's verification does: items and coverage, never the patient or the diagnosis", async () => {
    const body = registrationBody(fullContent());
    const reg = await call(a, 'POST', '/v1/recetas/registrar', body);
    expect(reg.status).toBe(201);
    const id = reg.body.data.id_transaccion as string;
    const cuir = body.cuir as string;
    // Everything of A's that B (every scope too) may name answers like a missing id.
    for (const path of [
      `/v1/recetas/${id}`,
      `/v1/recetas/${id}/documento`,
      `/v1/recetas/${id}/eventos`,
    ]) {
      const theirs = await call(b, 'GET', path);
      const missing = await call(b, 'GET', path.replace(id, missingId));
      checkAnswer(theirs, `B GET ${path}`);
      expect(theirs.status).toBe(404);
      expect(shape(theirs)).toEqual(shape(missing));
    }
    // The verification by CUIR answers for any client's prescription (contract §3), without
    // the patient's name, birth date, document or diagnosis, under any member name.
    const v = await call(b, 'GET', `/v1/recetas/verificar/${cuir}`);
    checkAnswer(v, 'B verifies A');
    expect(v.status).toBe(200);
    expect(v.body.data.cobertura).toEqual(fullContent().cobertura);
    expect(v.body.data.items[1]).toMatchObject({ dci: 'amoxicilina', sustituible: false });
    for (const hidden of [
      'Ana María',
      'Fernández',
      '1985-03-14',
      'J02.9',
      'Faringitis',
      '30111222',
    ])
      expect(v.text).not.toContain(hidden);
    // A's listing summary carries none of the content either; B's is empty of A's rows.
    const bList = await listar(b, '&documento=30111222');
    expect(bList.body.data.items.map((i: { cuir: string }) => i.cuir)).not.toContain(cuir);
  });

  it("a health authority reads only restricted prescriptions of its jurisdictions, and no client reads the authority's routes", async () => {
    const { paciente, diagnostico, items } = fullContent();
    const restricted = (jurisdiction: string, licence: string) =>
      registrationBody({
        paciente,
        diagnostico,
        items,
        cuir: newCuir({ jurisdiction, medicationType: '04' }),
        matricula_profesional: licence,
      });
    const in02 = restricted('02', '123456');
    const in06 = restricted('06', '654321');
    const plain02 = registrationBody({ paciente, diagnostico, items });
    for (const body of [in02, in06, plain02])
      expect((await call(a, 'POST', '/v1/recetas/registrar', body)).status).toBe(201);
    const autoridad02 = await watchedClient(t, guard, {
      scopes: ['fiscalizacion:read'],
      jurisdicciones: ['02'],
    });
    const range = 'fecha_desde=2000-01-01T00:00:00Z&fecha_hasta=2100-01-01T00:00:00Z&per_page=200';
    const listed = await call(autoridad02, 'GET', `/v1/fiscalizacion/recetas?${range}`);
    checkAnswer(listed, 'authority 02 lists');
    const cuirs = listed.body.data.items.map((i: { cuir: string }) => i.cuir);
    expect(cuirs).toContain(in02.cuir);
    expect(cuirs).not.toContain(in06.cuir);
    expect(cuirs).not.toContain(plain02.cuir);
    // Another jurisdiction's and a plain one: the same 404 as a CUIR nobody registered.
    const unknown = await call(
      autoridad02,
      'GET',
      `/v1/fiscalizacion/recetas/${newCuir({ medicationType: '04' })}`,
    );
    for (const cuir of [in06.cuir, plain02.cuir]) {
      const res = await call(autoridad02, 'GET', `/v1/fiscalizacion/recetas/${cuir as string}`);
      checkAnswer(res, `authority 02 reads ${cuir as string}`);
      expect(shape(res)).toEqual(shape(unknown));
    }
    // A and B hold every scope `all` gives, which never includes the authority's.
    for (const c of [a, b]) {
      const res = await call(c, 'GET', `/v1/fiscalizacion/recetas/${in02.cuir as string}`);
      expect(res.status).toBe(403);
      expect((await call(c, 'GET', `/v1/fiscalizacion/recetas?${range}`)).status).toBe(403);
    }
    // And the authority reads nothing of the clients' own routes.
    expect((await call(autoridad02, 'GET', `/v1/recetas/${aIds[0]}`)).status).toBe(403);
  });

  it('logs carry no document number, name or secret', () => {
    expect(guard.findings()).toEqual([]);
  });
});
