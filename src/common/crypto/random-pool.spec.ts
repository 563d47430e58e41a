import { randomBytesPooled } from './random-pool.js';

describe('randomBytesPooled', () => {
  it('answers copies of the length asked, never the same bytes twice across refills', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const b = randomBytesPooled(12);
      expect(b).toHaveLength(12);
      seen.add(b.toString('hex'));
    }
    expect(seen.size).toBe(2000);
    // A copy: writing into an answer changes nothing handed out later.
    const a = randomBytesPooled(16);
    a.fill(0);
    expect(randomBytesPooled(16).equals(Buffer.alloc(16))).toBe(false);
  });

  it('refuses more than a pool', () => {
    expect(() => randomBytesPooled(4097)).toThrow(RangeError);
  });
});
