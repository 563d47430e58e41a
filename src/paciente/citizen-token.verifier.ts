/**
 * Verifies a citizen's Mi Argentina token (contract §8) and returns its `cuil` claim as signed:
 * RS256/RS512 by a key of the issuer's JWKS, `iss` and `aud` as configured, `exp` ahead and `iat`
 * not, `exp − iat` at most `maxLifetimeSeconds`, 30 s of leeway. Every refusal is one 401 whose
 * reason rides on `cause` for the logs. Whether the CUIL is well formed or the patient's is the
 * endpoint's 404 (cuil.ts). An unobtainable key set is 500 UPSTREAM_UNAVAILABLE (contract §1):
 * a 401 would send the patient round a login loop and hide an outage from 5xx alerting.
 */
import { errors, jwtVerify, type JWTPayload } from 'jose';
import { DomainError } from '../common/errors/domain-error.js';
import { CitizenKeySet, KeySetUnavailableError } from './citizen-key-set.js';

export interface CitizenTokenVerifierOptions {
  /** PACIENTE_JWKS_URL */
  jwksUrl: string;
  /** PACIENTE_JWT_ISSUER: compared exactly (no trailing-slash or case folding). */
  issuer: string;
  /** PACIENTE_JWT_AUDIENCE: `aud` must be it, or an array holding it (RFC 7519 4.1.3). */
  audience: string;
  /** Longest accepted `exp − iat` (default 300). */
  maxLifetimeSeconds?: number;
  /** Leeway on exp, nbf and iat (default 30). */
  clockToleranceSeconds?: number;
  /** Timeout of one key-set fetch. */
  timeoutMs: number;
  /** Key-set cache (CitizenKeySetOptions): default 600 s, and 3600 s stale while the issuer fails. */
  jwksCacheMaxAgeSeconds?: number;
  jwksStaleIfErrorSeconds?: number;
  now?: () => number;
}

/** Why a token was refused: for logs and metrics only. */
export type CitizenTokenRejection =
  | 'missing'
  | 'malformed'
  | 'algorithm'
  | 'unknown_key'
  | 'signature'
  | 'expired'
  | 'too_old'
  | 'not_yet_valid'
  | 'issued_in_future'
  | 'lifetime'
  | 'issuer'
  | 'audience'
  | 'claims'
  | 'cuil'
  | 'unverifiable';

/**
 * The cause of a 401. Not chaining jose's error: its claim errors carry the whole payload (the
 * CUIL), which the log serializer would copy. `detail` names claims, never values.
 */
export class CitizenTokenRejected extends Error {
  constructor(
    readonly reason: CitizenTokenRejection,
    detail: string,
  ) {
    super(`citizen token rejected (${reason}): ${detail}`);
    this.name = 'CitizenTokenRejected';
  }
}

function citizenUnauthenticated(reason: CitizenTokenRejection, detail: string) {
  return new DomainError('UNAUTHENTICATED', 'Invalid or expired citizen token', undefined, {
    cause: new CitizenTokenRejected(reason, detail),
  });
}

// Three base64url segments (the last empty for alg "none", refused later by the alg check).
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
// Identity-provider tokens are a kilobyte or two; a bound keeps parsing cheap under abuse.
const MAX_TOKEN_LENGTH = 8192;

/** The token of `Authorization: Bearer <token>` (scheme case-insensitive, RFC 7235), else 401. */
export function bearerToken(authorization: string | undefined): string {
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
  if (!match) throw citizenUnauthenticated('missing', 'no Bearer token in Authorization');
  return match[1];
}

export class CitizenTokenVerifier {
  private readonly keys: CitizenKeySet;
  private readonly maxLifetime: number;
  private readonly now: () => number;

  constructor(private readonly options: CitizenTokenVerifierOptions) {
    this.maxLifetime = options.maxLifetimeSeconds ?? 300;
    this.now = options.now ?? Date.now;
    this.keys = new CitizenKeySet({
      url: options.jwksUrl,
      timeoutMs: options.timeoutMs,
      cacheMaxAgeMs: (options.jwksCacheMaxAgeSeconds ?? 600) * 1000,
      cooldownMs: 30_000,
      staleIfErrorMs: (options.jwksStaleIfErrorSeconds ?? 3600) * 1000,
      now: this.now,
    });
  }

  /** Key-set fetches started so far (metrics, tests). */
  get keySetFetches(): number {
    return this.keys.fetches;
  }

  /** The verified `cuil` claim; else UNAUTHENTICATED or UPSTREAM_UNAVAILABLE, reason in `cause`. */
  async verify(token: string): Promise<string> {
    if (typeof token !== 'string' || token.length === 0) {
      throw citizenUnauthenticated('missing', 'empty token');
    }
    if (token.length > MAX_TOKEN_LENGTH || !COMPACT_JWS.test(token)) {
      throw citizenUnauthenticated('malformed', 'not a compact JWS of sane size');
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.keys.resolve, {
        algorithms: ['RS256', 'RS512'],
        issuer: this.options.issuer,
        audience: this.options.audience,
        clockTolerance: this.options.clockToleranceSeconds ?? 30,
        // With maxTokenAge jose requires iat and refuses one in the future.
        maxTokenAge: this.maxLifetime,
        requiredClaims: ['exp', 'iat'],
        currentDate: new Date(this.now()),
      }));
    } catch (err) {
      if (err instanceof KeySetUnavailableError) {
        throw new DomainError(
          'UPSTREAM_UNAVAILABLE',
          'The citizen identity provider is unavailable',
          undefined,
          { cause: err },
        );
      }
      const detail = err instanceof Error ? `${err.name}: ${err.message}` : 'unknown failure';
      throw citizenUnauthenticated(rejection(err), detail);
    }
    // Both are numbers here: jose checked exp and iat as NumericDates.
    if ((payload.exp as number) - (payload.iat as number) > this.maxLifetime) {
      throw citizenUnauthenticated('lifetime', `exp - iat over ${this.maxLifetime} s`);
    }
    const cuil = (payload as { cuil?: unknown }).cuil;
    if (typeof cuil !== 'string' || cuil.length === 0) {
      throw citizenUnauthenticated('cuil', 'missing or non-string "cuil" claim');
    }
    return cuil;
  }
}

const CLAIM_REASONS: Record<string, CitizenTokenRejection> = {
  iss: 'issuer',
  aud: 'audience',
  nbf: 'not_yet_valid',
  iat: 'issued_in_future',
};

/** jose's error → our reason. */
function rejection(err: unknown): CitizenTokenRejection {
  if (err instanceof errors.JWTExpired) return err.claim === 'iat' ? 'too_old' : 'expired';
  if (err instanceof errors.JWTClaimValidationFailed)
    return err.reason === 'missing' ? 'claims' : (CLAIM_REASONS[err.claim] ?? 'claims');
  if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported)
    return 'algorithm';
  if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys)
    return 'unknown_key';
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'signature';
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) return 'malformed';
  // Anything else (an unusable published key, a short RSA modulus…): one answer for every failure.
  return 'unverifiable';
}
