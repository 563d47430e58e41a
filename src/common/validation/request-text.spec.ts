import { TEXT_PATTERN } from './patterns.js';
import { LONE_SURROGATE_ISSUE, REFUSED_ISSUE, refusedText, textIssue } from './request-text.js';

// Each class the contract names: C0 (NUL, BEL, TAB, LF, VT, FF, CR, ESC, US), DEL, C1, bidi.
const REFUSED = [
  0x00, 0x07, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b, 0x1f, 0x7f, 0x80, 0x85, 0x9f, 0x202a, 0x202e,
  0x2066, 0x2069,
];
// Their neighbours, and ordinary Spanish text.
const ALLOWED = [0x20, 0x7e, 0xa0, 0xf1, 0x2029, 0x202f, 0x2065, 0x206a, 0x200f, 0x1f48a];

describe('the request text rule', () => {
  it('refuses each control and bidi control, accepts their neighbours', () => {
    for (const cp of REFUSED)
      expect(textIssue(`a${String.fromCodePoint(cp)}b`)).toBe(REFUSED_ISSUE);
    for (const cp of ALLOWED) expect(textIssue(`a${String.fromCodePoint(cp)}b`)).toBeUndefined();
    expect(textIssue('Ácido fólico “Niño” — ¿sí? 💊')).toBeUndefined();
    expect(textIssue('a\ud800b')).toBe(LONE_SURROGATE_ISSUE);
  });

  it('the OpenAPI text pattern agrees with the rule', () => {
    const re = new RegExp(TEXT_PATTERN, 'u');
    for (const cp of REFUSED) expect(re.test(`a${String.fromCodePoint(cp)}`)).toBe(false);
    for (const cp of ALLOWED) expect(re.test(`a${String.fromCodePoint(cp)}`)).toBe(true);
  });

  it('names every string member at fault with its path, and escapes a refused key', () => {
    expect(
      refusedText({
        locacion: 'ok',
        items: [{ nombre: 'bien' }, { nombre: 'x\ny', cantidad: 1 }],
        farmacia: { nombre: '\u202eetneC' },
        'k\u001b': { below: '\u0007 not reached' },
        lone: '\udc00',
      }),
    ).toEqual([
      { field: 'items[1].nombre', issue: REFUSED_ISSUE },
      { field: 'farmacia.nombre', issue: REFUSED_ISSUE },
      { field: 'k\\u001b', issue: REFUSED_ISSUE },
      { field: 'lone', issue: LONE_SURROGATE_ISSUE },
    ]);
    expect(refusedText({ q: ['ab', 'c\u0000'] })).toEqual([
      { field: 'q[1]', issue: REFUSED_ISSUE },
    ]);
    expect(refusedText({ a: 1, b: null, c: true, d: [] })).toEqual([]);
  });
});
