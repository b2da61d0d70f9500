import { describe, expect, it } from 'vitest';
import { CachedLookup } from './cached-lookup.js';

function clock(start = 1_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

function counting<K, V>(value: (key: K) => V) {
  const calls: K[][] = [];
  return {
    calls,
    one: async (key: K) => {
      calls.push([key]);
      return value(key);
    },
    many: async (keys: K[]) => {
      calls.push(keys);
      return new Map(keys.map((k) => [k, value(k)] as const));
    },
  };
}

describe('CachedLookup', () => {
  it('loads a key once and answers from memory until the entry is ttlMs old', async () => {
    const c = clock();
    const lookup = new CachedLookup<string, string>({ ttlMs: 1_000, maxEntries: 10, now: c.now }, () => true);
    const load = counting((k: string) => `v-${k}`);
    expect(await lookup.get('a', load.one)).toBe('v-a');
    expect(await lookup.get('a', load.one)).toBe('v-a');
    c.advance(999);
    expect(await lookup.get('a', load.one)).toBe('v-a');
    expect(load.calls).toHaveLength(1);
    c.advance(1);
    await lookup.get('a', load.one);
    expect(load.calls).toHaveLength(2);
  });

  it('reads again after invalidate', async () => {
    const lookup = new CachedLookup<string, number>({ ttlMs: 60_000, maxEntries: 10 }, () => true);
    let version = 1;
    const load = async () => version;
    expect(await lookup.get('k', load)).toBe(1);
    version = 2;
    expect(await lookup.get('k', load)).toBe(1);
    lookup.invalidate();
    expect(await lookup.get('k', load)).toBe(2);
  });

  it('does not keep what a load read before an invalidation that came while it ran', async () => {
    const lookup = new CachedLookup<string, number>({ ttlMs: 60_000, maxEntries: 10 }, () => true);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = lookup.get('k', async () => {
      await gate;
      return 1;
    });
    lookup.invalidate();
    release();
    expect(await slow).toBe(1);
    expect(lookup.size).toBe(0);
    expect(await lookup.get('k', async () => 2)).toBe(2);
  });

  it('keeps nothing while it is not usable (the change feed is down)', async () => {
    let live = false;
    const lookup = new CachedLookup<string, string>({ ttlMs: 60_000, maxEntries: 10 }, () => live);
    const load = counting((k: string) => k);
    await lookup.get('a', load.one);
    await lookup.get('a', load.one);
    expect(load.calls).toHaveLength(2);
    expect(lookup.size).toBe(0);
    live = true;
    await lookup.get('a', load.one);
    await lookup.get('a', load.one);
    expect(load.calls).toHaveLength(3);
  });

  it('caches nothing with ttlMs 0', async () => {
    const lookup = new CachedLookup<string, string>({ ttlMs: 0, maxEntries: 10 }, () => true);
    const load = counting((k: string) => k);
    await lookup.get('a', load.one);
    await lookup.get('a', load.one);
    expect(load.calls).toHaveLength(2);
  });

  it('loads only the missing keys of a batch, together, and does not keep keys the loader did not find', async () => {
    const lookup = new CachedLookup<string, string>({ ttlMs: 60_000, maxEntries: 10 }, () => true);
    const calls: string[][] = [];
    const load = async (keys: string[]) => {
      calls.push(keys);
      return new Map(keys.filter((k) => k !== 'unknown').map((k) => [k, k.toUpperCase()] as const));
    };
    expect([...(await lookup.getMany(['a', 'b'], load))]).toEqual([
      ['a', 'A'],
      ['b', 'B'],
    ]);
    const second = await lookup.getMany(['a', 'c', 'unknown'], load);
    expect(calls).toEqual([
      ['a', 'b'],
      ['c', 'unknown'],
    ]);
    expect(second.get('a')).toBe('A');
    expect(second.get('c')).toBe('C');
    expect(second.has('unknown')).toBe(false);
    await lookup.getMany(['unknown'], load);
    expect(calls).toHaveLength(3);
  });

  it('drops the oldest entry beyond maxEntries', async () => {
    const lookup = new CachedLookup<number, number>({ ttlMs: 60_000, maxEntries: 3 }, () => true);
    const load = counting((k: number) => k);
    for (const k of [1, 2, 3, 4]) await lookup.get(k, load.one);
    expect(lookup.size).toBe(3);
    await lookup.get(2, load.one);
    await lookup.get(4, load.one);
    expect(load.calls).toHaveLength(4);
    await lookup.get(1, load.one);
    expect(load.calls).toHaveLength(5);
  });

  it('keeps entries up to a total weight, the oldest going first, and never one heavier than that alone', async () => {
    const weight = { of: (v: string) => v.length, max: 6 };
    const lookup = new CachedLookup<string, string>({ ttlMs: 1_000, maxEntries: 10, weight }, () => true);
    const load = counting((k: string) => k.repeat(k.length));
    await lookup.get('aa', load.one); // weighs 4
    await lookup.get('b', load.one); // 5 in all
    await lookup.get('cc', load.one); // 9: 'aa' goes, 5 left
    await lookup.get('dddddddd', load.one); // 64 alone: not kept
    expect(lookup.size).toBe(2);
    await lookup.get('b', load.one);
    await lookup.get('cc', load.one);
    await lookup.get('dddddddd', load.one);
    await lookup.get('aa', load.one);
    expect(load.calls).toEqual([['aa'], ['b'], ['cc'], ['dddddddd'], ['dddddddd'], ['aa']]);
  });
});
