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
  it.each(['8.8.8.8', '200.45.1.1', '2001:4860:4860::8888'])('%s is public', (a) =>
    expect(isPrivateAddress(a)).toBe(false),
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
