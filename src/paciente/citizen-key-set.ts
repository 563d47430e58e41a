import {
  createLocalJWKSet,
  errors,
  type FlattenedJWSInput,
  type JWK,
  type JWSHeaderParameters,
} from 'jose';

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
export class KeySetUnavailableError extends Error {
  override name = 'KeySetUnavailableError';
}

type KeyResolver = ReturnType<typeof createLocalJWKSet>;

// A JWKS holds a handful of keys (~1.5 kB each); anything near this is not one.
const MAX_BYTES = 256 * 1024;

export class CitizenKeySet {
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
