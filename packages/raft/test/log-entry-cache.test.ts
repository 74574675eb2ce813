import { describe, expect, it } from 'vitest';
import { EntryCache } from '../src/log/entry-cache.js';
import type { Entry } from '../src/types.js';

const entry = (index: number, bytes: number): Entry => ({
  index,
  term: 1,
  type: 'normal',
  data: new Uint8Array(bytes),
});

describe('EntryCache', () => {
  it('holds no more than its budget: evicted entries are released at once, not when the array is compacted', () => {
    const cache = new EntryCache(1_000_000, 1);
    for (let i = 1; i <= 500; i++) {
      cache.push(entry(i, 100_000));
      cache.evict(i);
    }
    // Everything still referenced by the cache's array, evicted or not.
    const held = (cache as unknown as { entries: Array<Entry | undefined> }).entries.filter(
      (e) => e !== undefined,
    );
    expect(held.length).toBeLessThanOrEqual(10);
    expect(cache.firstIndex()).toBe(491);
    expect(cache.get(490)).toBeUndefined();
    expect(cache.get(491)?.index).toBe(491);
    expect(cache.get(500)?.index).toBe(500);
  });
});
