import fc from 'fast-check';
import { canonicalJson } from '../common/canonical-json.js';
import { requestHash } from './canonical-hash.js';

describe('canonical request hash', () => {
  it('ignores key order at every level', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [1, { x: 1, y: 2 }] }, b: 1 }),
    );
  });

  it('is stable under any key permutation and differs for different bodies', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (obj) => {
        const reversed = Object.fromEntries(Object.entries(obj).reverse());
        expect(requestHash('POST', '/x', reversed)).toBe(requestHash('POST', '/x', obj));
      }),
    );
    expect(requestHash('POST', '/x', { a: 1 })).not.toBe(requestHash('POST', '/x', { a: 2 }));
    expect(requestHash('POST', '/x', { a: 1 })).not.toBe(requestHash('POST', '/y', { a: 1 }));
    expect(requestHash('POST', '/x', { a: '1' })).not.toBe(requestHash('POST', '/x', { a: 1 }));
  });
});
