import { jest } from '@jest/globals';
import { onSlowWork } from '../http/slow-work.js';
import { LookupCache, LookupCacheOptions } from './lookup-cache.js';

class Clock {
  t = 1_000_000;
  now = () => this.t;
  advance(ms: number) {
    this.t += ms;
  }
}

const DOWN = new Error('registry down');
const isDown = (err: unknown) => err === DOWN;

function setup(over: Partial<LookupCacheOptions<string>> = {}) {
  const clock = new Clock();
  const stale: unknown[] = [];
  const cache = new LookupCache<string>({
    ttlMs: 300_000,
    negativeTtlMs: 60_000,
    staleTtlMs: 3_600_000,
    maxEntries: 100,
    serveStaleOn: isDown,
    onStaleServed: (err) => stale.push(err),
    now: clock.now,
    ...over,
  });
  return { cache, clock, stale };
}

/** A loader that counts its calls and answers from a script. */
function loader(answer: () => string | null | Error) {
  const fn = jest.fn(async () => {
    await Promise.resolve();
    const a = answer();
    if (a instanceof Error) throw a;
    return a;
  });
  return fn;
}

describe('LookupCache', () => {
  it('single flight: 50 concurrent misses for one key make one load and share its answer', async () => {
    const { cache } = setup();
    let release!: (v: string) => void;
    const load = jest.fn(() => new Promise<string>((r) => (release = r)));
    const all = Promise.all(Array.from({ length: 50 }, () => cache.get('k', load)));
    release('v');
    expect(await all).toEqual(Array(50).fill('v'));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('single flight also shares a failure, and the next call tries again', async () => {
    const { cache } = setup();
    const load = loader(() => new Error('boom'));
    const results = await Promise.allSettled([cache.get('k', load), cache.get('k', load)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(load).toHaveBeenCalledTimes(1);
    await expect(cache.get('k', load)).rejects.toThrow('boom');
    expect(load).toHaveBeenCalledTimes(2);
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
    expect(before).toHaveBeenCalledTimes(1);
    expect(after).toHaveBeenCalledTimes(1);
  });

  it('a loader that throws at once does not leave its key stuck', async () => {
    const { cache } = setup();
    const load = jest.fn((): Promise<string> => {
      throw new Error('at once');
    });
    await expect(cache.get('k', load)).rejects.toThrow('at once');
    await expect(
      cache.get(
        'k',
        loader(() => 'v'),
      ),
    ).resolves.toBe('v');
  });

  it('keeps a hit for ttlMs and loads again after', async () => {
    const { cache, clock } = setup();
    const load = loader(() => 'v');
    await cache.get('k', load);
    clock.advance(299_999);
    expect(await cache.get('k', load)).toBe('v');
    expect(load).toHaveBeenCalledTimes(1);
    clock.advance(1);
    await cache.get('k', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('keeps a miss (null) only for negativeTtlMs', async () => {
    const { cache, clock } = setup();
    const load = loader(() => null);
    expect(await cache.get('k', load)).toBeNull();
    clock.advance(59_999);
    expect(await cache.get('k', load)).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
    clock.advance(1);
    await cache.get('k', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('does not tell the slow-work listener of a load that is not slow (slowLoad: false)', async () => {
    const { cache } = setup({ slowLoad: false });
    let told = 0;
    const listener = () => {
      told++;
      return Promise.resolve();
    };
    expect(
      await onSlowWork(listener, () =>
        cache.get(
          'k',
          loader(() => 'v'),
        ),
      ),
    ).toBe('v');
    expect(told).toBe(0);
  });

  it('tells the slow-work listener before a load (a miss), not for an answer from memory (a hit)', async () => {
    const { cache } = setup();
    let told = 0;
    const listener = () => {
      told++;
      return Promise.resolve();
    };
    await onSlowWork(listener, () =>
      cache.get(
        'k',
        loader(() => 'v'),
      ),
    );
    expect(told).toBe(1);
    await onSlowWork(listener, () =>
      cache.get(
        'k',
        loader(() => 'other'),
      ),
    );
    expect(told).toBe(1);
  });

  it('serves a stale hit when the reload fails with an accepted error, and reports it', async () => {
    const { cache, clock, stale } = setup();
    let answer: string | Error = 'v1';
    const load = loader(() => answer);
    await cache.get('k', load);
    clock.advance(300_000 + 1_000);
    answer = DOWN;
    expect(await cache.get('k', load)).toBe('v1');
    expect(load).toHaveBeenCalledTimes(2); // it did try the registry first
    expect(stale).toEqual([DOWN]);
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

  it('is bounded: the least recently used entry goes first', async () => {
    const { cache } = setup({ maxEntries: 2 });
    const load = loader(() => 'v');
    await cache.get('a', load);
    await cache.get('b', load);
    await cache.get('a', load); // a is now more recent than b
    await cache.get('c', load); // evicts b
    expect(cache.size).toBe(2);
    expect(load).toHaveBeenCalledTimes(3);
    await cache.get('a', load);
    expect(load).toHaveBeenCalledTimes(3);
    await cache.get('b', load);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('sweeps entries past their retention so data does not linger in memory', async () => {
    const { cache, clock } = setup({ staleTtlMs: 0 });
    const load = loader(() => 'v');
    await cache.get('a', load);
    await cache.get('b', load);
    expect(cache.size).toBe(2);
    clock.advance(300_001);
    await cache.get('c', load);
    expect(cache.size).toBe(1);
  });

  it('is bounded by weight too: the oldest go until the total fits, and an entry over it is not kept', async () => {
    const { cache } = setup({ weigh: (v) => v.length, maxWeight: 10 });
    const load = (v: string) => loader(() => v);
    await cache.get('a', load('aaaa'));
    await cache.get('b', load('bbbb'));
    expect(cache.totalWeight).toBe(8);
    await cache.get('c', load('cccc')); // 12 > 10: a goes
    expect([cache.size, cache.totalWeight]).toEqual([2, 8]);
    const b = load('x');
    await cache.get('b', b);
    expect(b).not.toHaveBeenCalled(); // b stayed
    await cache.get('huge', load('h'.repeat(11)));
    expect([cache.size, cache.totalWeight]).toEqual([0, 0]);
  });

  it('sweeps expired entries while idle too, so an idle process gives the memory back', async () => {
    jest.useFakeTimers();
    try {
      const { cache, clock } = setup({ staleTtlMs: 0 });
      await cache.get(
        'a',
        loader(() => 'v'),
      );
      expect(cache.size).toBe(1);
      clock.advance(300_001);
      jest.advanceTimersByTime(60_000); // the sweep's period: the shorter TTL
      expect([cache.size, cache.totalWeight]).toEqual([0, 0]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('with a TTL of 0 nothing is kept, but concurrent loads are still shared', async () => {
    const { cache } = setup({ ttlMs: 0, negativeTtlMs: 0, staleTtlMs: 0 });
    const load = loader(() => 'v');
    await Promise.all([cache.get('k', load), cache.get('k', load)]);
    expect(load).toHaveBeenCalledTimes(1);
    await cache.get('k', load);
    expect(load).toHaveBeenCalledTimes(2);
    expect(cache.size).toBe(0);
  });
});
