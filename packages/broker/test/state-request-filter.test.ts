import { type KVStore, openStore } from '@fermata/storage';
import { describe, expect, it } from 'vitest';
import { EMPTY, NS, requestWindowSuffix } from '../src/state/model/layout.js';
import { RequestFilter } from '../src/state/stores/request-filter.js';
import { Harness, T0, text } from './state-harness.js';

const REQUESTS_PREFIX = NS.requests.key(new Uint8Array(0))[0];

/** The store, counting point reads of request records. */
function countingRequestReads(store: KVStore): { store: KVStore; reads: () => number } {
  let reads = 0;
  const count = (key: Uint8Array) => {
    if (key[0] === REQUESTS_PREFIX) reads++;
  };
  const wrapped = new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'get')
        return (key: Uint8Array) => {
          count(key);
          return target.get(key);
        };
      if (prop === 'getMany' && target.getMany)
        return (keys: readonly Uint8Array[]) => {
          for (const k of keys) count(k);
          return target.getMany!(keys);
        };
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { store: wrapped, reads: () => reads };
}

const publishUnder = (h: Harness, idempotencyKey: string, n = 2) =>
  h.ok({
    kind: 'publish',
    messages: Array.from({ length: n }, (_, i) => ({ topic: 't', payload: text(`m${i}`), delayMs: 1_000 })),
    requests: [{ idempotencyKey, count: n }],
  });

describe('RequestFilter', () => {
  it('answers "may have" for every key until built, and again after invalidate', async () => {
    const f = new RequestFilter(600_000);
    expect(f.mayHave('anything')).toBe(true);
    await f.build(await openStore({ engine: 'memory' }));
    expect(f.mayHave('anything')).toBe(false);
    f.add('k', T0);
    expect(f.mayHave('k')).toBe(true);
    f.invalidate();
    expect(f.mayHave('anything')).toBe(true);
    expect(f.stats()).toMatchObject({ exact: false, buckets: 0 });
  });

  it('is built from the request-window index: every stored key may be there, few others', async () => {
    const store = await openStore({ engine: 'memory' });
    const keys = Array.from({ length: 5_000 }, (_, i) => `req-${i}-${(i * 2_654_435_761) % 1_000_003}`);
    await store.batch(
      keys.map((k, i) => ({
        type: 'put' as const,
        key: NS.requestWindow.key(requestWindowSuffix(T0 + (i % 20) * 60_000, k)),
        value: EMPTY,
      })),
      { sync: false },
    );
    const f = new RequestFilter(600_000);
    await f.build(store);
    expect(keys.every((k) => f.mayHave(k))).toBe(true);
    expect(f.stats()).toMatchObject({ exact: true, buckets: 20, records: 5_000 });
    let falsePositives = 0;
    for (let i = 0; i < 20_000; i++) if (f.mayHave(`other-${i}`)) falsePositives++;
    // 20 buckets of 250 keys in 16 KiB filters each: far under 1%.
    expect(falsePositives).toBeLessThan(200);
  });

  it('drops a minute of windows when its last record is forgotten, and grows a bucket past one filter', () => {
    const f = new RequestFilter(600_000);
    return f.build({ get: async () => undefined, scan: async () => 0 }).then(() => {
      f.add('a', T0);
      f.add('b', T0 + 30_000);
      f.add('c', T0 + 120_000);
      f.forgotten(T0);
      expect(f.mayHave('a')).toBe(true);
      f.forgotten(T0 + 30_000);
      expect(f.mayHave('a')).toBe(false);
      expect(f.mayHave('b')).toBe(false);
      expect(f.mayHave('c')).toBe(true);
      for (let i = 0; i < 20_000; i++) f.add(`bulk-${i}`, T0 + 600_000);
      expect(f.stats().bytes).toBeGreaterThan(16 * 1024 * 2);
      for (let i = 0; i < 20_000; i += 997) expect(f.mayHave(`bulk-${i}`)).toBe(true);
    });
  });
});

describe('publish under an idempotency key, with the request filter', () => {
  it('reads no request record for a new key, and reads it (and deduplicates) on a retry', async () => {
    const counted = countingRequestReads(await openStore({ engine: 'memory' }));
    const h = await Harness.create({ store: counted.store });
    const first = await publishUnder(h, 'fresh-1');
    await publishUnder(h, 'fresh-2');
    expect(counted.reads()).toBe(0);
    h.now += 1_000;
    const again = await publishUnder(h, 'fresh-1');
    expect(counted.reads()).toBeGreaterThan(0);
    expect(again.results).toEqual(first.results.map((r) => ({ ...r, deduplicated: true })));
  });

  it('a retry is deduplicated after the state machine reopens over its store', async () => {
    const store = await openStore({ engine: 'memory' });
    const h = await Harness.create({ store });
    const first = await publishUnder(h, 'before-restart');
    const reopened = await Harness.create({ store });
    // Built at open: exact, and it knows the key (an unbuilt filter would read, and pass, anyway).
    expect(reopened.sm.requestFilter.stats()).toMatchObject({ exact: true, records: 1 });
    reopened.now = h.now + 1_000;
    const again = await publishUnder(reopened, 'before-restart');
    expect(again.results).toEqual(first.results.map((r) => ({ ...r, deduplicated: true })));
  });

  it('a retry is deduplicated on a node restored from a snapshot', async () => {
    const src = await Harness.create();
    const first = await publishUnder(src, 'before-snapshot');
    const snap = await src.sm.snapshot();
    const dst = await Harness.create();
    // The destination knew nothing of the key before the restore.
    expect(dst.sm.requestFilter.mayHave('before-snapshot')).toBe(false);
    await dst.sm.restore(snap.chunks);
    // Rebuilt from the restored store: exact again, and it knows the key.
    expect(dst.sm.requestFilter.stats()).toMatchObject({ exact: true, records: 1 });
    dst.index = dst.sm.appliedIndex();
    dst.sm.ids.beginLeadership(2);
    await dst.applyEntries([{ term: 2, index: dst.index + 1, type: 'normal', data: new Uint8Array(0) }]);
    dst.now = src.now + 1_000;
    const again = await publishUnder(dst, 'before-snapshot');
    expect(again.results).toEqual(first.results.map((r) => ({ ...r, deduplicated: true })));
  });

  it('knows a key by its UTF-8 bytes: one with a leading U+FEFF is found after a reopen, and purged', async () => {
    const store = await openStore({ engine: 'memory' });
    const h = await Harness.create({ store, limits: { publishDedupWindowMs: 1_000 } });
    const key = '\uFEFFretry';
    const first = await publishUnder(h, key);
    const reopened = await Harness.create({ store, limits: { publishDedupWindowMs: 1_000 } });
    reopened.now = h.now + 500;
    const again = await publishUnder(reopened, key);
    expect(again.results).toEqual(first.results.map((r) => ({ ...r, deduplicated: true })));
    // The janitor reads the key back as it was written, so its purge finds the record.
    reopened.now = T0 + 5_000;
    expect(await reopened.sm.reader.dueRequestPurges(reopened.now, 10)).toEqual([key]);
    expect(await reopened.ok({ kind: 'purge-keys', keys: [], requests: [key] })).toMatchObject({ purged: 1 });
    expect(reopened.sm.requestFilter.stats()).toMatchObject({ buckets: 0, records: 0 });
  });

  it('forgets the key of a request whose command was refused as a whole (rolled back)', async () => {
    // Two topics whose default queues collide: a command touching both is refused after its first request was applied.
    const h = await Harness.create({
      hasher: (name) => (name.startsWith('clash') ? 7n : BigInt(name.length)),
    });
    await h.publish({ topic: 'clash-a', payload: text('x') });
    const refused = await h.run({
      kind: 'publish',
      messages: [
        { topic: 't', payload: text('first') },
        { topic: 'clash-b', payload: text('second') },
      ],
      requests: [
        { idempotencyKey: 'rolled-back', count: 1 },
        { idempotencyKey: 'other', count: 1 },
      ],
    });
    expect(refused).toMatchObject({
      kind: 'error',
      error: { code: 'conflict', reason: 'queue-hash-collision' },
    });
    expect(h.sm.requestFilter.stats()).toMatchObject({ buckets: 0, records: 0 });
    expect(h.sm.requestFilter.mayHave('rolled-back')).toBe(false);
    const later = await publishUnder(h, 'rolled-back', 1);
    expect(later.results[0]!.deduplicated).toBe(false);
    expect(h.sm.requestFilter.stats()).toMatchObject({ records: 1 });
  });

  it('keeps a key whose window ended but whose record is not yet purged, then forgets it with the purge', async () => {
    const h = await Harness.create({ limits: { publishDedupWindowMs: 1_000 } });
    await publishUnder(h, 'k');
    h.now = T0 + 5_000;
    // Expired but stored: the publish that reuses the key must still find it (and remove its window entry).
    expect(h.sm.requestFilter.mayHave('k')).toBe(true);
    expect(await h.sm.reader.dueRequestPurges(h.now, 10)).toEqual(['k']);
    expect(await h.ok({ kind: 'purge-keys', keys: [], requests: ['k'] })).toMatchObject({ purged: 1 });
    expect(h.sm.requestFilter.mayHave('k')).toBe(false);
    expect(h.sm.requestFilter.stats()).toMatchObject({ buckets: 0, records: 0 });
  });
});
