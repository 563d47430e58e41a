import { beforeSlowWork } from '../http/slow-work.js';
/**
 * An in-memory read-through cache for lookups in external registries, where "not found" is an
 * answer (null) worth caching too, only for less time.
 *
 * - single flight: concurrent misses for one key share one load;
 * - hits live `ttlMs`, misses `negativeTtlMs`;
 * - a hit may be served up to `staleTtlMs` past its lifetime, but only when a reload fails
 *   with an error `serveStaleOn` accepts (the registry is down, not "the record is gone");
 * - bounded: least recently used entries go first, by count and, where entries differ in size
 *   (a search page of 1 or 100 rows), by weight; expired ones are swept regularly, also while
 *   no request comes (an unref'd timer), so personal data does not linger in memory past its
 *   retention and an idle process gives the memory back.
 */
export interface LookupCacheOptions<V = unknown> {
  ttlMs: number;
  negativeTtlMs: number;
  staleTtlMs?: number;
  maxEntries: number;
  /** An entry's weight (e.g. its rows); with `maxWeight`, the cache keeps at most that much. */
  weigh?: (value: V) => number;
  maxWeight?: number;
  serveStaleOn?: (err: unknown) => boolean;
  /** Called when a stale hit is served instead of the error (for a log line or a metric). */
  onStaleServed?: (err: unknown) => void;
  /**
   * Whether a load waits on an upstream registry (default true): the request is then told
   * before it waits (common/http/slow-work.ts), and writes its Idempotency-Key as in progress.
   * A load from this service's own database (the catalogue mirror) is not slow work: telling
   * would cost a round trip, and answer concurrent duplicates 409 instead of a replay.
   */
  slowLoad?: boolean;
  now?: () => number;
}

interface Entry<V> {
  value: V | null;
  freshUntil: number;
  /** Past this the entry is gone even as a stale fallback. */
  keepUntil: number;
  weight: number;
}

export class LookupCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly inflight = new Map<string, Promise<V | null>>();
  /** Bumped by clear(): a load that began before a clear must not store what it read. */
  private generation = 0;
  private readonly now: () => number;
  private readonly sweepEveryMs: number;
  private nextSweepAt: number;
  private weight = 0;

  constructor(private readonly options: LookupCacheOptions<V>) {
    this.now = options.now ?? Date.now;
    this.sweepEveryMs = Math.max(1000, Math.min(options.ttlMs, options.negativeTtlMs));
    this.nextSweepAt = this.now() + this.sweepEveryMs;
    setInterval(() => this.sweep(this.now()), this.sweepEveryMs).unref();
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entries' total weight (their count when no `weigh` is given). */
  get totalWeight(): number {
    return this.weight;
  }

  /** The cached value of `key`, else the result of `load` (shared by concurrent callers). */
  async get(key: string, load: () => Promise<V | null>): Promise<V | null> {
    const now = this.now();
    this.sweep(now);
    const entry = this.entries.get(key);
    if (entry && now < entry.freshUntil) {
      this.entries.delete(key); // re-insert: Map order is the LRU order (the weight stays)
      this.entries.set(key, entry);
      return entry.value;
    }
    if (this.options.slowLoad !== false) {
      const told = beforeSlowWork();
      if (told) await told;
    }
    try {
      return await this.loadOnce(key, load);
    } catch (err) {
      const stale = this.entries.get(key);
      const usable = stale && stale.value !== null && this.now() < stale.keepUntil;
      if (!usable || !(this.options.serveStaleOn?.(err) ?? false)) throw err;
      this.options.onStaleServed?.(err);
      return stale.value;
    }
  }

  /**
   * Forgets every entry, and every load already under way: their results may predate whatever
   * made the caller clear (a catalogue sync that committed while a search was reading), so
   * they are handed to their callers but not stored, and later callers load afresh.
   */
  clear(): void {
    this.generation++;
    this.entries.clear();
    this.weight = 0;
    this.inflight.clear();
  }

  private loadOnce(key: string, load: () => Promise<V | null>): Promise<V | null> {
    const existing = this.inflight.get(key);
    if (existing) return existing;
    const pending = this.loadAndStore(key, load, this.generation);
    this.inflight.set(key, pending);
    // Settles after the line above in every case (even when `load` throws at once), and leaves
    // alone a newer load of the same key started after a clear().
    pending
      .finally(() => {
        if (this.inflight.get(key) === pending) this.inflight.delete(key);
      })
      .catch(() => undefined);
    return pending;
  }

  private async loadAndStore(
    key: string,
    load: () => Promise<V | null>,
    generation: number,
  ): Promise<V | null> {
    const value = await load();
    if (generation === this.generation) this.store(key, value);
    return value;
  }

  private store(key: string, value: V | null): void {
    const now = this.now();
    this.sweep(now);
    const ttl = value === null ? this.options.negativeTtlMs : this.options.ttlMs;
    const freshUntil = now + ttl;
    const keepUntil = value === null ? freshUntil : freshUntil + (this.options.staleTtlMs ?? 0);
    this.remove(key);
    if (keepUntil <= now) return; // nothing to keep (caching switched off)
    const weight = value === null ? 1 : (this.options.weigh?.(value) ?? 1);
    this.entries.set(key, { value, freshUntil, keepUntil, weight });
    this.weight += weight;
    const maxWeight = this.options.maxWeight ?? Infinity;
    while (this.entries.size > this.options.maxEntries || this.weight > maxWeight) {
      this.remove(this.entries.keys().next().value as string);
    }
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }

  private sweep(now: number): void {
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + this.sweepEveryMs;
    for (const [key, entry] of this.entries) if (entry.keepUntil <= now) this.remove(key);
  }
}
