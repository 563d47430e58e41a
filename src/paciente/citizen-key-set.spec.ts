import {
  citizenTokenFixture,
  CUIL,
  refusal,
  signer,
  upstream,
} from '../../test/support/citizen-tokens.js';

// The issuer's key set as the verifier sees it: one refresh per unknown kid, a cooldown, a
// stale set while the issuer is down, and 500 UPSTREAM_UNAVAILABLE when the keys cannot be had.
const fx = citizenTokenFixture();
const { verifier, claims, sign } = fx;
const keys = () => fx.keys;

describe('CitizenTokenVerifier: unknown kids and rotation', () => {
  it('refuses an unknown kid after exactly one refresh, and refreshes no more while cooling down', async () => {
    const v = verifier();
    await v.verify(await sign(claims()));
    expect(v.keySetFetches).toBe(1);
    fx.advance(31_000); // past the cooldown that the first fetch started
    const garbage = await sign(claims(), keys().outsider, 'no-such-kid');
    expect(await refusal(v.verify(garbage))).toBe('unknown_key');
    expect(v.keySetFetches).toBe(2);
    for (let i = 0; i < 5; i++) expect(await refusal(v.verify(garbage))).toBe('unknown_key');
    expect(v.keySetFetches).toBe(2);
    fx.advance(31_000);
    expect(await refusal(v.verify(garbage))).toBe('unknown_key');
    expect(v.keySetFetches).toBe(3);
  });

  it('shares one refresh among concurrent tokens with unknown kids', async () => {
    const v = verifier();
    await v.verify(await sign(claims()));
    fx.advance(31_000);
    const tokens = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => sign(claims(), keys().outsider, `garbage-${i}`)),
    );
    const reasons = await Promise.all(tokens.map((t) => refusal(v.verify(t))));
    expect(reasons).toEqual(tokens.map(() => 'unknown_key'));
    expect(v.keySetFetches).toBe(2);
  });

  it('accepts a key the issuer rotated in, through that one refresh', async () => {
    const v = verifier();
    await v.verify(await sign(claims()));
    const rotated = await signer('k-new', 'RS256');
    fx.server.keys = [keys().rs256.jwk, rotated.jwk];
    fx.advance(31_000);
    await expect(v.verify(await sign(claims(), rotated))).resolves.toBe(CUIL);
    expect(v.keySetFetches).toBe(2);
  });
});

describe('CitizenTokenVerifier: the issuer unavailable (500 UPSTREAM_UNAVAILABLE)', () => {
  it('answers UPSTREAM_UNAVAILABLE when the key set answers 503, garbage, or a redirect', async () => {
    for (const mode of ['error', 'garbage', 'redirect'] as const) {
      fx.server.mode = mode;
      await upstream(verifier().verify(await sign(claims())));
    }
  });

  it('gives up after timeoutMs when the key set hangs', async () => {
    fx.server.mode = 'hang';
    const started = Date.now();
    await upstream(verifier({ timeoutMs: 200 }).verify(await sign(claims())));
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('does not retry a failed fetch per request while cooling down', async () => {
    fx.server.mode = 'error';
    const v = verifier();
    const token = await sign(claims());
    for (let i = 0; i < 5; i++) await upstream(v.verify(token));
    expect(v.keySetFetches).toBe(1);
    fx.server.mode = 'ok';
    fx.advance(31_000);
    await expect(v.verify(await sign(claims()))).resolves.toBe(CUIL);
    expect(v.keySetFetches).toBe(2);
  });

  it('keeps serving a stale key set while the issuer is down, within staleIfError', async () => {
    const v = verifier({ jwksCacheMaxAgeSeconds: 600, jwksStaleIfErrorSeconds: 3600 });
    await v.verify(await sign(claims()));
    fx.server.mode = 'error';
    fx.advance(700_000); // past max age: a refresh is due and fails
    await expect(v.verify(await sign(claims()))).resolves.toBe(CUIL);
    await expect(v.verify(await sign(claims()))).resolves.toBe(CUIL);
    expect(v.keySetFetches).toBe(2);
    fx.advance(3_600_000); // past max age + stale-if-error
    await upstream(v.verify(await sign(claims())));
  });

  it('answers UPSTREAM_UNAVAILABLE for an unknown kid whose refresh fails', async () => {
    const v = verifier();
    await v.verify(await sign(claims()));
    fx.server.mode = 'error';
    fx.advance(31_000);
    await upstream(v.verify(await sign(claims(), keys().outsider, 'rotated-maybe')));
  });
});
