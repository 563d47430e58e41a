import { signatureHeader, verifySignature } from './webhook-signer.js';

describe('webhook signatures', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');
  const t = now / 1000;

  it('verifies its own signature and refuses tampering, another secret or an old timestamp', () => {
    const header = signatureHeader('whsec_a', '{"x":1}', t);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature('whsec_a', '{"x":1}', header, 300, now)).toBe(true);
    expect(verifySignature('whsec_a', '{"x":2}', header, 300, now)).toBe(false);
    expect(verifySignature('whsec_b', '{"x":1}', header, 300, now)).toBe(false);
    expect(verifySignature('whsec_a', '{"x":1}', header, 300, now + 301_000)).toBe(false);
    expect(verifySignature('whsec_a', '{"x":1}', 'garbage', 300, now)).toBe(false);
  });
});
