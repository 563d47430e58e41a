import { assertNames, isValidName, namingProblems } from './naming.js';

describe('the naming rules', () => {
  it.each([
    ['scope', 'recetas:read', true],
    ['scope', 'obras-sociales:read', true],
    ['scope', 'recetas:Read', false],
    ['scope', 'recetas', false],
    ['scope', '-x:read', false],
    ['tag', 'verificacion', true],
    ['tag', 'obras-sociales', true],
    ['tag', 'verificación', false],
    ['tag', 'Recetas', false],
    ['errorCode', 'RECETA_ANULADA', true],
    ['errorCode', 'E2E_FAILED', true],
    ['errorCode', 'receta_anulada', false],
    ['errorCode', '_X', false],
    ['setting', 'DISPENSA_RESERVA_MINUTOS', true],
    ['setting', 'dispensaMinutos', false],
    ['module', 'obras-sociales', true],
    ['module', 'obras_sociales', false],
    ['module', 'obras-', false],
    ['module', 'obras2', false],
  ] as const)('%s %p: %p', (kind, name, valid) => {
    expect(isValidName(kind, name)).toBe(valid);
  });

  it('names each offender and the rule it breaks', () => {
    expect(namingProblems('scope', ['a:read', 'B:read'])).toEqual([
      'scope "B:read" does not match ^[a-z][a-z-]*:[a-z]+$',
    ]);
    expect(() => assertNames('tag', ['ok', 'Not ok'], 'slice x')).toThrow(
      /^slice x: OpenAPI tag "Not ok" does not match/,
    );
  });
});
