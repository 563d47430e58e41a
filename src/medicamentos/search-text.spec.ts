import { escapeLike, normalizeSearchText } from './search-text.js';

describe('normalizeSearchText', () => {
  it.each([
    ['IBUPROFENO', 'ibuprofeno'],
    ['amoxicilína', 'amoxicilina'],
    ['LOSARTÁN', 'losartan'],
    ['Ácido  Clavulánico\t', 'acido clavulanico'],
    ['ÑANDÚ', 'nandu'],
    ['ＩＢＵ　２', 'ibu 2'],
    ['a\u0301mox', 'amox'],
  ])('%p → %p', (input, expected) => {
    expect(normalizeSearchText(input)).toBe(expected);
  });

  it('is idempotent', () => {
    const once = normalizeSearchText('Paracetamol 500 MG — Ñ');
    expect(normalizeSearchText(once)).toBe(once);
  });
});

describe('escapeLike', () => {
  it('escapes the wildcards and the escape character', () => {
    expect(escapeLike('2%_a\\b')).toBe('2\\%\\_a\\\\b');
    expect(escapeLike('ibuprofeno')).toBe('ibuprofeno');
  });
});
