/**
 * Verifies a citizen's Mi Argentina token (contract §8) and returns its `cuil` claim as signed:
 * RS256/RS512 by a key of the issuer's JWKS, `iss` and `aud` as configured, `exp` ahead and `iat`
 * not, `exp − iat` at most `maxLifetimeSeconds`, 30 s of leeway. Every refusal is one 401 whose
 * reason rides on `cause` for the logs. Whether the CUIL is well formed or the patient's is the
 * endpoint's 404 (cuil.ts). An unobtainable key set is 500 UPSTREAM_UNAVAILABLE (contract §1):
 * a 401 would send the patient round a login loop and hide an outage from 5xx alerting.
 */
import {
  createLocalJWKSet,
  errors,
  jwtVerify,
  type FlattenedJWSInput,
  type JWK,
  type JWSHeaderParameters,
  type JWTPayload,
} from 'jose';
import { DomainError } from '../common/errors/domain-error.js';

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

/**
 * The identity provider's signing keys (a JWKS over HTTP), cached, for jose's `jwtVerify`.
 * Not jose's createRemoteJWKSet: an unobtainable set is our own error (500, not 401), a set past
 * its max age keeps serving a bounded while when the refresh fails, and failed fetches are
 * rate-limited too. Key matching stays jose's (createLocalJWKSet).
 */
interface CitizenKeySetOptions {
  url: string;
  /** Whole fetch, body included. */
  timeoutMs: number;
  /** A fetched set is trusted this long before it is fetched again. */
  cacheMaxAgeMs: number;
  /** At most one fetch per interval, for an unknown `kid` or after a failed fetch. */
  cooldownMs: number;
  /** A set past its max age still serves this long while it cannot be refreshed. */
  staleIfErrorMs: number;
  now: () => number;
}

/** The key set could not be obtained: the issuer is down, slow, or answered nonsense. */
class KeySetUnavailableError extends Error {
  override name = 'KeySetUnavailableError';
}

type KeyResolver = ReturnType<typeof createLocalJWKSet>;

// A JWKS holds a handful of keys (~1.5 kB each); anything near this is not one.
const MAX_BYTES = 256 * 1024;

class CitizenKeySet {
  private current?: { resolve: KeyResolver; fetchedAt: number };
  private lastAttemptAt = Number.NEGATIVE_INFINITY;
  private inflight?: Promise<void>;
  /** Fetches started (metrics, tests). */
  fetches = 0;

  constructor(private readonly o: CitizenKeySetOptions) {}

  /**
   * jose's key lookup: JWKSNoMatchingKey for a kid the issuer does not publish (after at most
   * one refresh), KeySetUnavailableError when the keys cannot be had.
   */
  readonly resolve = async (header: JWSHeaderParameters, token: FlattenedJWSInput) => {
    const resolver = await this.usableSet();
    try {
      return await resolver(header, token);
    } catch (err) {
      if (!(err instanceof errors.JWKSNoMatchingKey)) throw err;
      // Another request's refresh in flight is the one refresh we allow.
      if (this.inflight) await this.inflight.catch(() => undefined);
      else if (this.coolingDown()) throw err;
      // Maybe a key just rotated in; a failed refresh cannot tell it from a forged kid (500).
      else await this.refresh();
      return this.current!.resolve(header, token);
    }
  };

  private async usableSet(): Promise<KeyResolver> {
    if (this.inflight) await this.inflight.catch(() => undefined);
    const fresh = this.setYoungerThan(this.o.cacheMaxAgeMs);
    if (fresh) return fresh;
    const stale = this.setYoungerThan(this.o.cacheMaxAgeMs + this.o.staleIfErrorMs);
    // Cooling down here means the last fetch failed (a successful one makes the set fresh).
    if (this.coolingDown()) {
      if (stale) return stale;
      throw new KeySetUnavailableError('key set unavailable: the last fetch failed moments ago');
    }
    try {
      await this.refresh();
    } catch (err) {
      if (stale) return stale;
      throw err;
    }
    return this.current!.resolve;
  }

  private setYoungerThan(ageMs: number): KeyResolver | undefined {
    if (this.current && this.o.now() - this.current.fetchedAt < ageMs) return this.current.resolve;
  }

  private coolingDown(): boolean {
    return this.o.now() - this.lastAttemptAt < this.o.cooldownMs;
  }

  /** One fetch at a time: concurrent callers share it. */
  private refresh(): Promise<void> {
    this.inflight ??= this.fetchSet().finally(() => (this.inflight = undefined));
    return this.inflight;
  }

  private async fetchSet(): Promise<void> {
    this.lastAttemptAt = this.o.now();
    this.fetches++;
    const { url, timeoutMs } = this.o;
    let body: string;
    try {
      // No redirects: the keys come from exactly the configured URL.
      const res = await fetch(url, {
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
        headers: { accept: 'application/json' },
      });
      if (res.status !== 200) {
        await res.body?.cancel();
        throw new KeySetUnavailableError(`key set fetch answered HTTP ${res.status}`);
      }
      body = await readCapped(res);
    } catch (err) {
      if (err instanceof KeySetUnavailableError) throw err;
      const timedOut = (err as Error)?.name === 'TimeoutError';
      throw new KeySetUnavailableError(
        timedOut ? `key set fetch timed out after ${timeoutMs} ms` : 'key set fetch failed',
        { cause: err },
      );
    }
    try {
      const resolve = createLocalJWKSet(JSON.parse(body) as { keys: JWK[] });
      this.current = { resolve, fetchedAt: this.o.now() };
    } catch (err) {
      throw new KeySetUnavailableError('key set is not a JSON Web Key Set', { cause: err });
    }
  }
}

async function readCapped(res: Response): Promise<string> {
  const tooLarge = () => new KeySetUnavailableError(`key set larger than ${MAX_BYTES} bytes`);
  if (Number(res.headers.get('content-length') ?? '0') > MAX_BYTES) {
    await res.body?.cancel();
    throw tooLarge();
  }
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    // Leaving the loop early cancels the stream.
    if (size > MAX_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
