import { TEXT_PATTERN } from './patterns.js';
import {
  cleanExternalText,
  fieldText,
  LONE_SURROGATE_ISSUE,
  REFUSED_ISSUE,
  refusedText,
  textIssue,
} from './request-text.js';

// Each class the contract names: C0 (NUL, BEL, TAB, LF, VT, FF, CR, ESC, US), DEL, C1, bidi;
// and since SPEC 11.6 the separators (Zl, Zp) and every format character (Cf), astral ones too.
const REFUSED = [
  0x00, 0x07, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b, 0x1f, 0x7f, 0x80, 0x85, 0x9f, 0x202a, 0x202e,
  0x2066, 0x2069, 0x2028, 0x2029, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x061c, 0xfeff, 0x00ad,
  0x2060, 0x2064, 0x206f, 0x0600, 0xfff9, 0x110bd, 0x1d173, 0xe0001, 0xe0041, 0xe007f,
];
// Their neighbours, and ordinary Spanish text.
const ALLOWED = [
  0x20, 0x7e, 0xa0, 0xf1, 0x202f, 0x2027, 0x2070, 0x200a, 0x2010, 0x061b, 0xfefe, 0xfffd, 0x1f48a,
  0xe0100,
];

describe('the request text rule', () => {
  it('refuses each control, separator and format character, accepts their neighbours', () => {
    for (const cp of REFUSED)
      expect(textIssue(`a${String.fromCodePoint(cp)}b`)).toBe(REFUSED_ISSUE);
    for (const cp of ALLOWED) expect(textIssue(`a${String.fromCodePoint(cp)}b`)).toBeUndefined();
    expect(textIssue('Ácido fólico “Niño” — ¿sí? 💊')).toBeUndefined();
    expect(textIssue('a\ud800b')).toBe(LONE_SURROGATE_ISSUE);
  });

  it('the OpenAPI text pattern agrees with the rule on every BMP code point, with or without the u flag', () => {
    for (const re of [new RegExp(TEXT_PATTERN, 'u'), new RegExp(TEXT_PATTERN)]) {
      for (let cp = 0; cp <= 0xffff; cp++) {
        if (cp >= 0xd800 && cp <= 0xdfff) continue;
        const ch = String.fromCharCode(cp);
        if (re.test(`a${ch}`) !== (textIssue(`a${ch}`) === undefined))
          throw new Error(`U+${cp.toString(16)}: the pattern and the rule disagree`);
      }
      // Beyond the BMP the pattern lets everything through; the server refuses the Cf ones.
      expect(re.test('a💊')).toBe(true);
    }
  });

  it('escapes a refused character in a field name as \\uXXXX, an astral one as its two units', () => {
    expect(fieldText(['a\u2028b', 0, 'c\u{e0041}'])).toBe('a\\u2028b[0].c\\udb40\\udc41');
  });

  it('cleans text from a registry: a space where a control or separator stood, nothing for an invisible mark', () => {
    expect(cleanExternalText('G\u00d3MEZ\u202e, \u001b[2JLAURA\u0000')).toBe('GÓMEZ, [2JLAURA');
    expect(cleanExternalText('P\u00c9REZ\u2028FAKE LINE')).toBe('PÉREZ FAKE LINE');
    expect(cleanExternalText(' \u200fJos\u00e9\u200d  Mar\u00eda\r\n')).toBe('José María');
    expect(cleanExternalText('Ñandú “x” 💊')).toBe('Ñandú “x” 💊');
    expect(cleanExternalText('a\ud800b')).toBe('ab');
    for (const cp of REFUSED)
      expect(textIssue(cleanExternalText(`a${String.fromCodePoint(cp)}b`))).toBeUndefined();
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
