import fc from 'fast-check';
import { subtipoRestringido } from '../src/recetas/recetas.service.js';
import request from 'supertest';
import { errorCodes, statusOf } from '../src/common/errors/error-codes.js';
import { NAMING_RULES } from '../src/common/naming.js';
import { defaultErrorExample } from '../src/openapi/error-examples.js';
import { declaredTags } from '../src/openapi/tags.js';
import { CUIL, sandboxCitizenToken } from './support/citizen-tokens.js';
import { createClient, TestClient } from './support/clients.js';
import { OpenApiContract } from './support/contract/openapi-contract.js';
import { arbitraryFor, resolve } from './support/contract/schema-arbitrary.js';
import { newCuir, register } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the document is untyped JSON */
type Json = any;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const operations = (doc: Json) =>
  Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] })),
  );
/** Operations a citizen calls with a Mi Argentina token (contract §8), not a client's API key. */
const citizenOnly = (doc: Json, op: Json) =>
  (op.security ?? doc.security).every((r: Json) => Object.keys(r).join() === 'MiArgentina');
const deref = (doc: Json, x: Json) =>
  x?.$ref ? doc.components[x.$ref.split('/')[2]][x.$ref.split('/')[3]] : x;

describe('the served OpenAPI document', () => {
  let t: TestApp;
  let doc: Json;
  let c: TestClient;

  let citizen: Record<string, string>;
  let autoridad: TestClient;

  beforeAll(async () => {
    t = await startTestApp();
    c = await createClient(t, { rateLimitPerMinute: 100_000, cuirUniqueness: false });
    // The health authority's scope is granted only by name (SPEC 9.3).
    autoridad = await createClient(t, { scopes: ['fiscalizacion:read'], jurisdicciones: ['06'] });
    citizen = {
      Authorization: `Bearer ${await sandboxCitizenToken(t.sandboxUrl as string, CUIL)}`,
    };
    doc = (await request(t.url).get('/openapi.json').expect(200)).body;
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('names every operation with a stable operationId', () => {
    const ids = Object.fromEntries(
      operations(doc).map(({ path, method, op }) => [
        `${method.toUpperCase()} ${path}`,
        op.operationId,
      ]),
    );
    expect(ids).toMatchObject({
      'POST /v1/cuir/generar': 'generarCuir',
      'POST /v1/recetas/registrar': 'registrarReceta',
      'GET /v1/recetas/listar': 'listarRecetas',
      'GET /v1/recetas/{id_transaccion}': 'obtenerReceta',
      'GET /v1/transacciones/{id_transaccion}': 'obtenerTransaccion',
      'GET /v1/recetas/verificar/{cuir}': 'verificarRecetaPorCuir',
      'GET /v1/verificaciones': 'listarVerificaciones',
      'POST /v1/profesional/verificar': 'verificarProfesional',
      'POST /v1/persona/verificar': 'verificarPersona',
      'GET /v1/medicamentos/buscar': 'buscarMedicamentos',
      'GET /health/ready': 'healthReady',
    });
  });

  it('requires both API headers on /v1 (no scopes on apiKey schemes) but the patient token on its routes, and nothing elsewhere', () => {
    expect(doc.security).toEqual([{ ApiKey: [], ApiSecret: [] }]);
    expect(doc.components.securitySchemes.MiArgentina).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    for (const { path, op } of operations(doc)) {
      if (path.startsWith('/v1/paciente/')) {
        expect(op.security).toEqual([{ MiArgentina: [] }]);
        expect(op['x-required-scope']).toBeUndefined();
      } else if (path.startsWith('/v1/')) {
        expect(op.security ?? doc.security).toEqual([{ ApiKey: [], ApiSecret: [] }]);
        expect(op['x-required-scope']).toMatch(NAMING_RULES.scope);
        expect(op.description).toContain(`\`${op['x-required-scope']}\``);
      } else {
        expect(op.security).toEqual([]);
      }
    }
  });

  it('has a server, and top-level ASCII tags with descriptions for every tag used, each declared by a slice', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    const used = new Set(operations(doc).flatMap(({ op }) => op.tags as string[]));
    expect(doc.tags.map((x: Json) => x.name).sort()).toEqual([...used].sort());
    const declared = declaredTags();
    for (const tag of doc.tags) {
      expect(tag.name).toMatch(NAMING_RULES.tag);
      expect(tag.description).toBeTruthy();
      expect(declared).toContainEqual({ name: tag.name, description: tag.description });
    }
  });

  it('lists the standard answers and headers on every operation', () => {
    for (const { path, method, op } of operations(doc)) {
      const statuses = Object.keys(op.responses).map(Number);
      const api = path.startsWith('/v1/');
      const expected = [
        400,
        404,
        405,
        408,
        431,
        500,
        503,
        // The citizen's routes take a token, not a client's keys: no scope to lack, no 403.
        ...(api ? (citizenOnly(doc, op) ? [401, 429] : [401, 403, 429]) : []),
        ...(['post', 'put', 'patch'].includes(method) ? [413, 415] : []),
      ];
      expect({
        op: op.operationId,
        missing: expected.filter((s) => !statuses.includes(s)),
      }).toEqual({ op: op.operationId, missing: [] });
      for (const [status, r] of Object.entries<Json>(op.responses)) {
        const response = deref(doc, r);
        expect(response.description).toBeTruthy();
        const headers = response.headers ?? {};
        expect(deref(doc, headers['X-Request-Id'])).toMatchObject({ required: true });
        if (api && !citizenOnly(doc, op) && status.startsWith('2')) {
          for (const h of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'])
            expect(deref(doc, headers[h])).toMatchObject({ required: true });
        }
        if (status === '429')
          expect(deref(doc, headers['Retry-After'])).toMatchObject({ required: true });
        if (status === '405') expect(deref(doc, headers.Allow)).toMatchObject({ required: true });
        if (Number(status) >= 400) {
          expect(response.content['application/json'].schema).toEqual({
            $ref: '#/components/schemas/ErrorEnvelopeDto',
          });
        }
      }
    }
    const registrar = doc.paths['/v1/recetas/registrar'].post;
    for (const status of ['201', '400', '409', '422'])
      expect(deref(doc, registrar.responses[status]).headers).toHaveProperty('Idempotent-Replayed');
    expect(Object.keys(doc['x-unmatched-route-responses'])).toEqual(
      expect.arrayContaining(['404', '405', '408', '413', '415', '431']),
    );
  });

  it('refuses unknown members in every object a request body reaches', () => {
    const seen = new Set<Json>();
    const walk = (s: Json): void => {
      const schema = resolve(doc, s);
      if (!schema || seen.has(schema)) return;
      seen.add(schema);
      if (schema.properties) {
        expect(schema.additionalProperties).toBe(false);
        Object.values(schema.properties).forEach(walk);
      }
      if (schema.items) walk(schema.items);
    };
    for (const { op } of operations(doc)) {
      if (op.requestBody) walk(op.requestBody.content['application/json'].schema);
    }
    expect(seen.size).toBeGreaterThan(4);
    // Answers stay open; the registration's items, now only a request's (the detail and the
    // verification answer items of their own), are closed in place.
    expect(doc.components.schemas.RecetaItemDetalleDto.additionalProperties).toBeUndefined();
    expect(doc.components.schemas.VerificacionItemDto.additionalProperties).toBeUndefined();
    expect(doc.components.schemas.RecetaItemDto.additionalProperties).toBe(false);
  });

  /** The request an operation's examples describe: path, query and body. */
  function exampleRequest(path: string, op: Json) {
    let url = path;
    const query: Record<string, unknown> = {};
    for (const p of op.parameters ?? []) {
      const value = p.example ?? p.schema?.example;
      if (p.in === 'path') url = url.replace(`{${p.name}}`, String(value));
      if (p.in === 'query' && value !== undefined) query[p.name] = value;
    }
    return { url, query, body: op.requestBody?.content['application/json'].example };
  }

  it('every request example is accepted by the server', async () => {
    const accepted: Record<string, number> = {};
    for (const { path, method, op } of operations(doc)) {
      if (!path.startsWith('/v1/')) continue;
      const { url, query, body } = exampleRequest(path, op);
      expect(url).not.toContain('{');
      const credentials = citizenOnly(doc, op)
        ? citizen
        : op['x-required-scope'] === 'fiscalizacion:read'
          ? autoridad.headers
          : c.headers;
      const req = request(t.url)[method as 'get'](url).query(query).set(credentials);
      const res = await (body === undefined ? req : req.send(body));
      accepted[op.operationId] = res.status;
    }
    // Every /v1 example is accepted: a 2xx, or 404 when it names a resource this database does
    // not hold (an example id), or a 409/422 the story's state answers (the examples chain: the
    // CUIR generated first is registered, reserved and dispensed, on dates a calendar month
    // long); never a 400, 401, 403 or 5xx. New operations are covered with no change here.
    const refused = Object.entries(accepted).filter(
      ([, s]) => !(s < 300 || s === 404 || s === 409 || s === 422),
    );
    expect(refused).toEqual([]);
    // The generation example issues the CUIR the registration example registers (to this client).
    expect(accepted).toMatchObject({
      generarCuir: 201,
      registrarReceta: 201,
      obtenerRecetaPaciente: 200,
      descargarDocumentoRecetaPaciente: 200,
      listarRecetas: 200,
      listarVerificaciones: 200,
      verificarProfesional: 200,
      verificarPersona: 200,
      buscarMedicamentos: 200,
    });
  });

  /** A response's JSON examples: `example`, or each of `examples`, by name. */
  const examplesOf = (response: Json): Array<[string, Json]> => {
    const media = response.content?.['application/json'];
    if (!media) return [];
    if (media.example !== undefined) return [['example', media.example]];
    return Object.entries<Json>(media.examples ?? {}).map(([name, e]) => [name, e.value]);
  };

  it('every response example is valid against its schema (as the contract check reads it)', () => {
    const contract = new OpenApiContract(doc);
    let checked = 0;
    for (const { path, method, op } of operations(doc)) {
      for (const [status, r] of Object.entries<Json>(op.responses)) {
        for (const [name, example] of examplesOf(deref(doc, r))) {
          const headers: Record<string, string> = {
            'content-type': 'application/json; charset=utf-8',
            'x-request-id': 'abc',
            'x-content-type-options': 'nosniff',
            'cache-control': 'no-store',
            'ratelimit-limit': '600',
            'ratelimit-remaining': '599',
            'ratelimit-reset': '60',
            'retry-after': '1',
            allow: 'GET',
            // The public page's own (SPEC 11.8: on every answer of it).
            'x-robots-tag': 'noindex',
            'content-security-policy': "default-src 'none'",
            vary: 'Accept',
          };
          const problem = contract.check({
            method,
            url: path.replace(/\{[^}]+\}/g, '1'),
            status: Number(status),
            headers,
            body: example,
            text: JSON.stringify(example),
          });
          expect({ op: op.operationId, status, name, problem }).toEqual({
            op: op.operationId,
            status,
            name,
            problem: undefined,
          });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(200);
  });

  it('every error answer shows an example of each code it names, each answering that status', () => {
    const known = new Set<string>(doc.components.schemas.ErrorBodyDto.properties.code.enum);
    const problems: string[] = [];
    for (const { op } of operations(doc)) {
      for (const [status, r] of Object.entries<Json>(op.responses)) {
        if (Number(status) < 400) continue;
        const response = deref(doc, r);
        const where = `${op.operationId} ${status}`;
        const shown = examplesOf(response).map(([, e]) => e.error.code as string);
        if (shown.length === 0) problems.push(`${where}: no example`);
        for (const code of shown) {
          if (statusOf(code) !== Number(status))
            problems.push(`${where}: ${code} answers ${statusOf(code)}`);
          if (!response.description.includes(code))
            problems.push(`${where}: ${code} shown, not named in the description`);
        }
        const named = (response.description.match(/\b[A-Z][A-Z0-9_]{3,}\b/g) ?? []).filter(
          (w: string) => known.has(w) && statusOf(w) === Number(status),
        );
        for (const code of named)
          if (!shown.includes(code)) problems.push(`${where}: ${code} named, no example`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every error code the service may answer has a default example, and the citizen routes no 403', () => {
    expect(errorCodes().filter((code) => !defaultErrorExample(code))).toEqual([]);
    for (const path of ['/v1/paciente/recetas/{cuir}', '/v1/paciente/recetas/{cuir}/documento']) {
      expect(Object.keys(doc.paths[path].get.responses)).not.toContain('403');
      expect(doc.paths[path].get.description).not.toMatch(/scope/i);
    }
    // A 403 names the scope the operation requires.
    const generar = deref(doc, doc.paths['/v1/cuir/generar'].post.responses['403']);
    expect(examplesOf(generar)[0][1].error.message).toBe('This client lacks the scope cuir:write');
  });

  it('the contract check refuses undocumented statuses, off-schema bodies and missing headers', () => {
    const contract = new OpenApiContract(doc);
    const ok = {
      method: 'GET',
      url: '/health/live',
      status: 200,
      headers: {
        'content-type': 'application/json',
        'x-request-id': 'r1',
        'x-content-type-options': 'nosniff',
      },
      body: { status: 'ok' },
      text: '{"status":"ok"}',
    };
    expect(contract.check(ok)).toBeUndefined();
    expect(contract.check({ ...ok, status: 418 })).toMatch(
      /GET \/health\/live \(healthLive\) answered 418, which is not documented/,
    );
    expect(contract.check({ ...ok, body: { status: 'ok', extra: 1 } })).toMatch(
      /body must NOT have additional properties \(extra\)/,
    );
    expect(contract.check({ ...ok, headers: { 'content-type': 'application/json' } })).toMatch(
      /header X-Request-Id is required and missing/,
    );
    expect(
      contract.check({ ...ok, url: '/v1/nothing-here', status: 404, body: { success: true } }),
    ).toMatch(/no documented operation.*\n.*body must have required property 'error'/);
    expect(contract.check({ ...ok, url: '/v1/nothing-here', status: 200 })).toMatch(
      /answered 200, which is not documented/,
    );
  });

  describe('contract fuzzing: requests valid against the schema are accepted (never 400)', () => {
    const valid = async (
      path: string,
      method: 'get' | 'post',
      make: (doc: Json) => fc.Arbitrary<{ url: string; query?: object; body?: object }>,
    ) => {
      await fc.assert(
        fc.asyncProperty(make(doc), async ({ url, query, body }) => {
          const req = request(t.url)
            [method](url)
            .query(query ?? {})
            .set(c.headers);
          const res = await (body ? req.send(body) : req);
          if (res.status === 400) {
            throw new Error(`${method} ${url} ${JSON.stringify({ query, body })}\n→ ${res.text}`);
          }
        }),
        { numRuns: 25 },
      );
    };
    const queryOf = (doc: Json, path: string, overrides: Record<string, fc.Arbitrary<unknown>>) => {
      const params = doc.paths[path].get.parameters.filter((p: Json) => p.in === 'query');
      return fc.record(
        Object.fromEntries(
          params.map((p: Json) => [p.name, overrides[p.name] ?? arbitraryFor(doc, p.schema)]),
        ),
        { requiredKeys: params.filter((p: Json) => p.required).map((p: Json) => p.name) },
      );
    };
    const pastInstant = fc.date({
      min: new Date('2020-01-01T00:00:00Z'),
      max: new Date(Date.now() - 60_000),
      noInvalidDate: true,
    });
    /** One instant written with `Z`, `+00:00` or `-03:00`. */
    const written = (d: Date) =>
      fc.constantFrom(
        d.toISOString(),
        d.toISOString().replace('Z', '+00:00'),
        new Date(d.getTime() - 3 * 3_600_000).toISOString().replace('Z', '-03:00'),
      );
    const pastDateTime = pastInstant.chain(written);
    /**
     * fecha_inicio_vigencia, when generated, must fall from fecha_creacion's date in Argentina
     * time to 365 days after it (a rule across two fields): here, that very date.
     */
    const withStartDate = (body: Json) =>
      body.fecha_inicio_vigencia === undefined
        ? body
        : {
            ...body,
            fecha_inicio_vigencia: new Date(Date.parse(body.fecha_creacion) - 3 * 3_600_000)
              .toISOString()
              .slice(0, 10),
          };

    /**
     * A restricted prescription (CUIR type 01, subtype 03/04: SPEC 9.3) needs its patient and
     * every item's dosage (a rule across fields, stated in the descriptions): filled in when the
     * generated CUIR is one.
     */
    const withRestrictedMembers = (body: Json) => {
      if (typeof body.cuir !== 'string' || !subtipoRestringido(body.cuir)) return body;
      return {
        ...body,
        paciente: body.paciente ?? {
          nombre: 'Ana',
          apellido: 'Fernández',
          sexo: 'F',
          fecha_nacimiento: '1985-03-14',
        },
        items: (body.items as Json[]).map((i) => ({
          dci: 'clonazepam',
          concentracion: '2 mg',
          forma_farmaceutica: 'comprimido',
          posologia: '1 por la noche',
          ...i,
        })),
      };
    };

    it('POST /v1/cuir/generar', () =>
      valid('/v1/cuir/generar', 'post', (d) =>
        arbitraryFor(
          d,
          d.paths['/v1/cuir/generar'].post.requestBody.content['application/json'].schema,
        ).map((body) => ({ url: '/v1/cuir/generar', body: body as object })),
      ));

    it('POST /v1/recetas/registrar', () =>
      valid('/v1/recetas/registrar', 'post', (d) =>
        arbitraryFor(
          d,
          d.paths['/v1/recetas/registrar'].post.requestBody.content['application/json'].schema,
          // Rules no JSON Schema states: not in the future, a real calendar date.
          {
            fecha_creacion: pastDateTime,
            fecha_nacimiento: fc
              .date({
                min: new Date('1900-01-01Z'),
                max: new Date('2020-12-31Z'),
                noInvalidDate: true,
              })
              .map((d) => d.toISOString().slice(0, 10)),
          },
        ).map((body) => ({
          url: '/v1/recetas/registrar',
          body: withRestrictedMembers(withStartDate(body as Json)),
        })),
      ));

    it('GET /v1/recetas/listar', () =>
      valid('/v1/recetas/listar', 'get', (d) =>
        fc
          .tuple(pastInstant, pastInstant)
          .chain(([a, b]) => fc.tuple(written(a <= b ? a : b), written(a <= b ? b : a)))
          .chain(([desde, hasta]) =>
            queryOf(d, '/v1/recetas/listar', {
              fecha_desde: fc.constant(desde),
              fecha_hasta: fc.constant(hasta),
            }),
          )
          .map((query) => ({ url: '/v1/recetas/listar', query })),
      ));

    it('GET /v1/medicamentos/buscar', () =>
      valid('/v1/medicamentos/buscar', 'get', (d) =>
        queryOf(d, '/v1/medicamentos/buscar', {})
          .filter((q: Json) => q.q !== undefined || q.code !== undefined)
          .map((query) => ({ url: '/v1/medicamentos/buscar', query })),
      ));

    it('POST /v1/profesional/verificar and /v1/persona/verificar', async () => {
      for (const path of ['/v1/profesional/verificar', '/v1/persona/verificar']) {
        await valid(path, 'post', (d) =>
          arbitraryFor(d, d.paths[path].post.requestBody.content['application/json'].schema).map(
            (body) => ({ url: path, body: body as object }),
          ),
        );
      }
    });

    it('path parameters: GET /v1/recetas/verificar/{cuir}, /v1/recetas/{id_transaccion}', async () => {
      const param = (path: string, name: string) =>
        doc.paths[path].get.parameters.find((p: Json) => p.name === name).schema;
      await valid('/v1/recetas/verificar/{cuir}', 'get', (d) =>
        arbitraryFor(d, param('/v1/recetas/verificar/{cuir}', 'cuir')).map((cuir) => ({
          url: `/v1/recetas/verificar/${cuir as string}`,
        })),
      );
      await valid('/v1/recetas/{id_transaccion}', 'get', (d) =>
        arbitraryFor(d, param('/v1/recetas/{id_transaccion}', 'id_transaccion')).map((id) => ({
          url: `/v1/recetas/${id as string}`,
        })),
      );
    });
  });

  it('a registration example with a fresh CUIR and a DNI written with dots is accepted', async () => {
    const example =
      doc.paths['/v1/recetas/registrar'].post.requestBody.content['application/json'].example;
    await register(t, c, { ...example, cuir: newCuir(), documento_paciente: '30.111.222' }).expect(
      201,
    );
  });
});

describe('the served OpenAPI document with INSURER_NAME=ioma', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ INSURER_NAME: 'ioma' });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("names the catalogue's discount member after this deployment's insurer", async () => {
    const doc = (await request(t.url).get('/openapi.json').expect(200)).body;
    const item = doc.components.schemas.MedicamentoDto;
    expect(Object.keys(item.properties)).toContain('ioma_descuento');
    expect(Object.keys(item.properties)).not.toContain('pami_descuento');
    expect(item.required).toContain('ioma_descuento');
    expect(doc.info.description).toContain('a client generated from it is for this deployment');
  });
});
