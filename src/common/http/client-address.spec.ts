import { addressKey } from './client-address.js';

describe('addressKey (the key of per-address limits, SPEC 11.7)', () => {
  it('an IPv4 address is itself', () => {
    expect(addressKey('198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('198.51.100.8')).not.toBe(addressKey('198.51.100.7'));
  });

  it('an IPv6 address is its /64, however it is written', () => {
    const key = '2001:db8:aa:1::/64';
    for (const a of [
      '2001:db8:aa:1::1',
      '2001:0db8:00aa:0001:0000:0000:0000:0002',
      '2001:DB8:AA:1:abcd:ef01:2345:6789',
      '2001:db8:aa:1:ffff::',
      '2001:db8:aa:1::1%eth0',
      '2001:db8:aa:1::198.51.100.7',
    ])
      expect(addressKey(a)).toBe(key);
    expect(addressKey('2001:db8:aa:2::1')).toBe('2001:db8:aa:2::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1')).toBe('fe80:0:0:0::/64');
    expect(addressKey('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('an IPv4-mapped IPv6 address is the IPv4 it carries', () => {
    for (const a of ['::ffff:198.51.100.7', '::FFFF:c633:6407', '0:0:0:0:0:ffff:198.51.100.7'])
      expect(addressKey(a)).toBe('198.51.100.7');
    // Not mapped: the IPv4-compatible and NAT64 forms are IPv6 addresses like any other.
    expect(addressKey('::198.51.100.7')).toBe('0:0:0:0::/64');
    expect(addressKey('64:ff9b::198.51.100.7')).toBe('64:ff9b:0:0::/64');
  });

  it('anything that is not an address is kept as it is', () => {
    for (const a of ['unknown', '-', '', '1.2.3', '2001:db8::1::2', 'gggg::1'])
      expect(addressKey(a)).toBe(a);
  });
});
