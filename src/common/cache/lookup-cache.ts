import { LRUCache } from 'lru-cache';
import { beforeSlowWork } from '../http/slow-work.js';

/**
 * A read-through cache on lru-cache, adding: misses (null) cached `negativeTtlMs`; a hit served
 * up to `staleTtlMs` stale when a reload fails with an error `serveStaleOn` accepts; the request
 * told before a load waits, unless `slowLoad` is false (common/http/slow-work.ts).
 */
export interface LookupCacheOptions<V = unknown> {
  ttlMs: number;
  negativeTtlMs: number;
  staleTtlMs?: number;
  maxEntries: number;
  /** An entry's weight; with `maxWeight`, the cache keeps at most that much. */
  weigh?: (value: V) => number;
  maxWeight?: number;
  serveStaleOn?: (err: unknown) => boolean;
  onStaleServed?: (err: unknown) => void;
  slowLoad?: boolean;
  now?: () => number;
}

/** lru-cache stores no null, nor stale-if-this-error: a value is held with its own times. */
type Held<V> = { value: V | null; freshUntil: number; keepUntil: number };
type Load<V> = () => Promise<V | null>;

export class LookupCache<V> {
  private readonly lru: LRUCache<string, Held<V>, Load<V>>;

  constructor(private readonly options: LookupCacheOptions<V>) {
    const now = options.now ?? (() => performance.now());
    const { weigh, maxWeight } = options;
    this.lru = new LRUCache<string, Held<V>, Load<V>>({
      max: options.maxEntries,
      ...(maxWeight !== undefined && {
        maxSize: maxWeight,
        sizeCalculation: (h) => (h.value === null ? 1 : (weigh?.(h.value) ?? 1)),
      }),
      ttlAutopurge: true,
      perf: { now },
      ttlResolution: 0,
      ignoreFetchAbort: true, // a load clear() overtook answers its callers, and is not stored
      noDeleteOnFetchRejection: true, // a failed reload leaves the entry, to be served stale
      fetchMethod: async (_key, _old, { context: load, options: entry }) => {
        const value = await load();
        const ttl = value === null ? options.negativeTtlMs : options.ttlMs;
        const keep = value === null ? ttl : ttl + (options.staleTtlMs ?? 0);
        // lru-cache reads a TTL of 0 as "forever": an entry not to be kept lives 1 ms, unserved.
        entry.ttl = Math.max(1, keep);
        return { value, freshUntil: now() + ttl, keepUntil: now() + keep };
      },
    });
  }

  get size(): number {
    return this.lru.size;
  }

  /** The cached value of `key`, else the result of `load` (shared by concurrent callers). */
  async get(key: string, load: Load<V>): Promise<V | null> {
    const held = this.lru.get(key);
    if (held && this.lru.perf.now() < held.freshUntil) return held.value;
    const told = this.options.slowLoad !== false && beforeSlowWork();
    if (told) await told;
    try {
      return (await this.lru.fetch(key, { context: load, forceRefresh: !!held }))!.value;
    } catch (err) {
      const stale = this.lru.peek(key); // what the failed reload left, if still kept
      if (!(stale && this.lru.perf.now() < stale.keepUntil && this.options.serveStaleOn?.(err)))
        throw err;
      this.options.onStaleServed?.(err);
      return stale.value;
    }
  }

  /** Forgets every entry; loads under way (their reads may predate the clear) are not stored. */
  clear(): void {
    this.lru.clear();
  }
}
