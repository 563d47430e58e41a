import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import {
  MI_ARGENTINA_AUDIENCE,
  miArgentinaIssuer,
  miArgentinaJwksUrl,
  parseTokenRequest,
} from './mi-argentina.js';
import { startSandbox, type RunningSandbox } from './server.js';

// Bodies are checked by the assertions themselves, so the tests read them untyped.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type TestResponse = Omit<Response, 'json'> & { json(): Promise<any> };
const fetch = (url: string, init?: RequestInit) =>
  globalThis.fetch(url, init) as Promise<TestResponse>;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(() => sandbox.close());

const token = (body: unknown) =>
  fetch(`${sandbox.url}/__sandbox/mi-argentina/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('Mi Argentina (sandbox issuer)', () => {
  it('publishes one RS256 signing key with a kid', async () => {
    const res = await fetch(miArgentinaJwksUrl(sandbox.url));
    expect(res.status).toBe(200);
    const { keys } = await res.json();
    expect(keys).toEqual([
      {
        kty: 'RSA',
        kid: expect.stringMatching(/^sandbox-/),
        alg: 'RS256',
        use: 'sig',
        n: expect.any(String),
        e: 'AQAB',
      },
    ]);
    // 2048-bit modulus: 256 bytes, base64url without padding.
    expect(Buffer.from(keys[0].n, 'base64url')).toHaveLength(256);
    // The same key for the sandbox's life.
    expect((await (await fetch(miArgentinaJwksUrl(sandbox.url))).json()).keys).toEqual(keys);
  });

  it('signs a token that jose verifies against that key set with the exported defaults', async () => {
    const res = await token({ cuil: '27301112225' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body)).toEqual(['token']);
    const jwks = createRemoteJWKSet(new URL(miArgentinaJwksUrl(sandbox.url)));
    const { payload, protectedHeader } = await jwtVerify(body.token, jwks, {
      issuer: miArgentinaIssuer(sandbox.url),
      audience: MI_ARGENTINA_AUDIENCE,
      algorithms: ['RS256'],
    });
    expect(protectedHeader).toEqual({ alg: 'RS256', typ: 'JWT', kid: expect.any(String) });
    expect(payload).toEqual({
      iss: `${sandbox.url}/__sandbox/mi-argentina`,
      aud: 'prescription-registry',
      sub: '27301112225',
      cuil: '27301112225',
      iat: expect.any(Number),
      exp: payload.iat! + 300,
      jti: expect.any(String),
    });
    expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(5);
  });

  it('honours ttl_seconds, beyond what the service accepts too', async () => {
    for (const ttl of [1, 60, 3600]) {
      const { token: jwt } = await (await token({ cuil: '27301112225', ttl_seconds: ttl })).json();
      const payload = JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());
      expect(payload.exp - payload.iat).toBe(ttl);
      expect(decodeProtectedHeader(jwt).alg).toBe('RS256');
    }
  });

  it('signs any 11-digit cuil, a bad check digit included (the service refuses it itself)', async () => {
    expect((await token({ cuil: '27301112226' })).status).toBe(200);
  });

  it('answers 400 DATOS_INVALIDOS for a bad body', async () => {
    for (const body of [
      'not json',
      '[]',
      {},
      { cuil: 27301112225 },
      { cuil: '27-30111222-5' },
      { cuil: '2730111222' },
      { cuil: '27301112225', ttl_seconds: 0 },
      { cuil: '27301112225', ttl_seconds: 1.5 },
      { cuil: '27301112225', ttl_seconds: '60' },
      { cuil: '27301112225', ttl_seconds: 86_401 },
      { cuil: '27301112225', extra: true },
    ]) {
      const res = await token(body);
      expect(res.status).toBe(400);
      expect((await res.json()).error.codigo).toBe('DATOS_INVALIDOS');
    }
  });

  it('answers 405 for another method on its routes', async () => {
    expect((await fetch(`${sandbox.url}/__sandbox/mi-argentina/token`)).status).toBe(405);
    const res = await fetch(miArgentinaJwksUrl(sandbox.url), { method: 'POST' });
    expect(res.status).toBe(405);
  });
});

describe('parseTokenRequest', () => {
  it('defaults ttl to 300 s and names the first problem', () => {
    expect(parseTokenRequest({ cuil: '27301112225' })).toEqual({ cuil: '27301112225', ttl: 300 });
    expect(parseTokenRequest({ cuil: 'x' })).toBe('cuil: required, 11 digits');
    expect(parseTokenRequest({ cuil: '27301112225', zz: 1 })).toBe('unknown field: zz');
  });
});
