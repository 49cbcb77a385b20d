import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  it('forgets an entry after its time, and the oldest first when full', () => {
    const cache = new TtlCache<string>(1_000, 2);
    cache.set('a', 'A', 0);
    expect(cache.get('a', 999)).toBe('A');
    expect(cache.get('a', 1_000)).toBeUndefined();
    cache.set('a', 'A', 0);
    cache.set('b', 'B', 0);
    cache.set('c', 'C', 0);
    expect(cache.size).toBe(2);
    expect(cache.get('a', 1)).toBeUndefined();
    expect([cache.get('b', 1), cache.get('c', 1)]).toEqual(['B', 'C']);
    // Setting a key again renews it and makes it the newest.
    cache.set('b', 'B2', 500);
    cache.set('d', 'D', 500);
    expect([cache.get('b', 600), cache.get('c', 600), cache.get('d', 600)]).toEqual(['B2', undefined, 'D']);
  });
});
