import { DataSource } from 'typeorm';
import type { TestClient } from '../support/clients.js';
import { issueBodyCuir, registrationBody } from '../support/recetas.js';
import type { TestApp } from '../support/test-app.js';
import { LogGuard } from './support/log-guard.js';
import { pct } from './support/payloads.js';
import { checkAnswer, rawRequest } from './support/raw-http.js';
import { startWatchedApp, watchedClient } from './support/setup.js';

/** Classic and PostgreSQL-specific injection strings, time-based ones included. */
const SQL_PAYLOADS = [
  "' OR 1=1 --",
  "'; DROP TABLE recetas; --",
  "1'; DELETE FROM api_clients; --",
  '" OR ""="',
  "' OR pg_sleep(3) IS NULL --",
  "'; SELECT pg_sleep(3); --",
  '1) OR pg_sleep(3) IS NULL --',
  "' UNION SELECT secret_hash, key FROM api_clients --",
  "admin'--",
  '\\',
  "\\'; DROP TABLE recetas; --",
  "%' OR '%'='",
  '$1',
  '$$; DROP TABLE recetas; $$',
  "E'\\x27'",
  '1; COMMIT; DROP TABLE recetas; --',
  '*/ DROP TABLE recetas /*',
  '%',
  '_',
];

/** Must stay well under pg_sleep(3): a payload that reached SQL as code would take 3 s. */
const NO_SLEEP_MS = 2500;

const TABLES = [
  'recetas',
  'receta_historial',
  'api_clients',
  'issued_cuirs',
  'idempotency_keys',
  'medicamentos',
];
/**
 * Other suites share the database: they add rows, and two tables also lose rows by design
 * (expired or abandoned idempotency keys, medicines a catalogue sync withdrew). Those two are
 * counted where only this suite writes: its own client's keys; the catalogue must stay
 * non-empty.
 */
const COUNTED: Record<string, string> = {
  idempotency_keys: 'SELECT count(*)::int AS n FROM idempotency_keys WHERE client_id = $1',
  medicamentos: 'SELECT least(count(*), 1)::int AS n FROM medicamentos WHERE $1::text IS NOT NULL',
};

/**
 * Every string a client controls (body fields, query parameters, path ids, headers) carries
 * SQL payloads: no 5xx, no statement slowed by pg_sleep, tables and rows intact, and what is
 * stored is the payload itself, read back verbatim (so it went in as a parameter).
 */
describe('SQL injection', () => {
  const guard = new LogGuard();
  let t: TestApp;
  let c: TestClient;
  let db: DataSource;
  let before: Record<string, number>;
  let ownId: string;
  let clientHash: string;

  const tableCounts = async () => {
    const out: Record<string, number> = {};
    for (const table of TABLES) {
      const [{ exists }] = await db.query('SELECT to_regclass($1) IS NOT NULL AS exists', [
        `public.${table}`,
      ]);
      expect({ table, exists }).toEqual({ table, exists: true });
      const sql =
        COUNTED[table] ?? `SELECT count(*)::int AS n FROM ${table} WHERE $1::text IS NOT NULL`;
      out[table] = Number((await db.query(sql, [c.id]))[0].n);
    }
    return out;
  };

  beforeAll(async () => {
    t = await startWatchedApp(guard, 'injection-app', {
      MINISTRY_DELIVERY_ENABLED: 'false',
      // Payloads in the credential headers are 401s by the dozen; the limiter is not under test.
      AUTH_FAILURES_PER_MINUTE: '100000',
    });
    c = await watchedClient(t, guard, { cuirUniqueness: false });
    db = t.app.get(DataSource);
    before = await tableCounts();
    clientHash = (await db.query('SELECT secret_hash FROM api_clients WHERE id = $1', [c.id]))[0]
      .secret_hash;
    const res = await send('POST', '/v1/recetas/registrar', registrationBody());
    ownId = res.body.data.id_transaccion;
  });
  afterAll(async () => {
    await t.stop();
  });

  async function send(
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
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }
  const checked = async (what: string, p: Promise<Awaited<ReturnType<typeof send>>>) => {
    const res = await p;
    checkAnswer(res, what);
    expect({ what, slow: res.ms > NO_SLEEP_MS }).toEqual({ what, slow: false });
    return res;
  };

  it('registrar: every string field; free-text fields store the payload verbatim', async () => {
    const maxLength: Record<string, number> = { refeps_id: 40, id_de_receta: 64 };
    const freeText = [
      'locacion',
      'refeps_id',
      'id_de_receta',
      'nombre_medicamento',
      'items[0].nombre',
    ];
    const strict = [
      'documento_paciente',
      'matricula_profesional',
      'cuir',
      'fecha_creacion',
      'items[0].codigo',
    ];
    for (const payload of SQL_PAYLOADS) {
      for (const field of [...freeText, ...strict]) {
        const body = registrationBody();
        if (field.startsWith('items[0].'))
          (body.items as Array<Record<string, unknown>>)[0][field.slice(9)] = payload;
        else body[field] = payload;
        const res = await checked(
          `registrar ${field}=${payload}`,
          send('POST', '/v1/recetas/registrar', body),
        );
        if (strict.includes(field) || payload.length > (maxLength[field] ?? 200)) {
          expect({ field, payload, status: res.status }).toEqual({ field, payload, status: 400 });
          continue;
        }
        expect({ field, payload, status: res.status }).toEqual({ field, payload, status: 201 });
        const detail = await send('GET', `/v1/recetas/${res.body.data.id_transaccion}`);
        const stored = field.startsWith('items[0].')
          ? detail.body.data.items[0].nombre
          : detail.body.data[field];
        expect(stored).toBe(payload);
      }
    }
  });

  it('cuir/generar, profesional and persona: every body field', async () => {
    const bodies: Array<[string, Record<string, string>]> = [
      [
        '/v1/cuir/generar',
        {
          groupId: '1'.repeat(25),
          itemId: '01',
          state: '02',
          prescriptionType: '01',
          medicationType: '02',
        },
      ],
      ['/v1/profesional/verificar', { documento: '25111222', jurisdiccion: '02' }],
      ['/v1/persona/verificar', { documento: '30111222' }],
    ];
    for (const [path, valid] of bodies) {
      for (const field of Object.keys(valid)) {
        for (const payload of SQL_PAYLOADS) {
          const res = await checked(
            `${path} ${field}=${payload}`,
            send('POST', path, { ...valid, [field]: payload }),
          );
          expect(res.status).toBe(400);
        }
      }
    }
  });

  it('listar and buscar: every query parameter', async () => {
    const range = 'fecha_desde=2000-01-01T00:00:00Z&fecha_hasta=2100-01-01T00:00:00Z';
    const cases: Array<[string, string[], string]> = [
      [
        '/v1/recetas/listar',
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
        range,
      ],
      ['/v1/medicamentos/buscar', ['q', 'code', 'page', 'per_page'], 'q=ibuprofeno'],
      [
        '/v1/fiscalizacion/recetas',
        ['fecha_desde', 'fecha_hasta', 'subtipo', 'matricula', 'documento', 'page', 'per_page'],
        range,
      ],
    ];
    const autoridad = await watchedClient(t, guard, {
      scopes: ['fiscalizacion:read'],
      jurisdicciones: ['02', '06'],
    });
    for (const [path, params, base] of cases) {
      const as = path.startsWith('/v1/fiscalizacion') ? autoridad.headers : {};
      for (const param of params) {
        for (const payload of SQL_PAYLOADS) {
          const rest = base
            .split('&')
            .filter((p) => !p.startsWith(`${param}=`))
            .join('&');
          const query = `${rest}&${param}=${pct(payload)}`;
          const res = await checked(
            `${path}?${query}`,
            send('GET', `${path}?${query}`, undefined, as),
          );
          expect([200, 400]).toContain(res.status);
          // A payload in q is a search text: it matches no medicine or some by its letters,
          // never the whole catalogue.
          if (param === 'q' && res.status === 200) expect(res.body.data.total).toBeLessThan(300);
          if (path !== '/v1/medicamentos/buscar' && res.status === 200)
            expect(res.body.data.total).toBeLessThanOrEqual(1000);
        }
      }
    }
  });

  it('path ids and headers', async () => {
    const autoridad = await watchedClient(t, guard, {
      scopes: ['fiscalizacion:read'],
      jurisdicciones: ['02'],
    });
    for (const payload of SQL_PAYLOADS) {
      for (const base of ['/v1/recetas', '/v1/transacciones']) {
        const res = await checked(`${base}/${payload}`, send('GET', `${base}/${pct(payload)}`));
        expect(res.status).toBe(404);
        const suffixed = await checked(
          `${base}/${ownId}${payload}`,
          send('GET', `${base}/${ownId}${pct(payload)}`),
        );
        expect(suffixed.status).toBe(404);
      }
      // The authority's read by CUIR and the public page: a payload is never a CUIR (404).
      const byCuir = await checked(
        `fiscalizacion/${payload}`,
        send('GET', `/v1/fiscalizacion/recetas/${pct(payload)}`, undefined, autoridad.headers),
      );
      expect(byCuir.status).toBe(404);
      const publico = await checked(
        `/r/${payload}`,
        send('GET', `/r/${pct(payload)}?f=${pct(payload)}`, undefined, {
          Accept: 'application/json',
        }),
      );
      expect(publico.status).toBe(404);
      for (const header of ['X-API-Key', 'X-API-Secret']) {
        const res = await checked(
          `${header}: ${payload}`,
          send('GET', `/v1/recetas/${ownId}`, undefined, { [header]: payload }),
        );
        expect(res.status).toBe(401);
      }
      const idem = await checked(
        `Idempotency-Key: ${payload}`,
        send('POST', '/v1/recetas/registrar', registrationBody(), { 'Idempotency-Key': payload }),
      );
      expect(idem.status).toBe(400);
      const rid = await checked(
        `X-Request-Id: ${payload}`,
        send('GET', `/v1/recetas/${ownId}`, undefined, { 'X-Request-Id': payload }),
      );
      expect(rid.status).toBe(200);
    }
  });

  it('tables and rows are intact, credentials still work', async () => {
    const after = await tableCounts();
    for (const table of TABLES)
      expect({ table, n: after[table] }).toEqual({ table, n: expect.any(Number) });
    // Nothing may have gone (see COUNTED for the two tables that lose rows by design).
    for (const table of TABLES) expect(after[table]).toBeGreaterThanOrEqual(before[table]);
    expect(after.recetas).toBeGreaterThan(before.recetas);
    const [mine] = await db.query('SELECT secret_hash, active FROM api_clients WHERE id = $1', [
      c.id,
    ]);
    expect(mine).toEqual({ secret_hash: clientHash, active: true });
    expect((await send('GET', `/v1/recetas/${ownId}`)).status).toBe(200);
  });

  it('logs carry no document number, name or secret', () => {
    expect(guard.findings()).toEqual([]);
  });
});
