/**
 * Citizen tokens for the verifier's specs: RSA keys made by jose, a real JWKS server on
 * loopback, a clock the test moves, and the two public outcomes asserted in one place.
 */
import { sign as rsaSign } from 'node:crypto';
import { exportJWK, exportPKCS8, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { DomainError } from '../../src/common/errors/domain-error.js';
import {
  CitizenTokenRejected,
  CitizenTokenVerifier,
  type CitizenTokenRejection,
  type CitizenTokenVerifierOptions,
} from '../../src/paciente/citizen-token.verifier.js';
import { startJwksServer, type JwksServer } from './jwks-server.js';

export const ISSUER = 'https://mi.argentina.test/oidc';
export const AUDIENCE = 'prescription-registry';
export const CUIL = '27301112225';

export interface Signer {
  kid: string;
  alg: 'RS256' | 'RS512';
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  jwk: JWK;
}

export async function signer(kid: string, alg: 'RS256' | 'RS512'): Promise<Signer> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, alg, privateKey, publicKey, jwk };
}

export const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Signs raw segments with node:crypto, for tokens jose would refuse to produce. */
export async function rawSign(
  header: object,
  payload: string,
  s: Signer,
  hash: 'sha256' | 'sha512',
): Promise<string> {
  const input = `${b64(header)}.${Buffer.from(payload).toString('base64url')}`;
  const pem = await exportPKCS8(s.privateKey);
  return `${input}.${rsaSign(hash, Buffer.from(input), pem).toString('base64url')}`;
}

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

/** The reason a refusal carries, after checking it is the one public 401. */
export async function refusal(promise: Promise<unknown>): Promise<CitizenTokenRejection> {
  const err = await failure(promise);
  expect(err.code).toBe('UNAUTHENTICATED');
  expect(err.message).toBe('Invalid or expired citizen token');
  expect(err.details).toBeUndefined();
  expect(err.cause).toBeInstanceOf(CitizenTokenRejected);
  // The cause is for the logs: it must not hold the citizen's CUIL in any field.
  const cause = err.cause as CitizenTokenRejected;
  expect(JSON.stringify({ ...cause, message: cause.message })).not.toContain(CUIL);
  return cause.reason;
}

/** Asserts the 500 answered when the issuer's keys cannot be had. */
export async function upstream(promise: Promise<unknown>): Promise<void> {
  expect((await failure(promise)).code).toBe('UPSTREAM_UNAVAILABLE');
}

/**
 * Registers the hooks (keys and server once, a fresh clock and an "ok" server before each
 * test) and returns what the tests use. Keys: `rs256` and `rs512` are published; `outsider`
 * is a well-formed key the issuer never published, under the same kid as `rs256`.
 */
export function citizenTokenFixture() {
  let server: JwksServer;
  let keys: { rs256: Signer; rs512: Signer; outsider: Signer };
  let clock = Date.now();

  beforeAll(async () => {
    const [rs256, rs512, outsider] = await Promise.all([
      signer('k-256', 'RS256'),
      signer('k-512', 'RS512'),
      signer('k-256', 'RS256'),
    ]);
    keys = { rs256, rs512, outsider };
    server = await startJwksServer([rs256.jwk, rs512.jwk]);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.keys = [keys.rs256.jwk, keys.rs512.jwk];
    server.mode = 'ok';
    clock = Date.now();
  });

  const nowS = () => Math.floor(clock / 1000);
  return {
    get server() {
      return server;
    },
    get keys() {
      return keys;
    },
    nowS,
    /** Moves the verifier's clock (tokens are signed relative to it). */
    advance: (ms: number) => {
      clock += ms;
    },
    verifier: (overrides: Partial<CitizenTokenVerifierOptions> = {}) =>
      new CitizenTokenVerifier({
        jwksUrl: server.url,
        issuer: ISSUER,
        audience: AUDIENCE,
        maxLifetimeSeconds: 300,
        clockToleranceSeconds: 30,
        timeoutMs: 500,
        now: () => clock,
        ...overrides,
      }),
    claims: (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
      iss: ISSUER,
      aud: AUDIENCE,
      sub: CUIL,
      cuil: CUIL,
      iat: nowS(),
      exp: nowS() + 300,
      ...overrides,
    }),
    sign: (payload: Record<string, unknown>, s: Signer = keys.rs256, kid = s.kid) =>
      new SignJWT(payload).setProtectedHeader({ alg: s.alg, kid, typ: 'JWT' }).sign(s.privateKey),
  };
}

/** A Mi Argentina token for `cuil` from the sandbox, the service's issuer by default (contract §8). */
export async function sandboxCitizenToken(
  sandboxUrl: string,
  cuil: string,
  ttlSeconds?: number,
): Promise<string> {
  const res = await fetch(`${sandboxUrl}/__sandbox/mi-argentina/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ cuil, ...(ttlSeconds ? { ttl_seconds: ttlSeconds } : {}) }),
  });
  return ((await res.json()) as { token: string }).token;
}
