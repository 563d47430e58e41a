import { isPrivateAddress, webhookUrlProblem } from './webhook-url-policy.js';

describe('webhook URL policy (SSRF guard)', () => {
  const strict = { requireHttps: true, allowPrivate: false };

  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:10.0.0.1',
  ])('%s is private', (a) => expect(isPrivateAddress(a)).toBe(true));

  it.each([
    ['::10.0.0.1', 'IPv4-compatible (::/96)'],
    ['::a00:1', 'IPv4-compatible, hex'],
    ['::8.8.8.8', 'IPv4-compatible, even of a public address'],
    ['::ffff:a00:1', 'IPv4-mapped, hex'],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
    ['64:ff9b::127.0.0.1', 'NAT64 of loopback'],
    ['64:ff9b::808:808', 'NAT64 of a public address (refused outright)'],
    ['64:ff9b:1::a00:1', 'local-use NAT64 (64:ff9b:1::/48)'],
    ['2002:a00:1::1', '6to4, embedding 10.0.0.1'],
    ['2001:0:a00:1::1', 'Teredo (2001::/32)'],
    ['fec0::1', 'site-local (fec0::/10)'],
    ['2001:db8::1', 'documentation (2001:db8::/32)'],
    ['100::1', 'discard-only (100::/64)'],
    ['192.0.2.1', 'TEST-NET-1'],
    ['198.51.100.7', 'TEST-NET-2'],
    ['203.0.113.9', 'TEST-NET-3'],
    ['198.18.0.1', 'benchmarking (198.18.0.0/15)'],
    ['198.19.255.254', 'benchmarking, upper half'],
    ['100.127.255.254', 'CGNAT (100.64.0.0/10)'],
    ['255.255.255.255', 'broadcast'],
  ])('%s is refused: %s', (a) => expect(isPrivateAddress(a)).toBe(true));

  it.each([
    ['https://[64:ff9b::a00:1]/hook'],
    ['https://[::10.0.0.1]/hook'],
    ['https://192.0.2.10/hook'],
    ['https://[2001:db8::5]/hook'],
  ])('refuses the URL %s', async (url) => {
    expect(await webhookUrlProblem(url, strict)).toMatch(/private/);
  });
  it.each(['8.8.8.8', '200.45.1.1', '2001:4860:4860::8888', '2800:810::1', '198.20.0.1'])(
    '%s is public',
    (a) => expect(isPrivateAddress(a)).toBe(false),
  );

  it.each([
    ['https://169.254.169.254/latest/meta-data', /private/],
    ['https://10.0.0.1/hook', /private/],
    ['https://[::1]/hook', /private/],
    ['https://localhost/hook', /private/],
    ['http://8.8.8.8/hook', /https/],
    ['ftp://8.8.8.8/hook', /https/],
    ['https://user:pw@8.8.8.8/hook', /credentials/],
    ['not a url', /absolute URL/],
  ])('refuses %s', async (url, why) => {
    expect(await webhookUrlProblem(url, strict)).toMatch(why);
  });

  it('accepts a public https address, and private ones only when allowed', async () => {
    expect(await webhookUrlProblem('https://8.8.8.8/hook', strict)).toBeNull();
    expect(
      await webhookUrlProblem('http://127.0.0.1:4010/hook', {
        requireHttps: false,
        allowPrivate: true,
      }),
    ).toBeNull();
  });
});
