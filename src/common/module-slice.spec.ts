import { defineErrorCodes } from './errors/error-codes.js';
import { defineScopes } from './http/scopes.js';
import { defineSlice, registerSlices, registeredSlices, sliceProblems } from './module-slice.js';

describe('a module slice', () => {
  it('is checked where it is declared: scopes, codes, tags, routes, examples', () => {
    expect(() => defineScopes({ 'Obras:read': 'x' })).toThrow(/scope "Obras:read"/);
    expect(() => defineErrorCodes({ 'not-a-code': 400 })).toThrow(/error code "not-a-code"/);
    expect(() => defineSlice({ name: 'x', tags: { 'Bad Tag': 'x' } })).toThrow(
      /slice x: OpenAPI tag "Bad Tag"/,
    );
    expect(
      sliceProblems({
        name: 'obras_sociales',
        operationIds: { '/v1/x': 'x' },
        errors: { A: 400 },
        errorExamples: [{ code: 'NOT_FOUND', message: 'x' }],
      }),
    ).toEqual([
      expect.stringMatching(/^module name "obras_sociales"/),
      expect.stringMatching(/^operationIds key "\/v1\/x"/),
      "errorExamples: NOT_FOUND is not one of the slice's error codes",
    ]);
  });

  it('takes hyphens where the rules allow them', () => {
    const slice = defineSlice({
      name: 'obras-sociales',
      scopes: defineScopes({ 'obras-sociales:read': 'x' }),
      tags: { 'obras-sociales': 'x' },
      operationIds: { 'GET /v1/obras-sociales': 'buscarObrasSociales' },
    });
    expect(sliceProblems(slice)).toEqual([]);
  });

  it('refuses, at registration, a tag, route or operationId two slices declare', () => {
    const a = { name: 'a', tags: { t: 'x' }, operationIds: { 'GET /a': 'leer' } };
    const b = { name: 'b', tags: { t: 'y' }, operationIds: { 'GET /b': 'leer' } };
    expect(() => registerSlices([a, b])).toThrow(
      /tag t is declared by a and b; operationId leer is declared by a and b/,
    );
    expect(registeredSlices()).toEqual([]);
    registerSlices([a]);
    expect(registeredSlices()).toEqual([a]);
  });
});
