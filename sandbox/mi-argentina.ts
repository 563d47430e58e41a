/**
 * Mi Argentina, the national identity provider, as far as the patient's access needs it
 * (contract §8): it signs citizens' tokens and publishes its keys.
 *   GET  /__sandbox/mi-argentina/jwks.json   → {keys: [{kty: "RSA", kid, alg: "RS256", use: "sig", n, e}]}
 *   POST /__sandbox/mi-argentina/token       {cuil: 11 digits, ttl_seconds?: 1..86400 (default 300)}
 *        200 {token}: RS256, iss = <sandbox URL>/__sandbox/mi-argentina, aud = prescription-registry,
 *        sub and cuil = the cuil, iat = now, exp = now + ttl_seconds, jti
 *        400 {error: {codigo: "DATOS_INVALIDOS", mensaje}} for any other body
 *
 * The cuil's check digit is not checked, on purpose: the service must refuse a bad one itself
 * (404), and tests need a token carrying one. Likewise ttl_seconds may exceed the 300 s the
 * service accepts, so the refusal of long-lived tokens can be tested end to end.
 *
 * The RSA key pair is made on the first request to these routes, not when the sandbox starts:
 * the sandbox starts in every e2e suite and in CLI commands, and an RSA-2048 key costs about
 * half a second of CPU here that most of them would spend for nothing. It lives as long as the
 * sandbox process, like a real provider's key between rotations. Signing uses node:crypto
 * directly because sandbox handlers are synchronous; the service verifies with jose, which
 * cross-checks this encoding.
 */
import { generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import type { ControlRoute } from './control.js';
import { isPlainObject, json, jsonError, parseJson, type Reply } from './http.js';

export const MI_ARGENTINA_PATH = '/__sandbox/mi-argentina';
/** The audience the sandbox signs for: PACIENTE_JWT_AUDIENCE's default with the sandbox. */
export const MI_ARGENTINA_AUDIENCE = 'prescription-registry';
export const MI_ARGENTINA_DEFAULT_TTL_SECONDS = 300;
const MAX_TTL_SECONDS = 86_400;

/** PACIENTE_JWT_ISSUER's default with the sandbox at `sandboxUrl` (RunningSandbox.url). */
export const miArgentinaIssuer = (sandboxUrl: string) => `${sandboxUrl}${MI_ARGENTINA_PATH}`;
/** PACIENTE_JWKS_URL's default with the sandbox at `sandboxUrl`. */
export const miArgentinaJwksUrl = (sandboxUrl: string) =>
  `${miArgentinaIssuer(sandboxUrl)}/jwks.json`;

interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicJwk: Record<string, unknown>;
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Pure: the token request, or the reason it is refused. */
export function parseTokenRequest(body: unknown): { cuil: string; ttl: number } | string {
  if (!isPlainObject(body)) return 'body must be a JSON object {cuil, ttl_seconds?}';
  const unknown = Object.keys(body).filter((k) => k !== 'cuil' && k !== 'ttl_seconds');
  if (unknown.length > 0) return `unknown field: ${unknown[0]}`;
  const { cuil, ttl_seconds: ttl = MI_ARGENTINA_DEFAULT_TTL_SECONDS } = body;
  if (typeof cuil !== 'string' || !/^\d{11}$/.test(cuil)) return 'cuil: required, 11 digits';
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 1 || ttl > MAX_TTL_SECONDS) {
    return `ttl_seconds: an integer from 1 to ${MAX_TTL_SECONDS}`;
  }
  return { cuil, ttl };
}

export class MiArgentinaIssuer {
  private key?: SigningKey;
  private baseUrl = '';

  /** The sandbox's URL, known once it listens: the issuer is derived from it. */
  listeningAt(sandboxUrl: string): void {
    this.baseUrl = sandboxUrl;
  }

  get issuer(): string {
    return miArgentinaIssuer(this.baseUrl);
  }

  private signingKey(): SigningKey {
    if (!this.key) {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const kid = `sandbox-${randomUUID().slice(0, 8)}`;
      const { n, e } = publicKey.export({ format: 'jwk' });
      this.key = {
        kid,
        privateKey,
        publicJwk: { kty: 'RSA', kid, alg: 'RS256', use: 'sig', n, e },
      };
    }
    return this.key;
  }

  jwks(): { keys: Record<string, unknown>[] } {
    return { keys: [this.signingKey().publicJwk] };
  }

  /** A compact RS256 JWT for `cuil`, valid `ttlSeconds` from `nowMs`. */
  issue(cuil: string, ttlSeconds: number, nowMs = Date.now()): string {
    const { kid, privateKey } = this.signingKey();
    const iat = Math.floor(nowMs / 1000);
    const header = { alg: 'RS256', typ: 'JWT', kid };
    const claims = {
      iss: this.issuer,
      aud: MI_ARGENTINA_AUDIENCE,
      sub: cuil,
      cuil,
      iat,
      exp: iat + ttlSeconds,
      jti: randomUUID(),
    };
    const input = `${b64url(header)}.${b64url(claims)}`;
    return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
  }

  routes(): ControlRoute[] {
    return [
      {
        method: 'GET',
        path: new RegExp(`^${MI_ARGENTINA_PATH}/jwks\\.json$`),
        handle: (): Reply => json(200, this.jwks(), { 'cache-control': 'public, max-age=300' }),
      },
      {
        method: 'POST',
        path: new RegExp(`^${MI_ARGENTINA_PATH}/token$`),
        handle: (req): Reply => {
          const parsed = parseTokenRequest(parseJson(req.body));
          if (typeof parsed === 'string') return jsonError(400, 'DATOS_INVALIDOS', parsed);
          return json(200, { token: this.issue(parsed.cuil, parsed.ttl) });
        },
      },
    ];
  }
}
