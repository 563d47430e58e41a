import { createHash } from 'node:crypto';
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

  it("differs for another resource's path, and for another method", () => {
    const body = { motivo: 'Error en la dosis prescripta' };
    expect(requestHash('POST', '/v1/recetas/15/anular', body)).not.toBe(
      requestHash('POST', '/v1/recetas/16/anular', body),
    );
    expect(requestHash('POST', '/v1/recetas/15/anular', body)).not.toBe(
      requestHash('PUT', '/v1/recetas/15/anular', body),
    );
  });

  it('keeps the text of the hashes stored before, so their retries still match', () => {
    const body = { cuir: '1', items: [], nombre: 'Muñoz' };
    const before = createHash('sha256')
      .update(`POST POST /v1/recetas/registrar\n${canonicalJson(body)}`)
      .digest('hex');
    expect(requestHash('POST', '/v1/recetas/registrar', body)).toBe(before);
  });
});
