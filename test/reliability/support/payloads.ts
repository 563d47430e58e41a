import fc from 'fast-check';
import { fuzzDni } from './log-guard.js';

/** Strings that break naive code: SQL, markup, templates, control and odd Unicode, lengths. */
export const HOSTILE_STRINGS = [
  "' OR 1=1 --",
  "'; DROP TABLE recetas; --",
  "1'; DELETE FROM api_clients; --",
  '" OR ""="',
  '1) OR pg_sleep(5) IS NULL --',
  "' UNION SELECT secret_hash FROM api_clients --",
  "admin'--",
  '\\',
  "%' OR '%'='",
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '${7*7}',
  '{{7*7}}',
  '%00',
  '\u0000',
  'a\u0000b',
  '\u001b[31mred',
  '\r\nX-Injected: 1',
  '\u202eRTL',
  '\ufeffBOM',
  '\u200b',
  '🧪💊👩‍⚕️',
  'ñandú ÁÉÍÓÚ Ü',
  '\ud800',
  'x\udfffy',
  '../../etc/passwd',
  '%2e%2e%2f',
  '',
  ' ',
  'null',
  'undefined',
  'NaN',
  '-1',
  '0',
  '1e309',
  '__proto__',
  'constructor',
  'x'.repeat(201),
  'x'.repeat(5000),
  '9'.repeat(60),
];

/** A JSON text spliced in verbatim where JSON.stringify cannot write it (huge numbers). */
export const raw = (text: string) => `@@RAW:${text}@@`;
export const toJsonText = (value: unknown): string =>
  JSON.stringify(value).replace(/"@@RAW:(.*?)@@"/g, (_m, t: string) => JSON.parse(`"${t}"`));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 999 }).map(fuzzDni) },
);

/** Any JSON value a field might be sent with: wrong types, huge numbers, pollution attempts. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileString },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      raw('1e400'),
      raw('-1e400'),
      raw('123456789012345678901234567890'),
      raw('1e-400'),
      raw('-0'),
      raw('{"__proto__":{"polluted":true}}'),
      raw('{"constructor":{"prototype":{"polluted":true}}}'),
      raw('[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]'),
    ),
  },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(hostileStringOrNumber(), { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.string(), { maxKeys: 3 }) },
);

function hostileStringOrNumber(): fc.Arbitrary<unknown> {
  return fc.oneof(fc.constantFrom(...HOSTILE_STRINGS.slice(0, 10)), fc.integer());
}

/** Keys an attacker adds to an object. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', '__defineGetter__', 'toString', ''),
  fc.string({ unit: 'binary', maxLength: 12 }),
);

const deep = (open: string, close: string, n: number, inner = '') =>
  open.repeat(n) + inner + close.repeat(n);

/** Whole bodies that are not the endpoint's object: bytes, depth, shapes. */
export function rawBodies(validText: string): Array<{ name: string; body: Buffer }> {
  const b = (name: string, body: string | Buffer) => ({
    name,
    body: typeof body === 'string' ? Buffer.from(body, 'utf8') : body,
  });
  const withoutClose = validText.slice(0, -1);
  return [
    b('empty', ''),
    b('null', 'null'),
    b('array', '[]'),
    b('array of the object', `[${validText}]`),
    b('string', '"x"'),
    b('number', '1'),
    b('true', 'true'),
    b('truncated', validText.slice(0, validText.length / 2)),
    b('trailing garbage', `${validText}xyz`),
    b('two objects', `${validText}${validText}`),
    b('NaN literal', '{"x": NaN}'),
    b('comment', '/* c */ {}'),
    b('single quotes', "{'a': 1}"),
    b('BOM first', `\ufeff${validText}`),
    b('deep arrays', deep('[', ']', 30_000)),
    b('deep objects', deep('{"a":', '}', 15_000, '1')),
    b('deep value in a field', `${withoutClose},"zz":${deep('[', ']', 20_000)}}`),
    b('deep objects in a field', `${withoutClose},"zz":${deep('{"a":', '}', 12_000, '1')}}`),
    b('duplicate keys', `${withoutClose},${validText.slice(1, -1)}}`),
    b('duplicate key hostile', `${withoutClose},"${firstKey(validText)}":"' OR 1=1 --"}`),
    b('__proto__ key', `${withoutClose},"__proto__":{"polluted":true}}`),
    b('constructor key', `${withoutClose},"constructor":{"prototype":{"polluted":true}}}`),
    b('nested __proto__', `${withoutClose},"items":[{"__proto__":{"x":1}}]}`),
    b('NUL in a key', `${withoutClose},"a\\u0000b":1}`),
    b('long key', `${withoutClose},"${'k'.repeat(50_000)}":1}`),
    b('many keys', `{${Array.from({ length: 4000 }, (_, i) => `"k${i}":${i}`).join(',')}}`),
    b('huge number', `${withoutClose},"n":${'9'.repeat(5000)}}`),
    b('over 100 kB', `{"x":"${'a'.repeat(101 * 1024)}"}`),
    b(
      'invalid UTF-8 in a string',
      Buffer.concat([
        Buffer.from('{"x":"'),
        Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xc0, 0xaf, 0xed, 0xa0, 0x80]),
        Buffer.from('"}'),
      ]),
    ),
    b('invalid UTF-8 bytes alone', Buffer.from([0xff, 0xfe, 0xfd])),
    b('UTF-16 body', Buffer.from(validText, 'utf16le')),
    b('NUL bytes', Buffer.from([0x7b, 0x00, 0x7d])),
  ];
}

function firstKey(jsonText: string): string {
  return /^\{"([^"]+)"/.exec(jsonText)?.[1] ?? 'x';
}

/** Percent-encodes any JS string (lone surrogates too, as U+FFFD), unlike encodeURIComponent. */
export function pct(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(ch)
      ? ch
      : `%${byte.toString(16).padStart(2, '0').toUpperCase()}`;
  }
  return out;
}

/** Header values node:http will send (latin-1, no CR/LF) that the service must survive. */
export const ODD_HEADER_VALUES = [
  '',
  ' ',
  'x'.repeat(4000),
  "' OR 1=1 --",
  '<script>',
  '\u00ff\u00fe\u00e9',
  '%00',
  'null',
  '../../',
  '\t',
  '1,2,3',
];

/** Content types and encodings a POST may arrive with. */
export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json; charset=utf-7',
  'application/json; charset=utf-xyz',
  'application/json;;;',
  'application/json; boundary=x',
  'application/jsonx',
  'application/x-www-form-urlencoded',
  'text/plain',
  'multipart/form-data; boundary=x',
  '',
  '\u00e9',
];

export const CONTENT_ENCODINGS = [
  'gzip',
  'deflate',
  'br',
  'identity',
  'x-unknown',
  'gzip, gzip',
  '',
];
