import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { canonicalJson } from '../common/canonical-json.js';
import { requestFingerprint, requestHash } from './canonical-hash.js';

const KEY = Buffer.alloc(32, 1);

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
        expect(requestHash(KEY, 'POST', '/x', reversed)).toBe(requestHash(KEY, 'POST', '/x', obj));
      }),
    );
    const h = (path: string, body: unknown) => requestHash(KEY, 'POST', path, body);
    expect(h('/x', { a: 1 })).not.toBe(h('/x', { a: 2 }));
    expect(h('/x', { a: 1 })).not.toBe(h('/y', { a: 1 }));
    expect(h('/x', { a: '1' })).not.toBe(h('/x', { a: 1 }));
  });

  it("differs for another resource's path, and for another method", () => {
    const body = { motivo: 'Error en la dosis prescripta' };
    expect(requestHash(KEY, 'POST', '/v1/recetas/15/anular', body)).not.toBe(
      requestHash(KEY, 'POST', '/v1/recetas/16/anular', body),
    );
    expect(requestHash(KEY, 'POST', '/v1/recetas/15/anular', body)).not.toBe(
      requestHash(KEY, 'PUT', '/v1/recetas/15/anular', body),
    );
  });

  it('is an HMAC under the server key, never the bare SHA-256 of a body that holds a DNI', () => {
    const body = { cuir: '1', documento_paciente: '30111222', items: [] };
    const bare = createHash('sha256')
      .update(`POST POST /v1/recetas/registrar\n${canonicalJson(body)}`)
      .digest('hex');
    const fp = requestFingerprint(KEY, 'POST', '/v1/recetas/registrar', body);
    expect(fp.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(fp.hash).not.toBe(bare);
    expect(requestHash(Buffer.alloc(32, 2), 'POST', '/v1/recetas/registrar', body)).not.toBe(
      fp.hash,
    );
    // A key stored before still matches its retry, the old way.
    expect(fp.legacy()).toBe(bare);
  });
});
