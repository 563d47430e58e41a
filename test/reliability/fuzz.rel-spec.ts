import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { LONE_SURROGATE_ISSUE, REFUSED_ISSUE } from '../../src/common/validation/request-text.js';
import type { TestClient } from '../support/clients.js';
import { dispensaBody } from '../support/dispensas.js';
import { EnlacesPublicos } from '../../src/publico/enlaces-publicos.service.js';
import { fullContent, issueBodyCuir, newCuir, registrationBody } from '../support/recetas.js';
import type { TestApp } from '../support/test-app.js';
import { fuzzDni, LogGuard } from './support/log-guard.js';
import {
  CONTENT_ENCODINGS,
  CONTENT_TYPES,
  hostileKey,
  hostileString,
  hostileValue,
  ODD_HEADER_VALUES,
  pct,
  rawBodies,
  toJsonText,
} from './support/payloads.js';
import { checkAnswer, rawRequest, RawResponse, socketRequest } from './support/raw-http.js';
import { startWatchedApp, watchedClient } from './support/setup.js';

/**
 * Property-based fuzzing of every /v1 endpoint over raw HTTP: hostile bodies, query strings,
 * paths and headers. Whatever comes in: never a 5xx, every error in the contract §1 envelope with
 * its request_id, and no row written by a request that was refused.
 */
describe('fuzzing every endpoint', () => {
  const guard = new LogGuard();
  let t: TestApp;
  let c: TestClient;
  let db: DataSource;
  let ownId: string;
  // A few hundred cases per endpoint keeps the file near a minute on two cores.
  const RUNS = Number(process.env.FUZZ_RUNS ?? 250);

  beforeAll(async () => {
    // Delivery off: the history and job counts then move only with registrations.
    t = await startWatchedApp(guard, 'fuzz-app', {
      MINISTRY_DELIVERY_ENABLED: 'false',
      // Hundreds of deliberate 401s: the failure limiter has its own test (auth-abuse).
      AUTH_FAILURES_PER_MINUTE: '100000',
      // The public page's per-address limit has its own test (publico.e2e-spec).
      VERIFICACION_PUBLICA_POR_MINUTO: '100000',
      // Hundreds of deliberate unknown CUIRs and ids: the miss budget the dispensation routes
      // share with verification has its own tests (dispensas-enumeracion, verificacion-enumeracion).
      VERIFICACION_FALLOS_POR_MINUTO: '100000',
    });
    c = await watchedClient(t, guard, { cuirUniqueness: true });
    db = t.app.get(DataSource);
    const res = await send('POST', '/v1/recetas/registrar', toJsonText(registrationBody()));
    ownId = res.body.data.id_transaccion;
  });
  afterAll(async () => {
    await t.stop();
  });

  interface Case {
    method: string;
    path: string;
    body?: Buffer | string;
    headers?: Record<string, string>;
  }

  const describeCase = (k: Case) =>
    `${k.method} ${k.path.slice(0, 300)} headers=${JSON.stringify(k.headers ?? {}).slice(0, 300)} body=${
      k.body === undefined ? '-' : JSON.stringify(k.body.toString().slice(0, 300))
    }`;

  async function send(method: string, path: string, body?: Buffer | string, headers = {}) {
    // A registration's CUIR is asked of generation first, as a platform does (only issued ones
    // register): what the fuzzer then changes is the registration itself.
    if (method === 'POST' && path === '/v1/recetas/registrar' && body !== undefined)
      if (await issueBodyCuir(t, c, body.toString())) issuedForRegistrations++;
    return rawRequest(t.url, {
      method,
      path,
      body,
      headers: {
        ...c.headers,
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...headers,
      },
    });
  }

  /** The registration with `over` applied, sent without an Idempotency-Key and then with one. */
  async function registerBothWays(over: Record<string, unknown>) {
    const answers = [];
    for (const headers of [{}, { 'Idempotency-Key': randomUUID() }])
      answers.push(
        await send('POST', '/v1/recetas/registrar', toJsonText(registrationBody(over)), headers),
      );
    return answers;
  }

  /** CUIRs `send` had generation issue before registrations: not the fuzzed requests' doing. */
  let issuedForRegistrations = 0;
  const counts = async () =>
    withoutIssuedForRegistrations(
      await db.query(
        `SELECT (SELECT count(*) FROM recetas WHERE client_id = $1)::int AS recetas,
                (SELECT count(*) FROM receta_historial h JOIN recetas r USING (id_transaccion)
                  WHERE r.client_id = $1)::int AS historial,
                (SELECT count(*) FROM issued_cuirs WHERE client_id = $1)::int AS cuirs,
                (SELECT count(*) FROM ${t.config.queue.schema}.job)::int AS jobs`,
        [c.id],
      ),
    );
  const withoutIssuedForRegistrations = (
    rows: Array<{ recetas: number; historial: number; cuirs: number; jobs: number }>,
  ) => ({ ...rows[0], cuirs: rows[0].cuirs - issuedForRegistrations });

  /**
   * Runs a property over cases and checks every answer; afterwards the rows of the client
   * moved exactly by the requests that were accepted (201, not replayed).
   */
  async function fuzz(arb: fc.Arbitrary<Case>, runs = RUNS): Promise<RawResponse[]> {
    const before = await counts();
    let created = 0;
    let createdCuirs = 0;
    const answers: RawResponse[] = [];
    await fc.assert(
      fc.asyncProperty(arb, async (k) => {
        const res = await send(k.method, k.path, k.body, k.headers);
        checkAnswer(res, describeCase(k));
        answers.push(res);
        if (res.status === 201 && res.headers['idempotent-replayed'] !== 'true') {
          if (k.path.startsWith('/v1/recetas')) created++;
          else if (k.path.startsWith('/v1/cuir')) createdCuirs++;
        }
      }),
      { numRuns: runs },
    );
    const after = await counts();
    expect(after).toEqual({
      recetas: before.recetas + created,
      historial: before.historial + created,
      jobs: before.jobs + created,
      cuirs: before.cuirs + createdCuirs,
    });
    return answers;
  }

  /** Sets `path` (a.b[0].c) in a copy of `obj`. */
  function setPath(obj: Record<string, unknown>, path: string, value: unknown) {
    const copy = structuredClone(obj);
    const keys = path.replace(/\[(\d+)\]/g, '.$1').split('.');
    let at = copy;
    for (const k of keys.slice(0, -1)) at = at[k] as Record<string, unknown>;
    at[keys[keys.length - 1]] = value;
    return copy;
  }

  /** A valid body with one field replaced, one field dropped, or one hostile key added. */
  function mutatedBody(valid: () => Record<string, unknown>, fields: string[]) {
    return fc.oneof(
      {
        weight: 5,
        arbitrary: fc.tuple(fc.constantFrom(...fields), hostileValue).map(
          ([f, v]) =>
            () =>
              toJsonText(setPath(valid(), f, v)),
        ),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(...fields.filter((f) => !f.includes('.'))).map((f) => () => {
          const b = valid();
          delete b[f];
          return toJsonText(b);
        }),
      },
      {
        weight: 2,
        arbitrary: fc.tuple(hostileKey, hostileValue).map(([k, v]) => () => {
          const text = toJsonText(valid());
          return `${text.slice(0, -1)},${JSON.stringify(k)}:${toJsonText(v)}}`;
        }),
      },
      { weight: 1, arbitrary: fc.jsonValue().map((v) => () => JSON.stringify(v)) },
    );
  }

  /** Odd but sendable headers on a fraction of the cases. */
  const oddHeaders = fc.oneof(
    { weight: 6, arbitrary: fc.constant({}) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...CONTENT_TYPES).map((v) => ({ 'Content-Type': v })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...CONTENT_ENCODINGS).map((v) => ({ 'Content-Encoding': v })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom('X-Request-Id', 'Idempotency-Key', 'Accept', 'Accept-Charset', 'Origin'),
          fc.constantFrom(...ODD_HEADER_VALUES),
        )
        .map(([k, v]) => ({ [k]: v })),
    },
    {
      weight: 1,
      arbitrary: fc.constant(0).map(() => ({ 'Idempotency-Key': randomUUID() })),
    },
  );

  const postCase = (path: string, body: fc.Arbitrary<() => string>) =>
    fc
      .tuple(body, oddHeaders)
      .map(([make, headers]): Case => ({ method: 'POST', path, body: make(), headers }));

  const cuirBody = () => ({
    groupId:
      String(Date.now()).padStart(13, '0') + String(Math.random()).slice(2, 14).padEnd(12, '0'),
    itemId: '01',
    state: '02',
    prescriptionType: '01',
    medicationType: '02',
  });

  it('POST /v1/cuir/generar', async () => {
    await fuzz(
      postCase(
        '/v1/cuir/generar',
        mutatedBody(cuirBody, ['groupId', 'itemId', 'state', 'prescriptionType', 'medicationType']),
      ),
    );
  });

  it('POST /v1/recetas/registrar', async () => {
    const fields = [
      'documento_paciente',
      'matricula_profesional',
      'refeps_id',
      'locacion',
      'cuir',
      'id_de_receta',
      'nombre_medicamento',
      'fecha_creacion',
      'items',
      'items[0]',
      'items[0].nombre',
      'items[0].cantidad',
      'items[0].codigo',
      // SPEC 9.2's content (the valid body carries every member: fullContent).
      'paciente',
      'paciente.nombre',
      'paciente.apellido',
      'paciente.sexo',
      'paciente.fecha_nacimiento',
      'cobertura',
      'cobertura.financiador',
      'cobertura.numero_afiliado',
      'cobertura.codigo_rnos',
      'cobertura.plan',
      'diagnostico',
      'diagnostico.codigo',
      'diagnostico.descripcion',
      'items[1].dci',
      'items[1].concentracion',
      'items[1].forma_farmaceutica',
      'items[1].presentacion',
      'items[1].posologia',
      'items[1].sustituible',
      'items[1].codigo',
    ];
    const valid = () =>
      registrationBody({ ...fullContent(), documento_paciente: fuzzDni(Date.now()) });
    const answers = await fuzz(postCase('/v1/recetas/registrar', mutatedBody(valid, fields)));
    // The fuzzer reached the service's rules, not only the validation pipe.
    expect(answers.some((a) => a.status === 201)).toBe(true);
    expect(answers.some((a) => a.status === 400)).toBe(true);
  });

  it.each([
    [
      '/v1/profesional/verificar',
      () => ({ documento: fuzzDni(1), jurisdiccion: '02' }),
      ['documento', 'jurisdiccion'],
    ],
    ['/v1/persona/verificar', () => ({ documento: fuzzDni(2) }), ['documento']],
  ])('POST %s', async (path, valid, fields) => {
    await fuzz(postCase(path, mutatedBody(valid, fields)));
  });

  /**
   * A prescription of ten items of 999 units, registered by the fuzzing client itself; odd items
   * prescribed by catalogue code, every third one not substitutable (SPEC 9.2), so fuzzed
   * `codigo` and `sustituido` values reach the substitution rules.
   */
  async function tenItems(): Promise<{ id: string; cuir: string }> {
    const body = registrationBody({
      items: Array.from({ length: 10 }, (_, i) => ({
        nombre: `Item ${i + 1}`,
        cantidad: 999,
        ...(i % 2 === 0 ? { codigo: '1336421' } : {}),
        ...(i % 3 === 0 ? { sustituible: false } : {}),
      })),
    });
    const res = await send('POST', '/v1/recetas/registrar', toJsonText(body));
    expect(res.status).toBe(201);
    return { id: res.body.data.id_transaccion, cuir: body.cuir as string };
  }

  /** Units and rows of a prescription's items not reversed: never more than prescribed, one row each. */
  const dispensed = async (id: string) =>
    (
      await db.query(
        `SELECT count(*)::int AS rows, count(DISTINCT item)::int AS items,
                coalesce(max(cantidad), 0)::int AS max FROM dispensa_items
          WHERE id_transaccion = $1 AND NOT revertida`,
        [id],
      )
    )[0] as { rows: number; items: number; max: number };

  it('POST /v1/dispensas', async () => {
    const r = await tenItems();
    let n = 0;
    const valid = () => dispensaBody(r.cuir, [[(n++ % 10) + 1, 1 + (n % 3)]]);
    const fields = [
      'cuir',
      'reserva_id',
      'farmacia',
      'farmacia.cuit',
      'farmacia.nombre',
      'fecha_dispensa',
      'items',
      'items[0]',
      'items[0].item',
      'items[0].cantidad',
      'items[0].codigo',
      'items[0].sustituido',
    ];
    const answers = await fuzz(postCase('/v1/dispensas', mutatedBody(valid, fields)));
    expect(answers.some((a) => a.status === 201)).toBe(true);
    expect(answers.some((a) => a.status === 400)).toBe(true);
    const d = await dispensed(r.id);
    expect(d.rows).toBe(d.items);
    expect(d.items).toBeLessThanOrEqual(10);
    expect(d.max).toBeLessThanOrEqual(999);
  });

  it('POST /v1/dispensas/reservas', async () => {
    const r = await tenItems();
    const answers = await fuzz(
      postCase(
        '/v1/dispensas/reservas',
        mutatedBody(() => ({ cuir: r.cuir }), ['cuir']),
      ),
    );
    expect(answers.some((a) => a.status === 201 || a.status === 200)).toBe(true);
  });

  it('POST /v1/recetas/{id}/anular and POST /v1/dispensas/{id}/revertir', async () => {
    // Cancelled before: a valid body answers 200 again and records nothing, so the counts hold.
    const cancelled = await tenItems();
    const first = await send(
      'POST',
      `/v1/recetas/${cancelled.id}/anular`,
      toJsonText({ motivo: 'Cancelada antes del fuzzing' }),
    );
    expect(first.status).toBe(200);
    await fuzz(
      postCase(
        `/v1/recetas/${cancelled.id}/anular`,
        mutatedBody(() => ({ motivo: 'Error en la dosis' }), ['motivo']),
      ),
    );
    const r = await tenItems();
    const d = await send('POST', '/v1/dispensas', toJsonText(dispensaBody(r.cuir, [[1, 1]])));
    expect(d.status).toBe(201);
    await fuzz(
      postCase(
        `/v1/dispensas/${d.body.data.id_dispensa}/revertir`,
        mutatedBody(() => ({ motivo: 'Cargada por error' }), ['motivo']),
      ),
    );
  });

  it.each([
    '/v1/cuir/generar',
    '/v1/recetas/registrar',
    '/v1/profesional/verificar',
    '/v1/persona/verificar',
    '/v1/dispensas',
    '/v1/dispensas/reservas',
  ])('POST %s: raw bodies (depth, bytes, duplicate and polluting keys, size)', async (path) => {
    const someCuir = path.startsWith('/v1/dispensas') ? (await tenItems()).cuir : '';
    const validText =
      path === '/v1/recetas/registrar'
        ? toJsonText(registrationBody({ documento_paciente: fuzzDni(3) }))
        : path === '/v1/dispensas'
          ? toJsonText(dispensaBody(someCuir, [[1, 1]]))
          : path === '/v1/dispensas/reservas'
            ? toJsonText({ cuir: someCuir })
            : toJsonText(path === '/v1/cuir/generar' ? cuirBody() : { documento: fuzzDni(4) });
    const before = await counts();
    for (const { name, body } of rawBodies(validText)) {
      for (const headers of [{}, { 'Idempotency-Key': randomUUID() }]) {
        const res = await send('POST', path, body, headers);
        checkAnswer(res, `POST ${path} raw body "${name}" ${JSON.stringify(headers)}`);
      }
    }
    const after = await counts();
    // "duplicate keys" of a registration repeats a valid body: it may register (twice: with
    // and without a key), nothing else may.
    expect(after.recetas - before.recetas).toBeLessThanOrEqual(
      path === '/v1/recetas/registrar' ? 2 : 0,
    );
    // Generation issues at most two; a registration's valid CUIR is issued once, before it.
    expect(after.cuirs - before.cuirs).toBeLessThanOrEqual(
      path === '/v1/cuir/generar' ? 2 : path === '/v1/recetas/registrar' ? 1 : 0,
    );
  });

  /** A query string of known and hostile keys with hostile values, and raw encoding tricks. */
  function queryCase(path: string, valid: Record<string, string>, keys: string[]) {
    const pair = fc.tuple(
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...keys) },
        { weight: 1, arbitrary: hostileKey },
      ),
      fc.oneof(
        { weight: 3, arbitrary: hostileString },
        { weight: 1, arbitrary: fc.constantFrom(...Object.values(valid)) },
      ),
    );
    const encoded = fc
      .tuple(fc.array(pair, { minLength: 0, maxLength: 4 }), fc.boolean())
      .map(([pairs, keepValid]) => {
        const all = [...(keepValid ? Object.entries(valid) : []), ...pairs];
        return all.map(([k, v]) => `${pct(k)}=${pct(v)}`).join('&');
      });
    const tricks = fc.constantFrom(
      'page',
      '=x',
      '&&&',
      '%',
      '%zz',
      '%C0%AF=1',
      `${pct(Object.keys(valid)[0])}=%E0%A4%A`,
      'a[b]=1&a[c]=2',
      `${Object.entries(valid)
        .map(([k, v]) => `${k}=${pct(v)}&${k}=${pct(v)}`)
        .join('&')}`,
      `${Object.entries(valid)
        .map(([k, v]) => `${k}=${pct(v)}`)
        .join('&')}&__proto__=1`,
      `${Object.entries(valid)
        .map(([k, v]) => `${k}=${pct(v)}`)
        .join('&')}&constructor=x`,
      `q=${'a'.repeat(6000)}`,
      'page=1e3&per_page=0x10',
      'page=99999999999999999999&per_page=-1',
    );
    return fc
      .tuple(
        fc.oneof({ weight: 4, arbitrary: encoded }, { weight: 1, arbitrary: tricks }),
        oddHeaders,
      )
      .map(([qs, headers]): Case => ({
        method: 'GET',
        path: `${path}?${qs}`,
        headers: stripBodyHeaders(headers),
      }));
  }

  const stripBodyHeaders = (h: Record<string, string>) =>
    Object.fromEntries(Object.entries(h).filter(([k]) => !/^content-/i.test(k)));

  it('GET /v1/recetas/listar', async () => {
    const answers = await fuzz(
      queryCase(
        '/v1/recetas/listar',
        { fecha_desde: '2020-01-01T00:00:00Z', fecha_hasta: '2099-01-01T00:00:00Z' },
        [
          'fecha_desde',
          'fecha_hasta',
          'matricula',
          'documento',
          'estado',
          'page',
          'per_page',
          'as_of',
        ],
      ),
    );
    expect(answers.some((a) => a.status === 200)).toBe(true);
  });

  it('GET /v1/medicamentos/buscar', async () => {
    const answers = await fuzz(
      queryCase('/v1/medicamentos/buscar', { q: 'ibuprofeno' }, ['q', 'code', 'page', 'per_page']),
    );
    expect(answers.some((a) => a.status === 200)).toBe(true);
  });

  /** Path ids: hostile strings, odd spellings, and `OWN` (a real one of the case's own). */
  const idArb = fc.oneof(
    { weight: 3, arbitrary: hostileString.map(pct) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '%E0%A4%A',
        '%',
        '%zz',
        '%00',
        '%2F',
        '..',
        '-1',
        '0',
        '00000000000000000001',
        '9'.repeat(19),
        '9'.repeat(400),
        '1e3',
        '0x10',
        '%201',
        pct('١٢٣'),
        pct('1;select 1'),
        pct("1' OR '1'='1"),
      ),
    },
    { weight: 1, arbitrary: fc.constant('OWN') },
  );

  it.each(['/v1/recetas', '/v1/transacciones'])('GET %s/:id (paths and queries)', async (base) => {
    const query = fc.oneof(
      { weight: 3, arbitrary: fc.constant('') },
      {
        weight: 1,
        arbitrary: fc
          .tuple(hostileKey, hostileString)
          .map(([k, v]) => `?${pct(k) || 'x'}=${pct(v)}`),
      },
    );
    const answers = await fuzz(
      fc.tuple(idArb, query, oddHeaders).map(([id, q, headers]): Case => ({
        method: 'GET',
        path: `${base}/${id === 'OWN' ? ownId : id}${q}`,
        headers: stripBodyHeaders(headers),
      })),
    );
    expect(answers.some((a) => a.status === 200)).toBe(true);
    expect(answers.some((a) => a.status === 404)).toBe(true);
  });

  it.each([
    ['GET', '/v1/dispensas/:id'],
    ['POST', '/v1/dispensas/:id/revertir'],
    ['DELETE', '/v1/dispensas/reservas/:id'],
    ['POST', '/v1/recetas/:id/anular'],
  ])('%s %s (hostile ids)', async (method, route) => {
    // The own ids: a dispensation (reversed by the first valid case, which records nothing counted)
    // and a reservation of the client's, and a prescription cancelled already.
    const r = await tenItems();
    const own =
      route === '/v1/recetas/:id/anular'
        ? r.id
        : route.startsWith('/v1/dispensas/reservas')
          ? (await send('POST', '/v1/dispensas/reservas', toJsonText({ cuir: r.cuir }))).body.data
              .reserva_id
          : (await send('POST', '/v1/dispensas', toJsonText(dispensaBody(r.cuir, [[1, 1]])))).body
              .data.id_dispensa;
    if (route === '/v1/recetas/:id/anular')
      await send('POST', `/v1/recetas/${r.id}/anular`, toJsonText({ motivo: 'Antes' }));
    const body = method === 'POST' ? toJsonText({ motivo: 'Motivo válido' }) : undefined;
    const answers = await fuzz(
      fc.tuple(idArb, oddHeaders).map(([id, headers]): Case => ({
        method,
        path: route.replace(':id', id === 'OWN' ? own : id),
        body,
        headers: body ? headers : stripBodyHeaders(headers),
      })),
      100,
    );
    expect(answers.some((a) => a.status === 404)).toBe(true);
    expect(answers.some((a) => a.status < 300)).toBe(true);
  });

  /** A restricted prescription of the client's (SPEC 9.3), registered outside any count. */
  const restrictedCuir = async () => {
    const { paciente, diagnostico, items } = fullContent();
    const body = registrationBody({
      paciente,
      diagnostico,
      items,
      cuir: newCuir({ medicationType: '03' }),
    });
    expect((await send('POST', '/v1/recetas/registrar', toJsonText(body))).status).toBe(201);
    return body.cuir as string;
  };

  it('GET /v1/fiscalizacion/recetas and /{cuir} (a health authority of 02)', async () => {
    const autoridad = await watchedClient(t, guard, {
      scopes: ['fiscalizacion:read'],
      jurisdicciones: ['02'],
    });
    const own = await restrictedCuir();
    const asAuthority = (k: Case): Case => ({
      ...k,
      headers: { ...k.headers, ...autoridad.headers },
    });
    const listed = await fuzz(
      queryCase(
        '/v1/fiscalizacion/recetas',
        { fecha_desde: '2020-01-01T00:00:00Z', fecha_hasta: '2099-01-01T00:00:00Z' },
        ['fecha_desde', 'fecha_hasta', 'subtipo', 'matricula', 'documento', 'page', 'per_page'],
      ).map(asAuthority),
    );
    expect(listed.some((a) => a.status === 200)).toBe(true);
    const one = await fuzz(
      fc.tuple(idArb, oddHeaders).map(([id, headers]) =>
        asAuthority({
          method: 'GET',
          path: `/v1/fiscalizacion/recetas/${id === 'OWN' ? own : id}`,
          headers: stripBodyHeaders(headers),
        }),
      ),
      100,
    );
    expect(one.some((a) => a.status === 200)).toBe(true);
    expect(one.some((a) => a.status === 404)).toBe(true);
  });

  it('GET /r/{cuir}?f= (hostile CUIRs and signatures, no credentials)', async () => {
    const cuir = await restrictedCuir();
    const link = new URL(t.app.get(EnlacesPublicos).url(cuir));
    const firma = link.searchParams.get('f') as string;
    const query = fc.oneof(
      { weight: 2, arbitrary: fc.constant(`?f=${firma}`) },
      { weight: 1, arbitrary: fc.constant('') },
      { weight: 2, arbitrary: hostileString.map((v) => `?f=${pct(v)}`) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(hostileKey, hostileString)
          .map(([k, v]) => `?f=${firma}&${pct(k) || 'x'}=${pct(v)}`),
      },
      { weight: 1, arbitrary: fc.constant(`?f=${firma}&f=${firma}`) },
    );
    const answers = await fuzz(
      fc.tuple(idArb, query, oddHeaders).map(([id, q, headers]): Case => ({
        method: 'GET',
        path: `/r/${id === 'OWN' ? cuir : id}${q}`,
        // No credentials; JSON asked for, so every refusal is the envelope checkAnswer reads.
        headers: {
          ...stripBodyHeaders(headers),
          Accept: 'application/json',
          'X-API-Key': '',
          'X-API-Secret': '',
        },
      })),
      150,
    );
    expect(answers.some((a) => a.status === 200)).toBe(true);
    expect(answers.some((a) => a.status === 404)).toBe(true);
  });

  it('credential headers: odd keys and secrets answer 401 in the envelope, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ODD_HEADER_VALUES, c.key, `${c.key} `, c.key.toUpperCase()),
        fc.constantFrom(...ODD_HEADER_VALUES, c.secret.slice(0, -1), `${c.secret}x`),
        fc.constantFrom('/v1/cuir/generar', '/v1/recetas/listar', '/v1/medicamentos/buscar?q=ibu'),
        async (key, secret, path) => {
          const method = path === '/v1/cuir/generar' ? 'POST' : 'GET';
          const res = await rawRequest(t.url, {
            method,
            path,
            headers: {
              'X-API-Key': key,
              'X-API-Secret': secret,
              ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
            },
            body: method === 'POST' ? toJsonText(cuirBody()) : undefined,
          });
          checkAnswer(res, `${method} ${path} key=${key.slice(0, 40)} secret=…`);
          expect(res.status).toBe(401);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('bytes node:http will not send: invalid UTF-8 in the path and header values, control bytes', async () => {
    const auth = `X-API-Key: ${c.key}\r\nX-API-Secret: ${c.secret}\r\n`;
    const heads: Array<[string, Buffer]> = [
      [
        'invalid UTF-8 in the path',
        Buffer.concat([
          Buffer.from('GET /v1/recetas/'),
          Buffer.from([0xff, 0xfe]),
          Buffer.from(` HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`),
        ]),
      ],
      [
        'invalid UTF-8 in the query',
        Buffer.concat([
          Buffer.from('GET /v1/medicamentos/buscar?q='),
          Buffer.from([0xc3, 0x28, 0xff]),
          Buffer.from(` HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`),
        ]),
      ],
      [
        'invalid UTF-8 in X-Request-Id',
        Buffer.concat([
          Buffer.from('GET /v1/recetas/1 HTTP/1.1\r\nHost: x\r\nX-Request-Id: '),
          Buffer.from([0xff, 0xc3, 0x28]),
          Buffer.from(`\r\n${auth}Connection: close\r\n\r\n`),
        ]),
      ],
      [
        'invalid UTF-8 in X-API-Key',
        Buffer.concat([
          Buffer.from('GET /v1/recetas/1 HTTP/1.1\r\nHost: x\r\nX-API-Key: rk_'),
          Buffer.from([0xff, 0xc3, 0x28]),
          Buffer.from(`\r\nX-API-Secret: ${c.secret}\r\nConnection: close\r\n\r\n`),
        ]),
      ],
      [
        'repeated credential headers',
        Buffer.from(
          `GET /v1/recetas/1 HTTP/1.1\r\nHost: x\r\n${auth}${auth}Connection: close\r\n\r\n`,
        ),
      ],
      [
        'absolute-form target',
        Buffer.from(
          `GET http://evil.example/v1/recetas/1 HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`,
        ),
      ],
      [
        'path with dot segments',
        Buffer.from(
          `GET /v1/recetas/../../health/ready HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`,
        ),
      ],
      [
        'TRACE method',
        Buffer.from(`TRACE /v1/recetas/1 HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`),
      ],
      [
        'unknown method',
        Buffer.from(`BREW /v1/recetas/1 HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`),
      ],
      [
        'headers over the size limit',
        Buffer.from(
          `GET /v1/recetas/1 HTTP/1.1\r\nHost: x\r\n${auth}X-Big: ${'b'.repeat(20_000)}\r\nConnection: close\r\n\r\n`,
        ),
      ],
      [
        'a control byte in a header value',
        Buffer.from(
          `GET /v1/recetas/1 HTTP/1.1\r\nHost: x\r\n${auth}X-Odd: a\x01b\r\nConnection: close\r\n\r\n`,
        ),
      ],
    ];
    const failures: string[] = [];
    for (const [name, head] of heads) {
      const res = await socketRequest(t.url, head);
      try {
        checkAnswer(res, name);
        if (name === 'headers over the size limit' && res.status !== 431)
          throw new Error(`431 expected, got ${res.status}`);
      } catch (err) {
        failures.push((err as Error).message.split('\n').slice(0, 3).join(' | '));
      }
    }
    expect(failures).toEqual([]);
  });

  it('U+0000 anywhere in a body or query answers 400 naming the field (PostgreSQL cannot store it)', async () => {
    const before = await counts();
    const cases: Array<[string, Record<string, unknown>]> = [
      ['locacion', { locacion: 'a\u0000b' }],
      ['refeps_id', { refeps_id: '\u0000' }],
      ['items[0].nombre', { items: [{ nombre: 'a\u0000b', cantidad: 1 }] }],
    ];
    for (const [field, over] of cases) {
      for (const res of await registerBothWays(over)) {
        checkAnswer(res, `NUL in ${field}`);
        expect(res.status).toBe(400);
        expect(res.body.error.details).toEqual([{ field, issue: REFUSED_ISSUE }]);
      }
    }
    const q = await send('GET', '/v1/medicamentos/buscar?q=ibu%00profeno');
    checkAnswer(q, 'NUL in q');
    expect(q.status).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it('an unpaired surrogate anywhere in a body answers 400 naming the field (jsonb cannot store it)', async () => {
    const before = await counts();
    const cases: Array<[string, string]> = [
      ['items[0].nombre', '{"items":[{"nombre":"\\ud800","cantidad":2}]}'],
      ['locacion', '{"locacion":"a\\udc00b"}'],
      ['items[0].\\ud83d', '{"items":[{"\\ud83d":1,"nombre":"x","cantidad":1}]}'],
    ];
    for (const [field, json] of cases) {
      const over = JSON.parse(json) as Record<string, unknown>;
      for (const res of await registerBothWays(over)) {
        checkAnswer(res, `lone surrogate in ${field}`);
        expect(res.status).toBe(400);
        expect(res.body.error.details).toEqual([{ field, issue: LONE_SURROGATE_ISSUE }]);
      }
    }
    expect(await counts()).toEqual(before);
    // A well-formed pair (an emoji) is fine.
    const ok = await send(
      'POST',
      '/v1/recetas/registrar',
      toJsonText(registrationBody({ locacion: 'Consultorio \ud83d\ude00' })),
    );
    expect(ok.status).toBe(201);
  });

  it('personal data sent where no parameter expects it stays out of the logged URL', async () => {
    const paths = [
      '/v1/recetas/30111222',
      '/v1/transacciones/30.111.222',
      '/v1/recetas/LAURA',
      `/v1/anything/${pct('ANA MARÍA FERNÁNDEZ')}`,
      '/v1/recetas/listar?30111222=1&fecha_desde=2020-01-01T00:00:00Z',
      `/v1/medicamentos/buscar?q=${pct('GÓMEZ')}`,
      `/v1/medicamentos/buscar?q=ibuprofeno&x=${fuzzDni(6)}`,
      `/v1/recetas/listar?fecha_desde=${fuzzDni(7)}&fecha_hasta=2099-01-01T00:00:00Z`,
    ];
    for (const path of paths) checkAnswer(await send('GET', path), path);
    // Checked by the last test of this file, with everything else the fuzzers sent.
    expect(t.rawLogs()).toContain('[REDACTED]');
  });

  it('logs carry no document number, name or secret', () => {
    expect(guard.size()).toBeGreaterThan(10_000);
    expect(guard.findings()).toEqual([]);
  });
});
