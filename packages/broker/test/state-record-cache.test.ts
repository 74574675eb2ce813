import { describe, expect, it } from 'vitest';
import { NS } from '../src/state/model/layout.js';
import { RecordCache } from '../src/state/stores/record-cache.js';
import { Harness, T0, text } from './state-harness.js';

describe('record cache', () => {
  it('holds at most its capacity, evicting the oldest written first (a rewrite keeps its place)', () => {
    const c = new RecordCache(4); // evicts one at a time
    for (const id of ['a', 'b', 'c', 'd']) c.set(id, Uint8Array.of(id.charCodeAt(0)));
    c.set('a', null); // rewritten: still the oldest
    c.set('e', Uint8Array.of(5));
    expect(c.size).toBe(4);
    expect(c.get('a')).toBeUndefined();
    expect([c.get('b'), c.get('e')]).toEqual([Uint8Array.of(98), Uint8Array.of(5)]);
    const big = new RecordCache(800); // over 800: down to 700
    for (let i = 0; i <= 800; i++) big.set(`k${i}`, null);
    expect(big.size).toBe(700);
    expect([big.get('k100'), big.get('k101'), big.get('k800')]).toEqual([undefined, null, null]);
  });

  it('distinguishes known-absent (null) from not cached (undefined); capacity 0 caches nothing', () => {
    const c = new RecordCache(4);
    c.set('gone', null);
    expect(c.get('gone')).toBeNull();
    expect(c.get('never')).toBeUndefined();
    const off = new RecordCache(0);
    off.set('a', Uint8Array.of(1));
    expect(off.get('a')).toBeUndefined();
    expect(() => new RecordCache(-1)).toThrow(/capacity/);
  });

  it('over many rewrites and deletes: never a stale value, at most its capacity, the newest writes kept (checked against a plain model)', () => {
    const c = new RecordCache(64); // over 64: down to 56
    const latest = new Map<string, number>(); // insertion order = the cache's order
    let x = 7;
    for (let i = 0; i < 20_000; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      // The high bits: an LCG's low bits cycle through few values.
      const id = `k${(x >>> 12) % 200}`;
      if ((x >>> 8) % 7 === 0) {
        c.delete(id);
        latest.delete(id);
      } else {
        c.set(id, Uint8Array.of(i & 0xff));
        if (c.get(id) === undefined) throw new Error('a write is not cached');
        latest.set(id, i & 0xff);
      }
      expect(c.size).toBeLessThanOrEqual(64);
      // What the cache holds is the newest part of the model's order, at least 56 (or all) of it.
      const ids = [...latest.keys()];
      const held = ids.map((k) => c.get(k) !== undefined);
      const firstHeld = held.includes(true) ? held.indexOf(true) : held.length;
      expect(held.slice(firstHeld).every(Boolean)).toBe(true);
      expect(held.length - firstHeld).toBeGreaterThanOrEqual(Math.min(56, ids.length));
      expect(c.size).toBe(held.length - firstHeld);
      // The evicted leave the model too: a later write inserts them anew, as in the cache.
      for (const k of ids.slice(0, firstHeld)) latest.delete(k);
      if (i % 97 !== 0) continue;
      for (let k = 0; k < 200; k++) {
        const got = c.get(`k${k}`);
        if (got !== undefined) expect(got).toEqual(Uint8Array.of(latest.get(`k${k}`)!));
      }
    }
  });

  it('delete forgets one id; clear forgets all', () => {
    const c = new RecordCache(2);
    c.set('a', Uint8Array.of(1));
    c.set('b', Uint8Array.of(2));
    c.delete('a');
    expect(c.get('a')).toBeUndefined();
    c.set('c', Uint8Array.of(3));
    expect([c.get('b'), c.get('c'), c.size]).toEqual([Uint8Array.of(2), Uint8Array.of(3), 2]);
    c.clear();
    expect([c.get('b'), c.size]).toEqual([undefined, 0]);
  });
});

describe('record cache in apply', () => {
  it('keeps the records of a message due far ahead out of the cache; a message due soon is cached; deleted records leave it; apply agrees with an uncached replica', async () => {
    const cached = await Harness.create({ cacheEntries: 1_000 });
    const plain = await Harness.create({ hasher: cached.hasher, cacheEntries: 0 });
    // Message records only (the topic's and its queue's records are cached too).
    const cacheSize = () => {
      const cache = (cached.sm as unknown as { cache: RecordCache }).cache;
      return cache
        .ids()
        .filter((id) => id.charCodeAt(0) === NS.queue.prefix || id.charCodeAt(0) === NS.index.prefix).length;
    };
    const later: bigint[] = [];
    for (const h of [cached, plain]) {
      const [r] = await h.publish({ topic: 't', payload: text('later'), delayMs: 3_600_000 });
      later.push(r!.id);
    }
    expect(cacheSize()).toBe(0);
    for (const h of [cached, plain]) {
      await h.publish({ topic: 't', payload: text('soon'), delayMs: 1_000 });
    }
    // Its queue entry (one group, no key: no index record until the entry first moves).
    expect(cacheSize()).toBe(1);
    // The far one is moved near (written hot now), leased and acked, like the near one.
    for (const [i, h] of [cached, plain].entries()) {
      await h.ok({ kind: 'reschedule', topic: 't', target: { id: later[i]! }, delayMs: 0 });
      h.now = T0 + 1_000;
      const leases = await h.leaseAll('t');
      expect(leases.map((l) => l.status)).toEqual(['leased', 'leased']);
      await h.ok({ kind: 'ack', tags: leases.map((l) => l.newTag!) });
    }
    // The acks deleted both messages' entries and index records: dropped from the cache, not cached as absent.
    expect(cacheSize()).toBe(0);
    expect(await cached.digest()).toBe(await plain.digest());
  });
});
