import { type KVStore, openStore } from '@fermata/storage';
import { describe, expect, it } from 'vitest';
import { keyAfter, queueName, tagKeyOf } from '../src/keys.js';
import { NS } from '../src/state/model/layout.js';
import { MAX_PASSED_PER_SCAN } from '../src/state/read/reader.js';
import { type CacheFiller, FILL_LOG_BATCHES, type RecordCache } from '../src/state/stores/record-cache.js';
import { keyId } from '../src/state/stores/txn.js';
import { Harness, T0, text } from './state-harness.js';

const hex = (b: Uint8Array | undefined) => (b ? Buffer.from(b).toString('hex') : undefined);

describe('scanDue from a cursor', () => {
  it('says where the next read starts: after what it took and the running leases it passed', async () => {
    const h = await Harness.create();
    await h.publish(...[0, 10, 20, 30].map((d) => ({ topic: 't', payload: text(`m${d}`), delayMs: d })), {
      topic: 'other',
      payload: text('o'),
      delayMs: 0,
    });
    h.now = T0 + 100;
    const q = h.hasher(queueName('t', 'default'));
    const all = await h.sm.reader.scanDue(q, 0, h.now, h.now, 100);
    expect(all.entries.map((e) => e.dueAtMs)).toEqual([T0, T0 + 10, T0 + 20, T0 + 30]);
    // It met the queue's end: the next read starts after the last key.
    expect(hex(all.resumeTag)).toBe(hex(keyAfter(all.entries[3]!.tag)));
    expect(all.passedLeaseEndMs).toBe(Number.POSITIVE_INFINITY);
    // Stopped by the limit: the next read starts at the first entry not taken.
    const two = await h.sm.reader.scanDue(q, 0, h.now, h.now, 2);
    expect(hex(two.resumeTag)).toBe(hex(all.entries[2]!.tag));

    // Leased in place, the first two stay where they lie: a read from the start passes them.
    const leased = await h.ok({
      kind: 'lease',
      topic: 't',
      group: 'default',
      tags: two.entries.map((e) => e.tag),
      leaseMs: 60_000,
    });
    expect(leased.outcomes.map((o) => o.status)).toEqual(['leased', 'leased']);
    const fromStart = await h.sm.reader.scanDue(q, 0, h.now, h.now, 100);
    expect(fromStart.entries.map((e) => e.dueAtMs)).toEqual([T0 + 20, T0 + 30]);
    expect(fromStart.passedLeaseEndMs).toBe(h.now + 60_000);
    const fromThird = await h.sm.reader.scanDue(q, 0, h.now, h.now, 100, undefined, two.resumeTag);
    expect(fromThird.entries.map((e) => e.dueAtMs)).toEqual([T0 + 20, T0 + 30]);
    expect(fromThird.passedLeaseEndMs).toBe(Number.POSITIVE_INFINITY);
    // Skipped entries (carried by a lease command not yet applied) are passed too.
    const skip = new Set([tagKeyOf(all.entries[2]!.tag)]);
    const skipping = await h.sm.reader.scanDue(q, 0, h.now, h.now, 100, skip, two.resumeTag);
    expect(skipping.entries.map((e) => e.dueAtMs)).toEqual([T0 + 30]);
    // A read that meets nothing starts the next one where it started.
    const empty = await h.sm.reader.scanDue(q, 0, h.now, h.now, 100, undefined, all.resumeTag);
    expect(empty.entries).toEqual([]);
    expect(hex(empty.resumeTag)).toBe(hex(all.resumeTag));

    // Once the leases ran out, a read from the start takes them again, due since their end.
    h.now += 60_000;
    const lapsed = await h.sm.reader.scanDue(q, 0, h.now, h.now, 100);
    expect(lapsed.entries.map((e) => [e.dueAtMs, e.inFlight])).toEqual([
      [T0 + 100 + 60_000, true],
      [T0 + 100 + 60_000, true],
      [T0 + 20, false],
      [T0 + 30, false],
    ]);

    const otherQueue = h.hasher(queueName('other', 'default'));
    const other = await h.sm.reader.scanDue(otherQueue, 0, h.now, h.now, 1);
    await expect(
      h.sm.reader.scanDue(q, 0, h.now, h.now, 100, undefined, other.entries[0]!.tag),
    ).rejects.toThrow(/another queue/);
  });
});

describe('a due read from the head of a queue full of leases', () => {
  it('passes at most MAX_PASSED_PER_SCAN running leases, then stops where the next read goes on', async () => {
    const h = await Harness.create({ cacheEntries: 0 });
    const n = MAX_PASSED_PER_SCAN + 5;
    for (let at = 0; at < n; at += 1_000) {
      const count = Math.min(1_000, n - at);
      await h.publish(
        ...Array.from({ length: count }, () => ({ topic: 't', payload: text('x'), delayMs: 0 })),
      );
    }
    await h.publish({ topic: 't', payload: text('last'), delayMs: 10 });
    const q = h.hasher(queueName('t', 'default'));
    // Lease them all as the dispatcher does: each read goes on where the last one stopped.
    let from: Uint8Array | undefined;
    for (let leased = 0; leased < n; ) {
      const due = await h.sm.reader.scanDue(q, 0, h.now, h.now, 1_000, undefined, from);
      from = due.resumeTag;
      const tags = due.entries.map((e) => e.tag);
      await h.ok({ kind: 'lease', topic: 't', group: 'default', tags, leaseMs: 60_000 });
      leased += tags.length;
    }
    h.now = T0 + 10;
    const first = await h.sm.reader.scanDue(q, 0, h.now, h.now, 100);
    expect(first.entries).toEqual([]);
    expect(first.nextDueMs).toBe(h.now); // go on at once
    expect(first.passedLeaseEndMs).toBe(T0 + 60_000);
    const rest = await h.sm.reader.scanDue(q, 0, h.now, h.now, 100, undefined, first.resumeTag);
    expect(rest.entries.map((e) => e.dueAtMs)).toEqual([T0 + 10]);
    expect(rest.passedLeaseEndMs).toBe(T0 + 60_000);
  });
});

describe('the due read fills the record cache', () => {
  it('with the entries it took, so the lease reads none of them from the store; never with what a batch wrote after the read began', async () => {
    const inner = await openStore({ engine: 'memory' });
    let queueReads = 0;
    const isQueue = (k: Uint8Array) => k[0] === NS.queue.prefix;
    const store: KVStore = Object.assign(Object.create(inner) as KVStore, {
      get: (key: Uint8Array) => {
        if (isQueue(key)) queueReads++;
        return inner.get(key);
      },
      getMany: (keys: readonly Uint8Array[]) => {
        queueReads += keys.filter(isQueue).length;
        return inner.getMany!(keys);
      },
      scan: inner.scan.bind(inner),
      batch: inner.batch.bind(inner),
    });
    const h = await Harness.create({ store, cacheEntries: 1_000 });
    await h.publish(...[0, 1, 2].map((d) => ({ topic: 't', payload: text(`m${d}`), delayMs: d })));
    // Published entries are cached at their write: empty the cache to see the read's effect.
    const cache = (h.sm as unknown as { cache: RecordCache }).cache;
    cache.clear();
    h.now = T0 + 10;
    const q = h.hasher(queueName('t', 'default'));
    const due = await h.sm.reader.scanDue(q, 0, h.now, h.now, 100);
    const before = queueReads;
    const leased = await h.ok({
      kind: 'lease',
      topic: 't',
      group: 'default',
      tags: due.entries.map((e) => e.tag),
      leaseMs: 1_000,
    });
    expect(leased.outcomes.map((o) => o.status)).toEqual(['leased', 'leased', 'leased']);
    expect(queueReads - before).toBe(0);

    // A read taken before batches were written fills the cache with what those batches did not
    // write: what one wrote or deleted since the read began stays as the batch left it.
    const filler = (h.sm.reader as unknown as { cacheFiller: CacheFiller }).cacheFiller;
    const version = filler.version();
    const acked = await h.ok({ kind: 'ack', tags: leased.outcomes.slice(0, 1).map((o) => o.newTag!) });
    expect(acked.outcomes.map((o) => o.status)).toEqual(['ok']);
    await h.publish({ topic: 't', payload: text('later'), delayMs: 0 });
    const deleted = NS.queue.key(due.entries[0]!.tag); // the ack deleted it after the read began
    const untouched = NS.queue.key(keyAfter(due.entries[2]!.tag)); // a key no batch wrote
    expect(cache.get(keyId(deleted))).toBeUndefined();
    filler.fill(version, [
      [keyId(deleted), Uint8Array.of(9)],
      [keyId(untouched), Uint8Array.of(1, 2, 3)],
    ]);
    expect(cache.get(keyId(deleted))).toBeUndefined();
    expect(cache.get(keyId(untouched))).toEqual(Uint8Array.of(1, 2, 3));
    // A read older than the batches remembered fills nothing.
    const old = filler.version();
    for (let i = 0; i <= FILL_LOG_BATCHES; i++) await h.publish({ topic: 'u', payload: text(`u${i}`) });
    const other = NS.queue.key(keyAfter(untouched.subarray(1)));
    filler.fill(old, [[keyId(other), Uint8Array.of(4)]]);
    expect(cache.get(keyId(other))).toBeUndefined();
  });
});

describe('the due read keeps copies', () => {
  it('of what it puts in the cache and hands out: an engine that reuses its slices changes neither', async () => {
    // checkSlices: every value handed to a scan visitor is scribbled over after the visit.
    const store = await openStore({ engine: 'memory', checkSlices: true });
    const h = await Harness.create({ store, cacheEntries: 1_000 });
    const n = 40;
    await h.publish(...Array.from({ length: n }, (_, i) => ({ topic: 't', payload: text(`m${i}`) })));
    (h.sm as unknown as { cache: RecordCache }).cache.clear();
    const q = h.hasher(queueName('t', 'default'));
    const due = await h.sm.reader.scanDue(q, 0, h.now, h.now, 100);
    const payload = (b: { payload: Uint8Array } | undefined) => Buffer.from(b?.payload ?? []).toString();
    expect(due.entries.map((e) => payload(e.body))).toEqual(Array.from({ length: n }, (_, i) => `m${i}`));
    // The lease reads them from the cache the read filled, and answers with them intact.
    const leased = await h.ok({
      kind: 'lease',
      topic: 't',
      group: 'default',
      tags: due.entries.map((e) => e.tag),
      leaseMs: 1_000,
    });
    expect(leased.outcomes.map((o) => o.status)).toEqual(Array(n).fill('leased'));
    const bodies = await h.sm.reader.getBodies(due.entries.map((e) => e.id));
    expect(bodies.map(payload)).toEqual(Array.from({ length: n }, (_, i) => `m${i}`));
  });
});

describe('a snapshot restore and the due read', () => {
  it('a read that began before or during a restore fills nothing, and the restore leaves the cache empty', async () => {
    const src = await Harness.create();
    await src.publish({ topic: 't', payload: text('a'), delayMs: 0 });
    const snap = await src.sm.snapshot();
    const dst = await Harness.create({ hasher: src.hasher, cacheEntries: 1_000 });
    await dst.publish({ topic: 'old', payload: text('b'), delayMs: 0 });
    const filler = (dst.sm.reader as unknown as { cacheFiller: CacheFiller }).cacheFiller;
    const cache = (dst.sm as unknown as { cache: RecordCache }).cache;
    const before = filler.version();
    await dst.sm.restore(snap.chunks);
    expect(cache.size).toBe(0);
    const key = NS.queue.key(Uint8Array.from({ length: 24 }, (_, i) => i));
    filler.fill(before, [[keyId(key), Uint8Array.of(1)]]);
    expect(cache.get(keyId(key))).toBeUndefined();
  });
});
