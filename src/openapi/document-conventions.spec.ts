import type { OpenAPIObject } from '@nestjs/swagger';
import { completeDocument } from './document-conventions.js';
// The slices declare the operationIds, tags and error examples the document is completed with.
import '../slices.js';
import { TEXT_PATTERN } from '../common/validation/patterns.js';

/** A document shaped as Nest builds it, with the cases the conventions distinguish. */
function built(): OpenAPIObject {
  const envelope = (ref: string) => ({
    description: '',
    content: {
      'application/json': {
        schema: {
          type: 'object',
          properties: { success: { type: 'boolean' }, data: { $ref: ref } },
        },
      },
    },
  });
  return {
    openapi: '3.0.0',
    info: { title: 't', version: '1' },
    paths: {
      '/v1/things/{cuir}': {
        get: {
          operationId: 'ThingsController_get',
          tags: ['verificación'],
          parameters: [
            {
              name: 'cuir',
              in: 'path',
              required: true,
              // The cuir module's pattern, as the route declares it (kept by the conventions).
              schema: { type: 'string', pattern: '^[0-9]{8}[0-9]{33}$' },
            },
          ],
          security: [{ ApiKey: [], ApiSecret: [] }],
          'x-required-scope': 'recetas:verify',
          responses: { 200: envelope('#/components/schemas/Item') },
        } as never,
      },
      '/v1/things': {
        post: {
          operationId: 'ThingsController_create',
          tags: ['things'],
          parameters: [
            { name: 'Idempotency-Key', in: 'header', schema: { type: 'string', format: 'uuid' } },
          ],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/NewThing' } } },
          },
          responses: {
            201: envelope('#/components/schemas/Item'),
            409: {
              description: 'IDEMPOTENCY_KEY_REUSED or IDEMPOTENCY_KEY_IN_PROGRESS',
              content: {
                'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelopeDto' } },
              },
            },
          },
        },
      },
      '/v1/paciente/recetas/{cuir}': {
        get: {
          tags: ['paciente'],
          security: [{ MiArgentina: [] }],
          responses: { 200: envelope('#/components/schemas/Item') },
        },
      },
      '/health/live': { get: { tags: ['operations'], responses: { 200: { description: 'ok' } } } },
    },
    components: {
      schemas: {
        NewThing: {
          type: 'object',
          required: ['items', 'nota'],
          properties: {
            items: { type: 'array', items: { $ref: '#/components/schemas/Item' } },
            nota: { type: 'string', maxLength: 20, example: 'hola' },
          },
        },
        Item: {
          type: 'object',
          properties: { nombre: { type: 'string', maxLength: 10, example: 'x' } },
        },
        MedicamentoDto: {
          type: 'object',
          required: ['code', 'pami_descuento', 'droga'],
          properties: {
            code: { type: 'string' },
            pami_descuento: { type: 'boolean' },
            droga: { type: 'string' },
          },
        },
      },
    },
  };
}

describe('completeDocument', () => {
  const doc = completeDocument(built(), { insurerName: 'ioma' }) as unknown as Record<
    string,
    any // eslint-disable-line @typescript-eslint/no-explicit-any
  >;
  const get = doc.paths['/v1/things/{cuir}'].get;
  const post = doc.paths['/v1/things'].post;
  const patient = doc.paths['/v1/paciente/recetas/{cuir}'].get;
  const live = doc.paths['/health/live'].get;

  it('names operations by method and path, mapped or derived', () => {
    expect(live.operationId).toBe('healthLive');
    expect(get.operationId).toBe('getV1ThingsCuir');
    expect(patient.operationId).toBe('obtenerRecetaPaciente');
  });

  it('requires both API headers with no scopes; public routes need nothing; other schemes stay', () => {
    expect(doc.security).toEqual([{ ApiKey: [], ApiSecret: [] }]);
    expect(live.security).toEqual([]);
    expect(patient.security).toEqual([{ MiArgentina: [] }]);
    expect(get.description).toContain('**Scope:** `recetas:verify`');
  });

  it('ASCII tags, each described at the top level', () => {
    expect(get.tags).toEqual(['verificacion']);
    expect(doc.tags.map((t: { name: string }) => t.name)).toEqual(
      expect.arrayContaining(['verificacion', 'operations', 'things', 'paciente']),
    );
    for (const t of doc.tags) expect(t.description).toBeTruthy();
  });

  it('adds the standard answers: every route, /v1, and bodies', () => {
    expect(Object.keys(live.responses)).toEqual([
      '200',
      '400',
      '404',
      '405',
      '408',
      '431',
      '500',
      '503',
    ]);
    expect(Object.keys(post.responses)).toEqual([
      '201',
      '400',
      '401',
      '403',
      '404',
      '405',
      '408',
      '409',
      '413',
      '415',
      '429',
      '431',
      '500',
      '503',
    ]);
    expect(get.responses['404']).toEqual({ $ref: '#/components/responses/NotFound' });
    expect(doc['x-unmatched-route-responses']['405']).toEqual({
      $ref: '#/components/responses/MethodNotAllowed',
    });
  });

  it('rate-limit headers are required on API-key and citizen-token 2xx only; replays are marked', () => {
    expect(get.responses['200'].headers['RateLimit-Limit']).toMatchObject({ required: true });
    expect(patient.responses['200'].headers['RateLimit-Limit']).toMatchObject({ required: true });
    expect(live.responses['200'].headers['RateLimit-Limit']).toBeUndefined();
    expect(live.responses['200'].headers['X-Request-Id']).toEqual({
      $ref: '#/components/headers/X-Request-Id',
    });
    expect(post.responses['201'].headers).toHaveProperty('Idempotent-Replayed');
    expect(post.responses['400'].headers).toHaveProperty('Idempotent-Replayed');
    expect(get.responses['200'].headers).not.toHaveProperty('Idempotent-Replayed');
  });

  it('parameters: a route-declared pattern is kept, a uuid header gets its exact shape', () => {
    expect(get.parameters[0].schema.pattern).toMatch(/^\^\[0-9\]\{8\}/);
    expect(get.parameters[0].example).toHaveLength(41);
    expect(post.parameters[0].schema).toMatchObject({ maxLength: 36, pattern: expect.any(String) });
  });

  it('closes request bodies, splitting a schema answers share, and refuses control characters in free text', () => {
    const s = doc.components.schemas;
    expect(s.NewThing.additionalProperties).toBe(false);
    expect(s.NewThing.properties.items.items).toEqual({ $ref: '#/components/schemas/ItemInput' });
    expect(s.ItemInput.additionalProperties).toBe(false);
    expect(s.ItemInput.properties.nombre.pattern).toBe(TEXT_PATTERN);
    expect(s.Item.additionalProperties).toBeUndefined();
    expect(s.Item.properties.nombre.pattern).toBeUndefined();
  });

  it('composes examples and fills empty success descriptions', () => {
    expect(post.requestBody.content['application/json'].example).toEqual({
      items: [{ nombre: 'x' }],
      nota: 'hola',
    });
    expect(get.responses['200'].content['application/json'].example).toEqual({
      success: true,
      data: { nombre: 'x' },
    });
    expect(get.responses['200'].description).toMatch(/^OK: /);
  });

  it('shows an example of every code an error answer names; the citizen routes answer no 403', () => {
    type Media = {
      example?: { error: { code: string } };
      examples?: Record<string, { value: { error: { code: string } } }>;
    };
    const codes = (media: Media) =>
      media.example
        ? [media.example.error.code]
        : Object.values(media.examples ?? {}).map((e) => e.value.error.code);
    expect(codes(post.responses['409'].content['application/json'])).toEqual([
      'IDEMPOTENCY_KEY_REUSED',
      'IDEMPOTENCY_KEY_IN_PROGRESS',
    ]);
    expect(codes(doc.components.responses.BadRequest.content['application/json'])).toEqual([
      'VALIDATION_FAILED',
      'UNKNOWN_FIELD',
      'MALFORMED_JSON',
    ]);
    // A 403 names the operation's scope; the standard answer stays shared where nothing differs.
    expect(get.responses['403'].content['application/json'].example.error.message).toBe(
      'This client lacks the scope recetas:verify',
    );
    expect(post.responses['403']).toEqual({ $ref: '#/components/responses/Forbidden' });
    // The citizen's routes: a token, no scope (no 403), and their own messages.
    expect(Object.keys(patient.responses)).not.toContain('403');
    expect(patient.responses['404'].content['application/json'].example.error.message).toBe(
      'Prescription not found',
    );
    expect(Object.keys(patient.responses['429'].content['application/json'].examples)).toEqual([
      'RATE_LIMITED',
      'RATE_LIMITED_address',
    ]);
  });

  it("names the catalogue's discount member after the insurer, in place", () => {
    const m = doc.components.schemas.MedicamentoDto;
    expect(Object.keys(m.properties)).toEqual(['code', 'ioma_descuento', 'droga']);
    expect(m.required).toEqual(['code', 'ioma_descuento', 'droga']);
  });
});
