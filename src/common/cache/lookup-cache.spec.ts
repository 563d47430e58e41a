import { jest } from '@jest/globals';
import { onSlowWork } from '../http/slow-work.js';
import { LookupCache, LookupCacheOptions } from './lookup-cache.js';

/**
 * What the wrapper adds to lru-cache: misses cached for their own time, stale-on-error with a
 * predicate, slow-work notice, clear() during a load, TTL 0. LRU order, single flight and the
 * purge timers are lru-cache's and its own tests'.
 */
class Clock {
  t = 1_000_000;
  now = () => this.t;
  advance(ms: number) {
    this.t += ms;
  }
}

const DOWN = new Error('registry down');

function setup(over: Partial<LookupCacheOptions<string>> = {}) {
  const clock = new Clock();
  const stale: unknown[] = [];
  const cache = new LookupCache<string>({
    ttlMs: 300_000,
    negativeTtlMs: 60_000,
    staleTtlMs: 3_600_000,
    maxEntries: 100,
    serveStaleOn: (err) => err === DOWN,
    onStaleServed: (err) => stale.push(err),
    now: clock.now,
    ...over,
  });
  return { cache, clock, stale };
}

/** A loader that counts its calls and answers what `answer` says at the time. */
function loader(answer: () => string | null | Error) {
  return jest.fn(async () => {
    await Promise.resolve();
    const a = answer();
    if (a instanceof Error) throw a;
    return a;
  });
}

describe('LookupCache', () => {
  it('keeps a hit for ttlMs and a miss (null) only for negativeTtlMs', async () => {
    const { cache, clock } = setup();
    const hit = loader(() => 'v');
    const miss = loader(() => null);
    await cache.get('hit', hit);
    expect(await cache.get('miss', miss)).toBeNull();
    clock.advance(59_999);
    await cache.get('miss', miss);
    expect(miss).toHaveBeenCalledTimes(1);
    clock.advance(1);
    await cache.get('miss', miss);
    expect(miss).toHaveBeenCalledTimes(2);
    clock.advance(239_999);
    expect(await cache.get('hit', hit)).toBe('v');
    expect(hit).toHaveBeenCalledTimes(1);
    clock.advance(1);
    await cache.get('hit', hit);
    expect(hit).toHaveBeenCalledTimes(2);
  });

  it('single flight: concurrent callers share one load, also the reload of an expired hit', async () => {
    const { cache, clock } = setup();
    const load = loader(() => 'v');
    expect(await Promise.all([1, 2, 3].map(() => cache.get('k', load)))).toEqual(['v', 'v', 'v']);
    clock.advance(300_001);
    await Promise.all([1, 2, 3].map(() => cache.get('k', load)));
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('serves a stale hit while reloads fail with an accepted error, and reports each', async () => {
    const { cache, clock, stale } = setup();
    let answer: string | Error = 'v1';
    const load = loader(() => answer);
    await cache.get('k', load);
    clock.advance(300_001);
    answer = DOWN;
    expect(await cache.get('k', load)).toBe('v1');
    expect(await cache.get('k', load)).toBe('v1'); // the failed reload left the entry
    expect(load).toHaveBeenCalledTimes(3); // each time it did try the registry first
    expect(stale).toEqual([DOWN, DOWN]);
    answer = 'v2'; // back up: the fresh answer replaces the stale one
    expect(await cache.get('k', load)).toBe('v2');
  });

  it('does not serve stale for other errors, for misses, or past staleTtlMs', async () => {
    const { cache, clock } = setup();
    let answer: string | null | Error = 'v';
    const load = loader(() => answer);
    await cache.get('hit', load);
    clock.advance(300_001);
    answer = new Error('a bug, not an outage');
    await expect(cache.get('hit', load)).rejects.toThrow('a bug');

    answer = null;
    await cache.get('miss', load);
    clock.advance(60_001);
    answer = DOWN;
    await expect(cache.get('miss', load)).rejects.toBe(DOWN);

    clock.advance(3_600_000);
    await expect(cache.get('hit', load)).rejects.toBe(DOWN);
  });

  it('serves nothing stale without staleTtlMs (the citizen cache)', async () => {
    const { cache, clock } = setup({ staleTtlMs: undefined });
    let answer: string | Error = 'v';
    const load = loader(() => answer);
    await cache.get('k', load);
    clock.advance(300_001);
    answer = DOWN;
    await expect(cache.get('k', load)).rejects.toBe(DOWN);
  });

  it('a load that began before clear() is answered but not stored, and later callers load afresh', async () => {
    const { cache } = setup();
    let release!: (v: string) => void;
    const before = jest.fn(() => new Promise<string>((r) => (release = r)));
    const first = cache.get('k', before);
    cache.clear(); // e.g. a catalogue sync committed while the first load was reading
    const after = loader(() => 'new');
    const second = cache.get('k', after); // does not join the load that predates the clear
    release('old');
    expect(await first).toBe('old');
    expect(await second).toBe('new');
    expect(
      await cache.get(
        'k',
        loader(() => 'unused'),
      ),
    ).toBe('new');
    expect([before.mock.calls.length, after.mock.calls.length]).toEqual([1, 1]);
  });

  it('tells the slow-work listener before a load, not for a hit, and never with slowLoad: false', async () => {
    let told = 0;
    const listener = () => {
      told++;
      return Promise.resolve();
    };
    const { cache } = setup();
    await onSlowWork(listener, () =>
      cache.get(
        'k',
        loader(() => 'v'),
      ),
    );
    await onSlowWork(listener, () =>
      cache.get(
        'k',
        loader(() => 'other'),
      ),
    );
    expect(told).toBe(1);
    const local = setup({ slowLoad: false }).cache;
    await onSlowWork(listener, () =>
      local.get(
        'k',
        loader(() => 'v'),
      ),
    );
    expect(told).toBe(1);
  });

  it('is bounded by weight: the oldest go until the total fits, and an entry over it is not kept', async () => {
    const { cache } = setup({ weigh: (v) => v.length, maxWeight: 10 });
    const load = (v: string) => loader(() => v);
    await cache.get('a', load('aaaa'));
    await cache.get('b', load('bbbb'));
    await cache.get('c', load('cccc')); // 12 > 10: a goes
    const [a, b] = [load('aaaa'), load('bbbb')];
    await cache.get('b', b);
    await cache.get('a', a);
    expect([a.mock.calls.length, b.mock.calls.length]).toEqual([1, 0]);
    const huge = load('h'.repeat(11));
    expect(await cache.get('huge', huge)).toBe('h'.repeat(11));
    await cache.get('huge', huge);
    expect(huge).toHaveBeenCalledTimes(2);
  });

  it('with TTLs of 0 nothing is served or kept, but concurrent loads are still shared', async () => {
    const { cache, clock } = setup({ ttlMs: 0, negativeTtlMs: 0, staleTtlMs: 0 });
    let answer: string | Error = 'v';
    const load = loader(() => answer);
    await Promise.all([cache.get('k', load), cache.get('k', load)]);
    expect(load).toHaveBeenCalledTimes(1);
    await cache.get('k', load);
    expect(load).toHaveBeenCalledTimes(2);
    answer = DOWN;
    await expect(cache.get('k', load)).rejects.toBe(DOWN);
    clock.advance(2);
    await new Promise((r) => setTimeout(r, 10)); // lru-cache's purge timer, while idle
    expect(cache.size).toBe(0);
  });
});
