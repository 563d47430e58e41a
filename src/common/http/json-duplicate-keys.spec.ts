import fc from 'fast-check';
import { fieldText } from '../validation/request-text.js';
import { duplicateKeyPath } from './json-duplicate-keys.js';

const scan = (text: string) => duplicateKeyPath(Buffer.from(text, 'utf8'));

describe('duplicateKeyPath', () => {
  it.each([
    ['{"cuir":"a","items":[]}', null],
    ['{"cuir":"a","cuir":"b"}', 'cuir'],
    ['{"items":[{"a":1},{"b":2,"a":1,"a":2}]}', 'items[1].a'],
    ['[{"a":1},[0,{"x":{"y":1,"y":2}}]]', '[1][1].x.y'],
    ['{"a":{"a":1},"b":{"a":2}}', null],
    ['{"a":"b","b":1}', null],
    ['{"a":1,"\\u0061":2}', 'a'],
    ['{"x":"}{,\\"a\\":","a":1}', null],
    ['{"a":"\\\\","a":2}', 'a'],
    ['{"ñandú":1,"ña\\u006edú":2}', 'ñandú'],
    ['{"a":[1,2,{"a":3}],"a":4}', 'a'],
    // A name is named in the answer as every field is: refused text written as \uXXXX.
    ['{"x":{"b\u202e":1,"b\u202e":2}}', 'x.b\\u202e'],
    ['{}', null],
    ['"a"', null],
    ['42', null],
  ])('%s → %s', (text, expected) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(scan(text)).toBe(expected);
  });

  it('finds nothing in any text JSON.stringify writes (names are unique there)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), (value) => {
        expect(scan(JSON.stringify(value))).toBeNull();
        expect(scan(JSON.stringify(value, null, 2))).toBeNull();
      }),
      { numRuns: 500 },
    );
  });

  it('finds a name written twice into any object, escaped or not, at its path as answers name it', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue({ stringUnit: 'binary' }), {
          minKeys: 1,
        }),
        fc.nat(),
        fc.boolean(),
        (object, pick, escape) => {
          const names = Object.keys(object);
          const name = names[pick % names.length];
          const again = escape
            ? `"${name
                .split('')
                .map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
                .join('')}"`
            : JSON.stringify(name);
          const text = `{"outer":[${JSON.stringify(object).slice(0, -1)},${again}:null}]}`;
          expect(scan(text)).toBe(fieldText(['outer', 0, name]));
        },
      ),
      { numRuns: 500 },
    );
  });

  it.each(['{"a', '{"a":1,', ',,,', '}}}', '"\\', '{"\\u12":1,"b":2}', '[,]'])(
    'bytes that are not JSON (%s) end the scan with null',
    (text) => {
      expect(scan(text)).toBeNull();
    },
  );

  it('never throws or hangs on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const found = duplicateKeyPath(Buffer.from(bytes));
        expect(found === null || typeof found === 'string').toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a wide object in one pass (9,000 names)', () => {
    const text = `{${Array.from({ length: 9000 }, (_, i) => `"k${i}":0`).join(',')},"k8999":1}`;
    expect(scan(text)).toBe('k8999');
  });
});
