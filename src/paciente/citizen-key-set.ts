/**
 * The identity provider's signing keys (a JWKS fetched over HTTP), cached, for jose's
 * `jwtVerify(token, keySet.resolve)`.
 *
 * Our own fetch and cache rather than jose's createRemoteJWKSet, for three things it does not
 * give: (1) a failure to obtain the keys is our own error type, so the verifier can tell "the
 * issuer is down" (500) from "the token is bad" (401) without guessing from jose's messages;
 * (2) a set past its max age keeps serving for a bounded while when the refresh fails, so a
 * short issuer outage does not lock every patient out; (3) failed fetches are rate-limited too,
 * so a down issuer is not hit by every request. Key matching (kid, alg, kty, use) stays jose's
 * (createLocalJWKSet).
 */
import {
  createLocalJWKSet,
  errors,
  type FlattenedJWSInput,
  type JWSHeaderParameters,
  type JWK,
} from 'jose';

export interface CitizenKeySetOptions {
  url: string;
  /** Whole fetch, body included. */
  timeoutMs: number;
  /** A fetched set is trusted this long before it is fetched again (default 10 min). */
  cacheMaxAgeMs?: number;
  /**
   * At most one fetch per this interval, whatever asks for it: an unknown `kid` (garbage kids
   * must not hammer the issuer) or a failed fetch (a down issuer is not retried per request).
   * Default 30 s, as jose's own.
   */
  cooldownMs?: number;
  /**
   * A set past its max age still serves this long while it cannot be refreshed (default 1 h).
   * Bounded because a key the issuer withdrew stays trusted for that while.
   */
  staleIfErrorMs?: number;
  now?: () => number;
}

/** The key set could not be obtained: the issuer is down, slow, or answered nonsense. */
export class KeySetUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KeySetUnavailableError';
  }
}

type KeyResolver = ReturnType<typeof createLocalJWKSet>;
type ResolvedKey = Awaited<ReturnType<KeyResolver>>;

// A JWKS holds a handful of keys (~1.5 kB each); anything near this is not one.
const MAX_BYTES = 256 * 1024;

export class CitizenKeySet {
  private readonly maxAgeMs: number;
  private readonly cooldownMs: number;
  private readonly staleIfErrorMs: number;
  private readonly now: () => number;
  private current?: { resolve: KeyResolver; fetchedAt: number };
  private lastAttemptAt = Number.NEGATIVE_INFINITY;
  private inflight?: Promise<void>;
  private fetchCount = 0;

  constructor(private readonly options: CitizenKeySetOptions) {
    this.maxAgeMs = options.cacheMaxAgeMs ?? 10 * 60_000;
    this.cooldownMs = options.cooldownMs ?? 30_000;
    this.staleIfErrorMs = options.staleIfErrorMs ?? 60 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /** How many fetches were started (for metrics and tests). */
  get fetches(): number {
    return this.fetchCount;
  }

  /**
   * jose's key-lookup signature. Throws jose's JWKSNoMatchingKey for a kid the issuer does not
   * publish (after at most one refresh), KeySetUnavailableError when the keys cannot be had.
   */
  readonly resolve = async (
    header: JWSHeaderParameters,
    token: FlattenedJWSInput,
  ): Promise<ResolvedKey> => {
    const resolver = await this.usableSet();
    try {
      return await resolver(header, token);
    } catch (err) {
      if (!(err instanceof errors.JWKSNoMatchingKey)) throw err;
      if (this.inflight) {
        // Another request is refreshing already: its result is the one refresh we allow.
        await this.inflight.catch(() => undefined);
        return this.current!.resolve(header, token);
      }
      if (this.coolingDown()) throw err;
      // Possibly a key the issuer just rotated in. If the refresh fails we cannot tell a new key
      // from a forged kid, so that is "issuer unavailable", not "bad token".
      await this.refresh();
      return this.current!.resolve(header, token);
    }
  };

  private async usableSet(): Promise<KeyResolver> {
    if (this.inflight) await this.inflight.catch(() => undefined);
    const fresh = this.setYoungerThan(this.maxAgeMs);
    if (fresh) return fresh;
    const stale = () => this.setYoungerThan(this.maxAgeMs + this.staleIfErrorMs);
    if (this.coolingDown()) {
      // Only a failed fetch leaves us here (a successful one would have made the set fresh).
      const usable = stale();
      if (usable) return usable;
      throw new KeySetUnavailableError('key set unavailable: the last fetch failed moments ago');
    }
    try {
      await this.refresh();
    } catch (err) {
      const usable = stale();
      if (usable) return usable;
      throw err;
    }
    return this.current!.resolve;
  }

  private setYoungerThan(ageMs: number): KeyResolver | undefined {
    if (this.current && this.now() - this.current.fetchedAt < ageMs) return this.current.resolve;
    return undefined;
  }

  private coolingDown(): boolean {
    return this.now() - this.lastAttemptAt < this.cooldownMs;
  }

  /** One fetch at a time: concurrent callers share it. */
  private refresh(): Promise<void> {
    this.inflight ??= this.fetchSet().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async fetchSet(): Promise<void> {
    this.lastAttemptAt = this.now();
    this.fetchCount++;
    const { url, timeoutMs } = this.options;
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
      body = await readCapped(res, MAX_BYTES);
    } catch (err) {
      if (err instanceof KeySetUnavailableError) throw err;
      const timedOut = (err as Error)?.name === 'TimeoutError';
      throw new KeySetUnavailableError(
        timedOut ? `key set fetch timed out after ${timeoutMs} ms` : 'key set fetch failed',
        { cause: err },
      );
    }
    let resolve: KeyResolver;
    try {
      resolve = createLocalJWKSet(JSON.parse(body) as { keys: JWK[] });
    } catch (err) {
      throw new KeySetUnavailableError('key set is not a JSON Web Key Set', { cause: err });
    }
    this.current = { resolve, fetchedAt: this.now() };
  }
}

async function readCapped(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw new KeySetUnavailableError(`key set larger than ${maxBytes} bytes`);
  }
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new KeySetUnavailableError(`key set larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
