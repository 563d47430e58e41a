/**
 * Verifies a citizen's token from the national identity provider (Mi Argentina) for the
 * patient's access (contract §8) and returns its `cuil` claim.
 *
 * Accepted only when: signed RS256 or RS512 by a key of the issuer's JWKS; `iss` and `aud` as
 * configured; `exp` in the future and `iat` present and not in the future; `exp − iat` at most
 * `maxLifetimeSeconds`; 30 s of clock leeway on every time check; a `cuil` claim that is a
 * string. Every failure is one answer, 401 UNAUTHENTICATED with one message; the precise reason
 * rides on the error's `cause` (a CitizenTokenRejected) for the logs, never in the response.
 *
 * What the verifier does NOT decide: whether the `cuil` is well formed (11 digits, check digit)
 * or matches the prescription. Contract §8 makes those a 404 with the same body as an unknown CUIR,
 * so the endpoint checks them (cuil.ts: isValidCuil, cuilMatchesDocumento) and the verifier
 * returns the claim as signed.
 *
 * The issuer's key set being unobtainable (down, timing out, answering nonsense) is 500
 * UPSTREAM_UNAVAILABLE, not 401: contract §1 answers every failed external system that way; a 401
 * would tell the patient's app that a perfectly good token is bad (sending the user round a
 * login loop that cannot help) and would hide an outage from 5xx alerting. A stale key set keeps
 * serving for a while first (citizen-key-set.ts), so only a long or cold outage shows.
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
  /** Key-set cache: see CitizenKeySetOptions (defaults 600 s, 30 s, 3600 s). */
  jwksCacheMaxAgeSeconds?: number;
  jwksCooldownSeconds?: number;
  jwksStaleIfErrorSeconds?: number;
  /** Clock, for tests. */
  now?: () => number;
}

export const CITIZEN_TOKEN_ALGORITHMS = ['RS256', 'RS512'];

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
 * The cause of a 401. Deliberately not chaining jose's error: jose's claim errors carry the
 * whole payload (the citizen's CUIL among it), and the log serializer copies an error's
 * enumerable fields. `detail` is jose's message, which names claims, never values.
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

export const UNAUTHENTICATED_MESSAGE = 'Invalid or expired citizen token';

export function citizenUnauthenticated(reason: CitizenTokenRejection, detail: string) {
  return new DomainError('UNAUTHENTICATED', UNAUTHENTICATED_MESSAGE, undefined, {
    cause: new CitizenTokenRejected(reason, detail),
  });
}

// Three base64url segments (the last empty for alg "none", refused later by the alg check).
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
// Identity-provider tokens are a kilobyte or two; a bound keeps parsing cheap under abuse.
const MAX_TOKEN_LENGTH = 8192;

/**
 * The token of an `Authorization: Bearer <token>` header (scheme case-insensitive, as RFC 7235
 * says). Throws the same 401 as a bad token when the header is missing or of another scheme.
 */
export function bearerToken(authorization: string | undefined): string {
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
  if (!match) throw citizenUnauthenticated('missing', 'no Bearer token in Authorization');
  return match[1];
}

export class CitizenTokenVerifier {
  private readonly keys: CitizenKeySet;
  private readonly maxLifetime: number;
  private readonly tolerance: number;
  private readonly now: () => number;

  constructor(private readonly options: CitizenTokenVerifierOptions) {
    this.maxLifetime = options.maxLifetimeSeconds ?? 300;
    this.tolerance = options.clockToleranceSeconds ?? 30;
    this.now = options.now ?? Date.now;
    const seconds = (s: number | undefined) => (s === undefined ? undefined : s * 1000);
    this.keys = new CitizenKeySet({
      url: options.jwksUrl,
      timeoutMs: options.timeoutMs,
      cacheMaxAgeMs: seconds(options.jwksCacheMaxAgeSeconds),
      cooldownMs: seconds(options.jwksCooldownSeconds),
      staleIfErrorMs: seconds(options.jwksStaleIfErrorSeconds),
      now: this.now,
    });
  }

  /** Key-set fetches started so far (metrics, tests). */
  get keySetFetches(): number {
    return this.keys.fetches;
  }

  /**
   * The verified `cuil` claim, as the issuer signed it. Throws DomainError UNAUTHENTICATED
   * (cause: CitizenTokenRejected) or UPSTREAM_UNAVAILABLE (cause: KeySetUnavailableError).
   */
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
        algorithms: CITIZEN_TOKEN_ALGORITHMS,
        issuer: this.options.issuer,
        audience: this.options.audience,
        clockTolerance: this.tolerance,
        // With maxTokenAge jose requires iat and refuses one in the future; no accepted token can
        // be older than its own lifetime anyway.
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
      throw citizenUnauthenticated(...rejection(err));
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

/** jose's error → our reason and a value-free detail. */
function rejection(err: unknown): [CitizenTokenRejection, string] {
  const detail = err instanceof Error ? `${err.name}: ${err.message}` : 'unknown failure';
  if (err instanceof errors.JWTExpired) {
    return [err.claim === 'iat' ? 'too_old' : 'expired', detail];
  }
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.reason === 'missing') return ['claims', detail];
    return [CLAIM_REASONS[err.claim] ?? 'claims', detail];
  }
  if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported) {
    return ['algorithm', detail];
  }
  if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys) {
    return ['unknown_key', detail];
  }
  if (err instanceof errors.JWSSignatureVerificationFailed) return ['signature', detail];
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) {
    return ['malformed', detail];
  }
  // Anything else (an unusable published key, a too-short RSA modulus…) is still "we could not
  // verify this token": one answer for every failure.
  return ['unverifiable', detail];
}
