import { createHmac } from 'node:crypto';
import { exportSPKI } from 'jose';
import {
  AUDIENCE,
  b64,
  citizenTokenFixture,
  CUIL,
  ISSUER,
  rawSign,
  refusal,
} from '../../test/support/citizen-tokens.js';
import { bearerToken } from './citizen-token.verifier.js';

// What the token must be (contract §8). The key set's fetching, caching and failures are in
// citizen-key-set.spec.ts.
const fx = citizenTokenFixture();
const { verifier, claims, sign, nowS } = fx;
const keys = () => fx.keys;

describe('CitizenTokenVerifier: accepted tokens', () => {
  it('returns the cuil of a valid RS256 token, and of a valid RS512 token', async () => {
    const v = verifier();
    await expect(v.verify(await sign(claims()))).resolves.toBe(CUIL);
    await expect(v.verify(await sign(claims(), keys().rs512))).resolves.toBe(CUIL);
    expect(v.keySetFetches).toBe(1);
  });

  it('accepts aud as an array holding the audience, and a lifetime of exactly 300 s', async () => {
    const v = verifier();
    await expect(v.verify(await sign(claims({ aud: ['other', AUDIENCE] })))).resolves.toBe(CUIL);
    await expect(v.verify(await sign(claims({ exp: nowS() + 300 })))).resolves.toBe(CUIL);
  });

  it('allows 30 s of clock leeway on exp and iat, not 31', async () => {
    const v = verifier();
    const expiredBy = (s: number) => claims({ iat: nowS() - 100 - s, exp: nowS() - s });
    await expect(v.verify(await sign(expiredBy(25)))).resolves.toBe(CUIL);
    expect(await refusal(v.verify(await sign(expiredBy(31))))).toBe('expired');
    const issuedAhead = (s: number) => claims({ iat: nowS() + s, exp: nowS() + s + 60 });
    await expect(v.verify(await sign(issuedAhead(25)))).resolves.toBe(CUIL);
    expect(await refusal(v.verify(await sign(issuedAhead(45))))).toBe('issued_in_future');
  });

  it('returns a cuil with a bad check digit as signed: the endpoint answers 404 for it', async () => {
    await expect(verifier().verify(await sign(claims({ cuil: '27301112226' })))).resolves.toBe(
      '27301112226',
    );
  });

  it('shares one key-set fetch among concurrent first requests', async () => {
    const v = verifier();
    const tokens = await Promise.all([1, 2, 3, 4, 5].map(() => sign(claims())));
    await expect(Promise.all(tokens.map((t) => v.verify(t)))).resolves.toEqual(
      tokens.map(() => CUIL),
    );
    expect(v.keySetFetches).toBe(1);
  });
});

describe('CitizenTokenVerifier: refused tokens (401)', () => {
  it('refuses alg "none" before any key-set fetch', async () => {
    const v = verifier();
    const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`;
    expect(await refusal(v.verify(token))).toBe('algorithm');
    expect(v.keySetFetches).toBe(0);
  });

  it('refuses HS256 signed with the public key (PEM or JWK as the HMAC secret)', async () => {
    const v = verifier();
    const pem = await exportSPKI(keys().rs256.publicKey);
    for (const secret of [pem, JSON.stringify(keys().rs256.jwk), keys().rs256.jwk.n!]) {
      const input = `${b64({ alg: 'HS256', typ: 'JWT', kid: keys().rs256.kid })}.${b64(claims())}`;
      const mac = createHmac('sha256', secret).update(input).digest('base64url');
      expect(await refusal(v.verify(`${input}.${mac}`))).toBe('algorithm');
    }
  });

  it('refuses a tampered payload and a signature by an unpublished key under a known kid', async () => {
    const v = verifier();
    const [header, , signature] = (await sign(claims())).split('.');
    const tampered = `${header}.${b64(claims({ cuil: '20111111112' }))}.${signature}`;
    expect(await refusal(v.verify(tampered))).toBe('signature');
    expect(await refusal(v.verify(await sign(claims(), keys().outsider)))).toBe('signature');
  });

  it('refuses an RS512 token under a key published for RS256', async () => {
    const header = { alg: 'RS512', kid: keys().rs256.kid };
    const wrongAlg = await rawSign(header, JSON.stringify(claims()), keys().rs256, 'sha512');
    expect(await refusal(verifier().verify(wrongAlg))).toBe('unknown_key');
  });

  it('refuses expired, long-lived and not-yet-valid tokens', async () => {
    const v = verifier();
    expect(
      await refusal(v.verify(await sign(claims({ iat: nowS() - 400, exp: nowS() - 100 })))),
    ).toBe('expired');
    expect(await refusal(v.verify(await sign(claims({ exp: nowS() + 301 }))))).toBe('lifetime');
    expect(await refusal(v.verify(await sign(claims({ exp: nowS() + 86_400 }))))).toBe('lifetime');
    // Issued 340 s ago, expiring in 260 s: not expired by exp, but older than any accepted token.
    expect(
      await refusal(v.verify(await sign(claims({ iat: nowS() - 340, exp: nowS() + 260 })))),
    ).toBe('too_old');
    expect(await refusal(v.verify(await sign(claims({ nbf: nowS() + 120 }))))).toBe(
      'not_yet_valid',
    );
  });

  it('refuses a wrong issuer (exactly compared) and a wrong audience', async () => {
    const v = verifier();
    for (const iss of ['https://evil.test/oidc', `${ISSUER}/`, ISSUER.toUpperCase()]) {
      expect(await refusal(v.verify(await sign(claims({ iss }))))).toBe('issuer');
    }
    for (const aud of ['other-service', 'prescription-registry ', ['a', 'b']]) {
      expect(await refusal(v.verify(await sign(claims({ aud }))))).toBe('audience');
    }
    expect(await refusal(v.verify(await sign(claims({ iss: undefined }))))).toBe('claims');
  });

  it('refuses a token without iat, without exp, or without a string cuil', async () => {
    const v = verifier();
    expect(await refusal(v.verify(await sign(claims({ iat: undefined }))))).toBe('claims');
    expect(await refusal(v.verify(await sign(claims({ exp: undefined }))))).toBe('claims');
    expect(await refusal(v.verify(await sign(claims({ cuil: undefined }))))).toBe('cuil');
    expect(await refusal(v.verify(await sign(claims({ cuil: 27301112225 }))))).toBe('cuil');
    expect(await refusal(v.verify(await sign(claims({ cuil: '' }))))).toBe('cuil');
  });

  it('refuses malformed input without parsing it', async () => {
    const v = verifier();
    for (const token of ['', 'abc', 'a.b', 'a.b.c.d', 'a b.c.d', `${'a'.repeat(9000)}.b.c`]) {
      expect(['missing', 'malformed']).toContain(await refusal(v.verify(token)));
    }
    expect(v.keySetFetches).toBe(0);
    const header = { alg: 'RS256', kid: keys().rs256.kid };
    expect(await refusal(v.verify(await rawSign(header, 'not json', keys().rs256, 'sha256')))).toBe(
      'malformed',
    );
  });
});

describe('bearerToken', () => {
  it('takes the token of a Bearer header, any case of the scheme', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer abc.def.ghi')).toBe('abc.def.ghi');
  });

  it('refuses a missing header or another scheme with the same 401', async () => {
    for (const header of [undefined, '', 'Bearer', 'Basic dXNlcjpwYXNz', 'Bearer a b']) {
      expect(await refusal(Promise.resolve().then(() => bearerToken(header)))).toBe('missing');
    }
  });
});
