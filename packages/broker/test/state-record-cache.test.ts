import { describe, expect, it } from 'vitest';
import { NS } from '../src/state/layout.js';
import { RecordCache } from '../src/state/record-cache.js';
import { Harness, T0, text } from './state-harness.js';

describe('record cache', () => {
  it('holds at most its capacity, evicting the least recently written', () => {
    const c = new RecordCache(2);
    c.set('a', Uint8Array.of(1));
    c.set('b', null);
    c.set('a', Uint8Array.of(2)); // refreshes a
    c.set('c', Uint8Array.of(3)); // evicts b
    expect(c.size).toBe(2);
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toEqual(Uint8Array.of(2));
    expect(c.get('c')).toEqual(Uint8Array.of(3));
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

  it('evicts exactly the least recently written over many rewrites (checked against a plain model)', () => {
    const c = new RecordCache(64);
    const model = new Map<string, number>();
    let x = 7;
    for (let i = 0; i < 20_000; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      const id = `k${x % 200}`;
      c.set(id, Uint8Array.of(i & 0xff));
      model.delete(id);
      model.set(id, i & 0xff);
      if (model.size > 64) model.delete(model.keys().next().value!);
      expect(c.size).toBe(model.size);
    }
    for (let k = 0; k < 200; k++) {
      const want = model.get(`k${k}`);
      expect(c.get(`k${k}`)).toEqual(want === undefined ? undefined : Uint8Array.of(want));
    }
  });

  it('delete forgets one id; the write order skips it', () => {
    const c = new RecordCache(2);
    c.set('a', Uint8Array.of(1));
    c.set('b', Uint8Array.of(2));
    c.delete('a');
    expect(c.get('a')).toBeUndefined();
    c.set('c', Uint8Array.of(3));
    expect([c.get('b'), c.get('c'), c.size]).toEqual([Uint8Array.of(2), Uint8Array.of(3), 2]);
  });
});

describe('record cache in apply', () => {
  it('keeps the records of a message due far ahead out of the cache; a message due soon is cached; deleted records leave it; apply agrees with an uncached replica', async () => {
    const cached = await Harness.create({ cacheEntries: 1_000 });
    const plain = await Harness.create({ hasher: cached.hasher, cacheEntries: 0 });
    // Message records only (the topic's and its queue's records are cached too).
    const cacheSize = () => {
      const cache = (cached.sm as unknown as { cache: RecordCache }).cache;
      const ids = [...(cache as unknown as { map: Map<string, unknown> }).map.keys()];
      return ids.filter((id) => id.charCodeAt(0) === NS.queue.prefix || id.charCodeAt(0) === NS.index.prefix)
        .length;
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
