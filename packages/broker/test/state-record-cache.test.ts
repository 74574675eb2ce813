import { describe, expect, it } from 'vitest';
import { NS } from '../src/state/layout.js';
import { RecordCache } from '../src/state/record-cache.js';
import { Harness, T0, text } from './state-harness.js';

describe('record cache', () => {
  it('holds at most its capacity; a record stays for the next capacity / 2 writes of others', () => {
    const c = new RecordCache(4);
    c.set('a', Uint8Array.of(1));
    c.set('b', null); // young full (2): it becomes the old generation
    c.set('a', Uint8Array.of(2)); // the young one shadows the old value
    expect(c.get('a')).toEqual(Uint8Array.of(2));
    expect(c.get('b')).toBeNull();
    c.set('c', Uint8Array.of(3)); // young full again: {a: 1, b} dropped, {a: 2, c} old
    expect(c.get('b')).toBeUndefined();
    expect([c.get('a'), c.get('c'), c.size]).toEqual([Uint8Array.of(2), Uint8Array.of(3), 2]);
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

  it('over many rewrites and deletes: never a stale value, at most its capacity, the last capacity / 2 writes kept (checked against a plain model)', () => {
    const c = new RecordCache(64);
    const latest = new Map<string, number>();
    const recent: string[] = [];
    let x = 7;
    for (let i = 0; i < 20_000; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      const id = `k${x % 200}`;
      if (x % 7 === 0) {
        c.delete(id);
        latest.delete(id);
      } else {
        c.set(id, Uint8Array.of(i & 0xff));
        latest.set(id, i & 0xff);
        recent.push(id);
      }
      expect(c.size).toBeLessThanOrEqual(64);
      if (i % 97 !== 0) continue;
      for (let k = 0; k < 200; k++) {
        const got = c.get(`k${k}`);
        const want = latest.get(`k${k}`);
        if (got !== undefined) expect(got).toEqual(Uint8Array.of(want!));
      }
      for (const id of recent.slice(-32)) {
        if (latest.has(id)) expect(c.get(id)).toEqual(Uint8Array.of(latest.get(id)!));
      }
    }
  });

  it('delete forgets one id in both generations', () => {
    const c = new RecordCache(4);
    c.set('a', Uint8Array.of(1));
    c.set('b', Uint8Array.of(2)); // {a, b} old
    c.set('a', Uint8Array.of(3)); // a also young
    c.delete('a');
    expect(c.get('a')).toBeUndefined();
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
