import { createHash, randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { canonicalJson } from '../src/common/canonical-json.js';
import { IdempotencyService } from '../src/idempotency/idempotency.service.js';
import { CatalogoSyncService } from '../src/medicamentos/catalogo-sync.service.js';
import { insertJobSql } from '../src/queue/job.sql.js';
import { JobQueue } from '../src/queue/job-queue.js';
import { createClient, TestClient } from './support/clients.js';
import { newCuir, register, registrationBody } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

describe('POST /v1/recetas/registrar', () => {
  let t: TestApp;
  let a: TestClient;
  let b: TestClient;
  let db: DataSource;

  beforeAll(async () => {
    // Delivery is exercised in the ministerio suite; here the notification only has to be queued.
    t = await startTestApp({ MINISTRY_DELIVERY_ENABLED: 'false' });
    a = await createClient(t);
    b = await createClient(t);
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.stop();
  });
  afterEach(async () => {
    await fetch(`${t.sandboxUrl}/__sandbox/faults`, { method: 'DELETE' });
  });

  const keyRow = async (key: string) =>
    (
      await db.query<
        Array<{ state: string; response_status: number | null; response_text: string | null }>
      >('SELECT state, response_status, response_text FROM idempotency_keys WHERE key = $1', [key])
    )[0];
  /** The hash IdempotencyInterceptor stores for a registration with this body. */
  const hashOf = (body: unknown) =>
    t.app.get(IdempotencyService).fingerprint('POST', '/v1/recetas/registrar', body).hash;
  /** The fingerprint a key was stored with before SPEC 11.2: the bare SHA-256 of the request. */
  const bareHashOf = (body: unknown) =>
    createHash('sha256')
      .update(`POST POST /v1/recetas/registrar\n${canonicalJson(body)}`)
      .digest('hex');
  const setFault = (fault: Record<string, unknown>) =>
    fetch(`${t.sandboxUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(fault),
    });
  const until = async (done: () => Promise<boolean>) => {
    for (let i = 0; i < 200 && !(await done()); i++) await new Promise((r) => setTimeout(r, 10));
  };
  const rowsWithCuir = async (cuir: string) =>
    Number((await db.query('SELECT count(*)::int AS n FROM recetas WHERE cuir = $1', [cuir]))[0].n);

  it('registers: 201 with the seed fields, estado PENDING, stored with its items, history and queued job', async () => {
    const body = registrationBody({ documento_paciente: '30.111.222' });
    const res = await register(t, a, body).expect(201);
    expect(res.body.success).toBe(true);
    expect(Object.keys(res.body.data)).toEqual([
      'id_transaccion',
      'estado',
      'mensaje',
      'cuir',
      'id_de_receta',
    ]);
    expect(res.body.data).toMatchObject({
      estado: 'PENDING',
      cuir: body.cuir,
      id_de_receta: body.id_de_receta,
    });
    expect(res.body.data.id_transaccion).toMatch(/^\d+$/);
    expect(res.body.data.mensaje).toMatch(/pendiente/i);

    const detail = await request(t.url)
      .get(`/v1/recetas/${res.body.data.id_transaccion}`)
      .set(a.headers)
      .expect(200);
    expect(detail.body.data).toMatchObject({
      documento_paciente: '30111222',
      matricula_profesional: '123456',
      locacion: body.locacion,
      items: body.items,
      estado: 'PENDING',
      fecha_creacion: new Date(body.fecha_creacion as string).toISOString(),
    });
    expect(detail.body.data.completed_at).toBeUndefined();
    const track = await request(t.url)
      .get(`/v1/transacciones/${res.body.data.id_transaccion}`)
      .set(a.headers)
      .expect(200);
    expect(track.body.data).toMatchObject({ estado: 'PENDING', intentos: 0, ministerio_ref: null });
    expect(track.body.data.historial[0]).toMatchObject({ evento: 'REGISTRADA', estado: 'PENDING' });
    const jobs = await db.query(
      `SELECT count(*)::int AS n FROM ${t.config.queue.schema}.job WHERE data->>'id_transaccion' = $1`,
      [res.body.data.id_transaccion],
    );
    expect(jobs[0].n).toBe(1);
  });

  it('gives sequential transaction ids', async () => {
    const first = await register(t, a, registrationBody()).expect(201);
    const second = await register(t, a, registrationBody()).expect(201);
    expect(BigInt(second.body.data.id_transaccion)).toBeGreaterThan(
      BigInt(first.body.data.id_transaccion),
    );
  });

  it.each([
    'documento_paciente',
    'matricula_profesional',
    'locacion',
    'cuir',
    'fecha_creacion',
    'items',
  ])('names a missing %s in details', async (field) => {
    const body = registrationBody();
    delete body[field];
    const res = await register(t, a, body).expect(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details).toEqual([{ field, issue: 'is required' }]);
  });

  const future = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
  it.each([
    ['documento_paciente', { documento_paciente: '123456' }],
    ['documento_paciente', { documento_paciente: '301112223' }],
    ['documento_paciente', { documento_paciente: '30.11.1222' }],
    ['documento_paciente', { documento_paciente: 30111222 }],
    ['matricula_profesional', { matricula_profesional: 'MN-123' }],
    ['matricula_profesional', { matricula_profesional: 'A'.repeat(21) }],
    ['refeps_id', { refeps_id: 'x'.repeat(41) }],
    ['refeps_id', { refeps_id: '' }],
    ['locacion', { locacion: 'x'.repeat(201) }],
    ['locacion', { locacion: '' }],
    ['cuir', { cuir: newCuir().slice(1) }],
    ['cuir', { cuir: `${newCuir().slice(0, 8)}03${newCuir().slice(10)}` }],
    ['cuir', { cuir: `${newCuir().slice(0, 10)}04${newCuir().slice(12)}` }], // no type 04
    ['cuir', { cuir: `${newCuir().slice(0, 39)}00` }], // item 00
    ['id_de_receta', { id_de_receta: 'x'.repeat(65) }],
    ['nombre_medicamento', { nombre_medicamento: 'x'.repeat(201) }],
    ['fecha_creacion', { fecha_creacion: '2026-11-20T10:00:00' }],
    ['fecha_creacion', { fecha_creacion: '2026-02-30T10:00:00Z' }],
    ['fecha_creacion', { fecha_creacion: 'yesterday' }],
    ['fecha_creacion', { fecha_creacion: future(10) }],
    ['items', { items: [] }],
    ['items', { items: Array.from({ length: 11 }, () => ({ nombre: 'x', cantidad: 1 })) }],
    ['items', { items: 'ibuprofeno' }],
    // An array where an item belongs used to pass validation and be stored as an empty item.
    ['items', { items: [[]] }],
    ['items', { items: [{ nombre: 'x', cantidad: 1 }, ['x', 1]] }],
    ['items[0].cantidad', { items: [{ nombre: 'x', cantidad: 1.5 }] }],
    ['items[0].cantidad', { items: [{ nombre: 'x', cantidad: 0 }] }],
    [
      'items[1].cantidad',
      {
        items: [
          { nombre: 'x', cantidad: 1 },
          { nombre: 'y', cantidad: 1000 },
        ],
      },
    ],
    ['items[0].cantidad', { items: [{ nombre: 'x', cantidad: '2' }] }],
    ['items[0].nombre', { items: [{ cantidad: 2 }] }],
    ['items[0].codigo', { items: [{ nombre: 'x', cantidad: 2, codigo: 'bad code!' }] }],
  ])('refuses a malformed %s with 400, naming it', async (field, over) => {
    const res = await register(t, a, registrationBody(over)).expect(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('accepts a fecha_creacion up to 5 minutes ahead (clock skew) and ±hh:mm offsets', async () => {
    await register(t, a, registrationBody({ fecha_creacion: future(2) })).expect(201);
    await register(t, a, registrationBody({ fecha_creacion: '2026-11-20T10:00:00-03:00' })).expect(
      201,
    );
  });

  it('refuses unknown fields at any level with UNKNOWN_FIELD', async () => {
    const top = await register(t, a, registrationBody({ paciente_nombre: 'x' })).expect(400);
    expect(top.body.error).toMatchObject({
      code: 'UNKNOWN_FIELD',
      details: [{ field: 'paciente_nombre' }],
    });
    const nested = await register(
      t,
      a,
      registrationBody({ items: [{ nombre: 'x', cantidad: 1, precio: 3 }] }),
    ).expect(400);
    expect(nested.body.error).toMatchObject({
      code: 'UNKNOWN_FIELD',
      details: [{ field: 'items[0].precio' }],
    });
  });

  it('answers 422 PROFESSIONAL_NOT_ENABLED for a disabled licence or one outside the CUIR jurisdiction', async () => {
    const disabled = await register(
      t,
      a,
      registrationBody({ matricula_profesional: '222333', cuir: newCuir({ jurisdiction: '14' }) }),
    ).expect(422);
    expect(disabled.body.error.code).toBe('PROFESSIONAL_NOT_ENABLED');
    const elsewhere = registrationBody({ cuir: newCuir({ jurisdiction: '06' }) });
    await register(t, a, elsewhere).expect(422);
    expect(await rowsWithCuir(elsewhere.cuir as string)).toBe(0);
    await register(
      t,
      a,
      registrationBody({ matricula_profesional: '654321', cuir: newCuir({ jurisdiction: '06' }) }),
    ).expect(201);
  });

  it('answers 500 UPSTREAM_UNAVAILABLE and stores nothing when the registry is down and nothing is cached', async () => {
    await fetch(`${t.sandboxUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ service: 'refeps', mode: 'error' }),
    });
    const body = registrationBody({ matricula_profesional: '998877' });
    const res = await register(t, a, body).expect(500);
    expect(res.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(await rowsWithCuir(body.cuir as string)).toBe(0);
  });

  it('registers a CUIR once: the second registration is 409, also under concurrency', async () => {
    const body = registrationBody();
    await register(t, a, body).expect(201);
    const again = await register(t, a, { ...body, id_de_receta: 'other' }).expect(409);
    expect(again.body.error.code).toBe('CUIR_ALREADY_REGISTERED');
    // Another client learns nothing: the CUIR was never issued to it (contract §3).
    const other = await register(t, b, { ...body, id_de_receta: 'other' }).expect(422);
    expect(other.body.error.code).toBe('CUIR_NOT_OWNED');

    const racing = registrationBody();
    const answers = await Promise.all(Array.from({ length: 20 }, () => register(t, a, racing)));
    expect(answers.map((r) => r.status).sort()).toEqual([201, ...Array(19).fill(409)]);
    expect(await rowsWithCuir(racing.cuir as string)).toBe(1);
  });

  it('leaves no prescription and no answered key when the ministry job cannot be enqueued (one statement)', async () => {
    const queue = t.app.get(JobQueue);
    const original = queue.jobInStatement.bind(queue);
    // A job for a queue that does not exist: the job table refuses it, so the statement fails.
    queue.jobInStatement = () => (p, source) =>
      insertJobSql(t.config.queue.schema, p, {
        queue: 'no-such-queue',
        data: `jsonb_build_object('id_transaccion', ${source}.id::text)`,
        from: source,
      });
    try {
      const body = registrationBody();
      const key = randomUUID();
      const res = await register(t, a, body, { 'Idempotency-Key': key }).expect(500);
      expect(res.body.error.code).toBe('INTERNAL');
      expect(await rowsWithCuir(body.cuir as string)).toBe(0);
      const orphanJobs = await db.query(
        `SELECT count(*)::int AS n FROM ${t.config.queue.schema}.job j WHERE NOT EXISTS (SELECT 1 FROM recetas r WHERE r.id_transaccion::text = j.data->>'id_transaccion')`,
      );
      expect(orphanJobs[0].n).toBe(0);
      // The 500 was not stored: the same key runs again once the queue is back.
      queue.jobInStatement = original;
      const retried = await register(t, a, body, { 'Idempotency-Key': key }).expect(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
    } finally {
      queue.jobInStatement = original;
    }
  });

  describe('Idempotency-Key', () => {
    it('20 concurrent identical requests with one key make one prescription and one 201 id', async () => {
      const key = randomUUID();
      const body = registrationBody();
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => register(t, a, body, { 'Idempotency-Key': key })),
      );
      const created = answers.filter((r) => r.status === 201);
      expect(created.length).toBeGreaterThanOrEqual(1);
      expect(new Set(created.map((r) => r.body.data.id_transaccion)).size).toBe(1);
      for (const r of answers.filter((x) => x.status !== 201)) {
        expect(r.status).toBe(409);
        expect(r.body.error.code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
      }
      expect(await rowsWithCuir(body.cuir as string)).toBe(1);

      const replay = await register(t, a, body, { 'Idempotency-Key': key }).expect(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(created[0].body);
    });

    /**
     * 20 identical registrations under one key at once: each answered 201, one the first and
     * every other its replay, one row written. Its answers.
     */
    const raceDuplicates = async () => {
      const key = randomUUID();
      const body = registrationBody();
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => register(t, a, body, { 'Idempotency-Key': key })),
      );
      // Status and error code side by side, so a failure says which 409 it was.
      expect(answers.map((r) => `${r.status} ${r.body.error?.code ?? ''}`.trim())).toEqual(
        Array(20).fill('201'),
      );
      expect(answers.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
      expect(await rowsWithCuir(body.cuir as string)).toBe(1);
      return answers;
    };

    it('with the licence cached, concurrent duplicates wait for the first and are answered with its replay', async () => {
      await register(t, a, registrationBody()).expect(201); // licence 123456 (02) now cached
      // No request held the key before writing, so none saw it in progress: one answer is the
      // first, every other is its replay.
      const answers = await raceDuplicates();
      expect(new Set(answers.map((r) => r.body.data.id_transaccion)).size).toBe(1);
    });

    it("after a catalogue sync (its codes' cache cleared), concurrent duplicates are still answered with the replay", async () => {
      // A sync anywhere (another instance's, by NOTIFY) clears the cache of known codes; reading
      // them again from the local mirror is not slow work, so no request holds the key first.
      await register(t, a, registrationBody()).expect(201); // licence 123456 (02) cached
      t.app.get(CatalogoSyncService).mirrorChanged();
      await raceDuplicates();
    });

    it('a duplicate sent while the first waits on REFEPS gets 409 IDEMPOTENCY_KEY_IN_PROGRESS, later the replay', async () => {
      // Licence 345678 (jurisdiction 82) is looked up nowhere else in this file: not cached.
      const body = registrationBody({
        matricula_profesional: '345678',
        refeps_id: '8345678',
        cuir: newCuir({ jurisdiction: '82' }),
      });
      await setFault({ service: 'refeps', mode: 'slow', delay_ms: 1500 });
      const key = randomUUID();
      const first = register(t, a, body, { 'Idempotency-Key': key }).then((r) => r);
      await until(async () => (await keyRow(key))?.state === 'in_progress');
      const duplicate = await register(t, a, body, { 'Idempotency-Key': key }).expect(409);
      expect(duplicate.body.error.code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
      const created = await first;
      expect(created.status).toBe(201);
      const replay = await register(t, a, body, { 'Idempotency-Key': key }).expect(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(created.body);
      expect(await rowsWithCuir(body.cuir as string)).toBe(1);
    });

    it("takes over a key whose holder crashed (lease run out) with the same request, in the registration's statement", async () => {
      const body = registrationBody();
      const key = randomUUID();
      await db.query(
        `INSERT INTO idempotency_keys (client_id, key, request_hash, state, locked_until, expires_at)
         VALUES ($1, $2, $3, 'in_progress', now() - interval '1 second', now() + interval '1 day')`,
        [a.id, key, hashOf(body)],
      );
      const res = await register(t, a, body, { 'Idempotency-Key': key }).expect(201);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
      expect(await keyRow(key)).toMatchObject({ state: 'completed', response_status: 201 });
      expect(await rowsWithCuir(body.cuir as string)).toBe(1);
    });

    it("answers 409 IDEMPOTENCY_KEY_REUSED for a crashed holder's key sent with another body", async () => {
      const key = randomUUID();
      await db.query(
        `INSERT INTO idempotency_keys (client_id, key, request_hash, state, locked_until, expires_at)
         VALUES ($1, $2, $3, 'in_progress', now() - interval '1 second', now() + interval '1 day')`,
        [a.id, key, hashOf(registrationBody())],
      );
      const body = registrationBody();
      const res = await register(t, a, body, { 'Idempotency-Key': key }).expect(409);
      expect(res.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(await rowsWithCuir(body.cuir as string)).toBe(0);
    });

    it('replays a key stored before the fingerprint had a key (a bare SHA-256) across the deploy; keys stored now hold the HMAC', async () => {
      const body = registrationBody();
      const key = randomUUID();
      const created = await register(t, a, body, { 'Idempotency-Key': key }).expect(201);
      const [{ request_hash }] = await db.query<Array<{ request_hash: string }>>(
        'SELECT request_hash FROM idempotency_keys WHERE key = $1',
        [key],
      );
      // SPEC 11.2: never the bare SHA-256 of a body that holds a DNI.
      expect(request_hash).not.toBe(bareHashOf(body));
      // The key as the service stored it before: its answer under the bare SHA-256.
      await db.query('UPDATE idempotency_keys SET request_hash = $2 WHERE key = $1', [
        key,
        bareHashOf(body),
      ]);
      const replay = await register(t, a, body, { 'Idempotency-Key': key }).expect(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.text).toBe(created.text);
      // Another body under it is still refused.
      const other = await register(t, a, registrationBody(), { 'Idempotency-Key': key }).expect(
        409,
      );
      expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(await rowsWithCuir(body.cuir as string)).toBe(1);
    });

    it("takes over an old-style key whose holder crashed before the deploy at the client's next retry", async () => {
      const body = registrationBody();
      const key = randomUUID();
      await db.query(
        `INSERT INTO idempotency_keys (client_id, key, request_hash, state, locked_until, expires_at)
         VALUES ($1, $2, $3, 'in_progress', now() - interval '1 second', now() + interval '1 day')`,
        [a.id, key, bareHashOf(body)],
      );
      // The registration's own statement compares the keyed fingerprint only: the first retry
      // finds the old one, upgrades it and answers "retry"; the next is taken over.
      const first = await register(t, a, body, { 'Idempotency-Key': key }).expect(409);
      expect(first.body.error.code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
      const res = await register(t, a, body, { 'Idempotency-Key': key }).expect(201);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
      expect(await keyRow(key)).toMatchObject({ state: 'completed', response_status: 201 });
      expect(await rowsWithCuir(body.cuir as string)).toBe(1);
    });

    it('treats a key whose answer expired as new', async () => {
      const key = randomUUID();
      const first = await register(t, a, registrationBody(), { 'Idempotency-Key': key }).expect(
        201,
      );
      await db.query(
        `UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1`,
        [key],
      );
      const second = await register(t, a, registrationBody(), { 'Idempotency-Key': key }).expect(
        201,
      );
      expect(second.headers['idempotent-replayed']).toBeUndefined();
      expect(second.body.data.id_transaccion).not.toBe(first.body.data.id_transaccion);
      expect((await keyRow(key))?.response_text).toBe(second.text);
    });

    it("stores the key's answer in the registration's own transaction (never a committed registration with an unanswered key)", async () => {
      const key = randomUUID();
      const res = await register(t, a, registrationBody(), { 'Idempotency-Key': key }).expect(201);
      const [row] = await db.query(
        `SELECT k.state, k.response_status, k.response_text, (k.xmin::text = r.xmin::text) AS same_tx
           FROM idempotency_keys k JOIN recetas r ON r.idempotency_key = k.key AND r.client_id = k.client_id
          WHERE k.key = $1`,
        [key],
      );
      expect(row).toMatchObject({ state: 'completed', response_status: 201, same_tx: true });
      // The exact bytes of the answer, so a replay repeats it byte for byte.
      expect(row.response_text).toBe(res.text);
    });

    it('replays the first answer byte for byte, a 201 and a 4xx alike', async () => {
      const key = randomUUID();
      const body = registrationBody({ id_de_receta: 'RX-ñandú "quoted" \\ 🎉' });
      const first = await register(t, a, body, { 'Idempotency-Key': key }).expect(201);
      const replay = await register(t, a, body, { 'Idempotency-Key': key }).expect(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.text).toBe(first.text);
      expect(replay.headers['content-type']).toBe(first.headers['content-type']);

      // Carlos Pérez's licence is not enabled: a 422, stored and replayed as sent.
      const refusedKey = randomUUID();
      const refused = registrationBody({
        matricula_profesional: '222333',
        cuir: newCuir({ jurisdiction: '14' }),
      });
      const no = await register(t, a, refused, { 'Idempotency-Key': refusedKey }).expect(422);
      const noAgain = await register(t, a, refused, { 'Idempotency-Key': refusedKey }).expect(422);
      expect(noAgain.headers['idempotent-replayed']).toBe('true');
      expect(noAgain.text).toBe(no.text);
    });

    it('refuses the same key with a different body, and keeps keys per client', async () => {
      const key = randomUUID();
      await register(t, a, registrationBody(), { 'Idempotency-Key': key }).expect(201);
      const reused = await register(t, a, registrationBody(), { 'Idempotency-Key': key }).expect(
        409,
      );
      expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      const other = await register(t, b, registrationBody(), { 'Idempotency-Key': key }).expect(
        201,
      );
      expect(other.headers['idempotent-replayed']).toBeUndefined();
    });

    it('compares bodies canonically: the same fields in another order replay', async () => {
      const key = randomUUID();
      const body = registrationBody();
      const first = await register(t, a, body, { 'Idempotency-Key': key }).expect(201);
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      const second = await register(t, a, reordered, { 'Idempotency-Key': key }).expect(201);
      expect(second.body.data.id_transaccion).toBe(first.body.data.id_transaccion);
    });

    it('replays a 4xx, and does not store a 5xx so the retry runs again', async () => {
      const key = randomUUID();
      const bad = registrationBody({
        matricula_profesional: '222333',
        cuir: newCuir({ jurisdiction: '14' }),
      });
      await register(t, a, bad, { 'Idempotency-Key': key }).expect(422);
      const replayed = await register(t, a, bad, { 'Idempotency-Key': key }).expect(422);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.body.error.code).toBe('PROFESSIONAL_NOT_ENABLED');

      const key2 = randomUUID();
      const body = registrationBody({ matricula_profesional: '123456' });
      await fetch(`${t.sandboxUrl}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ service: 'refeps', mode: 'error' }),
      });
      // The licence may be cached from earlier tests; a fresh licence number is not.
      const uncached = { ...body, matricula_profesional: '555444' };
      await register(t, a, uncached, { 'Idempotency-Key': key2 }).expect(500);
      await fetch(`${t.sandboxUrl}/__sandbox/faults`, { method: 'DELETE' });
      const retried = await register(t, a, uncached, { 'Idempotency-Key': key2 });
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      expect(retried.status).toBe(422); // ran again (555444 is not in the registry)
    });

    it('refuses a key that is not a UUID', async () => {
      const res = await register(t, a, registrationBody(), {
        'Idempotency-Key': 'not-a-uuid',
      }).expect(400);
      expect(res.body.error.details).toEqual([
        { field: 'Idempotency-Key', issue: 'must be a UUID' },
      ]);
    });
  });
});
