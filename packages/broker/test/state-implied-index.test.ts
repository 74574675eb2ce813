import { v1 } from '@fermata/protocol';
import { type KVStore, openStore } from '@fermata/storage';
import { describe, expect, it } from 'vitest';
import { decodeEntry, encodeEntry } from '../src/state/codec/entry.js';
import { decodeIndex, encodeIndex, movedIndexTag } from '../src/state/codec/message-index.js';
import type { LeaseOutcome } from '../src/state/commands/results.js';
import { NS } from '../src/state/model/layout.js';
import { impliedIndex } from '../src/state/model/records.js';
import { Harness, T0, text } from './state-harness.js';

/** The store, counting the index records read from it (get and getMany). */
async function countingStore(): Promise<{ store: KVStore; indexReads: () => number }> {
  const inner = await openStore({ engine: 'memory' });
  let reads = 0;
  const isIndex = (k: Uint8Array) => k[0] === NS.index.prefix;
  const store: KVStore = {
    engine: inner.engine,
    stats: inner.stats,
    get: (key) => {
      if (isIndex(key)) reads++;
      return inner.get(key);
    },
    getMany: (keys) => {
      reads += keys.filter(isIndex).length;
      return inner.getMany!(keys);
    },
    scan: (options, visit) => inner.scan(options, visit),
    batch: (ops, options) => inner.batch(ops, options),
    snapshot: () => inner.snapshot(),
    clear: () => inner.clear(),
    close: () => inner.close(),
  };
  return { store, indexReads: () => reads };
}

/** Every record of one namespace, as [key hex, value]. */
async function records(store: KVStore, ns: typeof NS.index): Promise<Array<[string, Uint8Array]>> {
  const out: Array<[string, Uint8Array]> = [];
  await store.scan(ns.range(), (k, v) => {
    out.push([Buffer.from(k).toString('hex'), new Uint8Array(v)]);
  });
  return out;
}

/** Rewrites every queue entry as one written before `indexImplied` existed. */
async function forgetImplied(store: KVStore): Promise<void> {
  const rows: Array<{ key: Uint8Array; value: Uint8Array }> = [];
  await store.scan(NS.queue.range(), (k, v) => {
    rows.push({ key: k.slice(), value: encodeEntry({ ...decodeEntry(v), indexImplied: false }) });
  });
  await store.batch(
    rows.map((r) => ({ type: 'put' as const, key: r.key, value: r.value })),
    { sync: false },
  );
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** The new tag of a lease that must have been taken. */
function leasedTag(l: LeaseOutcome | undefined): Uint8Array {
  if (l?.status !== 'leased' || !l.newTag) throw new Error(`expected a lease, got ${l?.status}`);
  return l.newTag;
}

describe('index records implied by the queue entry', () => {
  it('a lease in place and its ack of a one-group message without a key neither read, write nor delete its index', async () => {
    const { store, indexReads } = await countingStore();
    const indexWrites: string[] = [];
    const batch = store.batch.bind(store);
    store.batch = (ops, options) => {
      for (const op of ops) if (op.key[0] === NS.index.prefix) indexWrites.push(op.type);
      return batch(ops, options);
    };
    const h = await Harness.create({ store, cacheEntries: 0 });
    await h.publish(
      { topic: 't', payload: text('a'), delayMs: 0, ttlMs: 60_000 },
      { topic: 't', payload: text('b'), delayMs: 0 },
    );
    const leases = await h.leaseAll('t');
    expect(leases.map((l) => l.status)).toEqual(['leased', 'leased']);
    const readsByLease = indexReads();
    // GetMessage finds each through its body, in flight under the lease's tag.
    for (const l of leases) {
      const view = await h.sm.reader.getMessage('t', { id: l.id! }, h.now);
      expect(view?.groups.map((g) => ({ ...g, tag: g.tag && hex(g.tag) }))).toEqual([
        expect.objectContaining({ state: 'in-flight', attempt: 1, tag: hex(leasedTag(l)) }),
      ]);
    }
    const beforeAck = indexReads();
    const acked = await h.ok({ kind: 'ack', tags: leases.map(leasedTag) });
    expect(acked.outcomes.map((o) => o.status)).toEqual(['ok', 'ok']);
    expect({ readsByLease, readsByAck: indexReads() - beforeAck, indexWrites }).toEqual({
      readsByLease: 0,
      readsByAck: 0,
      indexWrites: [],
    });
    for (const ns of [NS.queue, NS.body, NS.index, NS.expiry]) expect(await records(store, ns)).toEqual([]);

    // Once the entry moved (a nack), its index record exists, and ending the message deletes it.
    await h.publish({ topic: 't', payload: text('c'), delayMs: 0 });
    const [first] = await h.leaseAll('t');
    await h.ok({ kind: 'nack', tag: leasedTag(first), delayMs: 100 });
    expect(indexWrites).toEqual(['put']);
    h.now += 100;
    const [again] = await h.leaseAll('t');
    expect(again).toMatchObject({ status: 'leased', attempt: 2 });
    await h.ok({ kind: 'ack', tags: [leasedTag(again)] });
    expect(indexWrites).toEqual(['put', 'del']);
    for (const ns of [NS.queue, NS.body, NS.index]) expect(await records(store, ns)).toEqual([]);
  });

  it('a moved lease (earlier versions) and an ack of a one-group message without a key write and end its index without reading it, as the reading path would', async () => {
    const runs = [];
    for (const old of [false, true]) {
      const { store, indexReads } = await countingStore();
      // No record cache: every read reaches the store.
      const h = await Harness.create({ store, cacheEntries: 0 });
      h.leaseInPlace = false;
      h.inlineBodies = false; // body records, as earlier versions wrote
      await h.publish(
        { topic: 't', payload: text('a'), delayMs: 0, ttlMs: 60_000 },
        { topic: 't', payload: text('b'), delayMs: 0 },
      );
      const stored = await records(store, NS.queue);
      expect(stored.map(([, v]) => decodeEntry(v).indexImplied)).toEqual([true, true]);
      expect(stored.map(([, v]) => decodeEntry(v).expireAtMs)).toEqual([T0 + 60_000, 0]);
      if (old) await forgetImplied(store);
      const before = indexReads();
      const leases = await h.leaseAll('t');
      expect(leases.map((l) => l.status)).toEqual(['leased', 'leased']);
      const afterLease = indexReads() - before;
      const indexAfterLease = await records(store, NS.index);
      // Implied: only the moved entry's tag (`encodeMovedIndex`); read: the whole index record.
      expect(indexAfterLease.map(([, v]) => v.length === 25 && v[0] === 0)).toEqual([!old, !old]);
      expect(indexAfterLease.map(([, v]) => hex(movedIndexTag(v) ?? decodeIndex(v).groups[0]!.tag))).toEqual(
        leases.map((l) => hex(leasedTag(l))),
      );
      // Either way GetMessage finds the leased entry through it.
      for (const l of leases) {
        const view = await h.sm.reader.getMessage('t', { id: l.id! }, h.now);
        expect(view?.groups.map((g) => ({ ...g, tag: g.tag && hex(g.tag) }))).toEqual([
          expect.objectContaining({
            group: 'default',
            state: 'in-flight',
            attempt: 1,
            tag: hex(leasedTag(l)),
          }),
        ]);
      }
      const beforeAck = indexReads(); // GetMessage above read the index records
      const acked = await h.ok({
        kind: 'ack',
        tags: leases.map(leasedTag),
      });
      expect(acked.outcomes.map((o) => o.status)).toEqual(['ok', 'ok']);
      runs.push({
        indexReads: [afterLease, indexReads() - beforeAck],
        indexAfterLease,
        digest: await h.digest(),
      });
    }
    const [implied, read] = runs;
    expect(implied!.indexReads).toEqual([0, 0]);
    expect(read!.indexReads[0]).toBeGreaterThanOrEqual(2); // entries written before the field: read
    expect(read!.indexReads[1]).toBeGreaterThanOrEqual(2);
    // The same index records under the same keys, and once acked the same store.
    expect(implied!.indexAfterLease.map(([k]) => k)).toEqual(read!.indexAfterLease.map(([k]) => k));
    expect(implied!.digest).toBe(read!.digest);
  });

  it('a message with a key, or in a topic with two groups, keeps reading its index', async () => {
    const { store, indexReads } = await countingStore();
    const h = await Harness.create({ store, cacheEntries: 0 });
    await h.ok({ kind: 'create-topic', name: 'fan' });
    await h.ok({ kind: 'create-group', topic: 'fan', group: 'g2' });
    await h.publish(
      { topic: 'fan', payload: text('x'), delayMs: 0 },
      { topic: 'k', payload: text('y'), delayMs: 0, key: 'order-1' },
    );
    const entries = (await records(store, NS.queue)).map(([, v]) => decodeEntry(v));
    expect(entries.map((e) => `${e.topic}/${e.group}:${e.indexImplied}`).sort()).toEqual([
      'fan/default:false',
      'fan/g2:false',
      'k/default:false',
    ]);
    for (const [topic, group] of [
      ['fan', 'default'],
      ['fan', 'g2'],
      ['k', 'default'],
    ] as const) {
      const before = indexReads();
      const [lease] = await h.leaseAll(topic, group);
      expect(lease?.status).toBe('leased');
      expect(indexReads() - before).toBeGreaterThan(0);
      await h.ok({ kind: 'ack', tags: [leasedTag(lease)] });
    }
    // Both groups acked: the fan-out message ended; the keyed one stays as a tombstone for its key's window.
    const index = (await records(store, NS.index)).map(([, v]) => decodeIndex(v));
    expect(index.map((x) => `${x.topic}:${x.done}`)).toEqual(['k:true']);
  });
});

describe('a message whose entry never moved', () => {
  it('has no index record; reads, cancel, reschedule and expiry find it through its body', async () => {
    const h = await Harness.create({ cacheEntries: 0 });
    h.inlineBodies = false; // a body record of its own, as earlier versions wrote
    const [a, b, c] = await h.publish(
      { topic: 't', payload: text('a'), delayMs: 5_000 },
      { topic: 't', payload: text('b'), delayMs: 5_000 },
      { topic: 't', payload: text('c'), delayMs: 5_000, ttlMs: 1_000 },
    );
    expect(await records(h.store, NS.index)).toEqual([]);
    const bodies = (await records(h.store, NS.body)).map(([, v]) => v1.StoredMessage.decode(v).indexImplied);
    expect(bodies).toEqual([true, true, true]);

    const view = await h.sm.reader.getMessage('t', { id: a!.id }, h.now);
    expect(view?.groups).toEqual([
      expect.objectContaining({ group: 'default', state: 'pending', dueAtMs: T0 + 5_000, attempt: 0 }),
    ]);
    expect(await h.sm.reader.getMessage('other', { id: a!.id }, h.now)).toBeUndefined();

    const cancelled = await h.ok({ kind: 'cancel', topic: 't', target: { id: a!.id } });
    expect(cancelled.result.status).toBe('cancelled');
    expect(await h.sm.reader.getMessage('t', { id: a!.id }, h.now)).toBeUndefined();

    const moved = await h.ok({ kind: 'reschedule', topic: 't', target: { id: b!.id }, delayMs: 100 });
    expect(moved.result.status).toBe('rescheduled');
    // Moved: now it has an index record, naming its new place (the moved entry's tag).
    const index = (await records(h.store, NS.index)).map(([, v]) => movedIndexTag(v));
    expect(index).toEqual([expect.any(Uint8Array)]);
    expect((await h.sm.reader.getMessage('t', { id: b!.id }, h.now))?.groups[0]?.dueAtMs).toBe(T0 + 100);

    h.now = T0 + 2_000;
    const expired = await h.ok({ kind: 'expire', ids: [c!.id] });
    expect(expired.outcomes).toEqual([{ id: c!.id, status: 'expired' }]);
    expect(await records(h.store, NS.expiry)).toEqual([]);
    expect(await h.stats('t')).toEqual(expect.objectContaining({ pending: 1, inFlight: 0 }));
  });
});

describe('implied index records at the edges', () => {
  it('a topic with a time bucket, a deliver_at in the past: reads, cancel and reschedule derive the bucketed key', async () => {
    const h = await Harness.create({ cacheEntries: 0 });
    await h.ok({ kind: 'create-topic', name: 'b', settings: { timeBucketMs: 1_000 } });
    const [past, later] = await h.publish(
      { topic: 'b', payload: text('past'), deliverAtMs: T0 - 60_000 },
      { topic: 'b', payload: text('later'), delayMs: 5_500 },
    );
    expect(await records(h.store, NS.index)).toEqual([]);
    expect(past!.dueAtMs).toBe(T0);
    const view = await h.sm.reader.getMessage('b', { id: later!.id }, h.now);
    expect(view?.groups[0]).toMatchObject({ state: 'pending', dueAtMs: T0 + 5_500 });
    const moved = await h.ok({ kind: 'reschedule', topic: 'b', target: { id: later!.id }, delayMs: 2_300 });
    expect(moved.result.status).toBe('rescheduled');
    const cancelled = await h.ok({ kind: 'cancel', topic: 'b', target: { id: past!.id } });
    expect(cancelled.result.status).toBe('cancelled');
    h.now = T0 + 3_000;
    const leases = await h.leaseAll('b');
    expect(leases.map((l) => l.status)).toEqual(['leased']);
    expect(await h.stats('b')).toEqual(expect.objectContaining({ pending: 0, inFlight: 1 }));
  });

  it('dead-lettering (max attempts, expiry) and deleting the topic end such messages whole', async () => {
    const h = await Harness.create({ cacheEntries: 0 });
    await h.ok({
      kind: 'create-topic',
      name: 'd',
      settings: { maxAttempts: 1, expiryAction: 'dead-letter' },
    });
    const [once, expiring] = await h.publish(
      { topic: 'd', payload: text('once'), delayMs: 0 },
      { topic: 'd', payload: text('expiring'), delayMs: 60_000, ttlMs: 1_000 },
    );
    // First delivery, lapsed lease, then past max attempts: dead-lettered.
    const [first] = await h.leaseAll('d', 'default', 1_000);
    expect(first?.status).toBe('leased');
    h.now = T0 + 2_000;
    const [second] = await h.leaseAll('d');
    expect(second?.status).toBe('dead-lettered');
    const expired = await h.ok({ kind: 'expire', ids: [expiring!.id] });
    expect(expired.outcomes).toEqual([{ id: expiring!.id, status: 'dead-lettered' }]);
    // Both ended in `d`; their copies wait in `d.dlq` (one group, no key: implied too).
    expect(await h.sm.reader.getMessage('d', { id: once!.id }, h.now)).toBeUndefined();
    expect(await h.sm.reader.getMessage('d', { id: expiring!.id }, h.now)).toBeUndefined();
    expect((await h.stats('d.dlq')).pending).toBe(2);
    expect(await h.deleteTopic('d.dlq')).toBe(2);
    for (const ns of [NS.queue, NS.body, NS.index, NS.expiry]) expect(await records(h.store, ns)).toEqual([]);
  });
});

describe('index records of moved entries written by earlier versions', () => {
  it('the whole MessageIndex an earlier version wrote for a moved implied entry reads as the 25-byte record does', async () => {
    const runs = [];
    for (const cacheEntries of [0, 1_000]) {
      for (const earlier of [false, true]) {
        const h = await Harness.create({ cacheEntries });
        h.leaseInPlace = false; // what earlier versions did
        h.inlineBodies = false;
        const msgs = await h.publish(
          { topic: 't', payload: text('a'), delayMs: 0 },
          { topic: 't', payload: text('b'), delayMs: 0 },
          { topic: 't', payload: text('c'), delayMs: 0, ttlMs: 60_000 },
          { topic: 't', payload: text('d'), delayMs: 0, ttlMs: 1_000 },
        );
        const leases = await h.leaseAll('t');
        expect(leases.map((l) => l.status)).toEqual(['leased', 'leased', 'leased', 'leased']);
        // b and c pending again under new keys: their index records name those.
        for (const l of [leases[1], leases[2]]) await h.ok({ kind: 'nack', tag: leasedTag(l), delayMs: 500 });
        const moved = await records(h.store, NS.index);
        expect(moved.map(([, v]) => movedIndexTag(v) !== undefined)).toEqual([true, true, true, true]);
        if (earlier) {
          // What the previous version stored: the index the body implies, encoded whole.
          const ops = [];
          for (const [k, v] of moved) {
            const tag = movedIndexTag(v)!;
            const entry = (await records(h.store, NS.queue)).find(([q]) => q === `01${hex(tag)}`);
            const rec = impliedIndex(decodeEntry(entry![1]), 'default', tag);
            ops.push({ type: 'put' as const, key: Buffer.from(k, 'hex'), value: encodeIndex(rec) });
          }
          await h.store.batch(ops, { sync: false });
          expect((await records(h.store, NS.index)).map(([, v]) => movedIndexTag(v))).toEqual([
            undefined,
            undefined,
            undefined,
            undefined,
          ]);
        }
        const [a, b, c, d] = msgs;
        const view = await h.sm.reader.getMessage('t', { id: a!.id }, h.now);
        const rescheduled = await h.ok({
          kind: 'reschedule',
          topic: 't',
          target: { id: b!.id },
          delayMs: 100,
        });
        const cancelled = await h.ok({ kind: 'cancel', topic: 't', target: { id: c!.id } });
        h.now = T0 + 2_000;
        const expired = await h.ok({ kind: 'expire', ids: [d!.id] });
        const acked = await h.ok({ kind: 'ack', tags: [leasedTag(leases[0])] });
        runs.push({
          leasedA: hex(leasedTag(leases[0])),
          view: view?.groups.map((g) => ({ ...g, tag: g.tag && hex(g.tag) })),
          outcomes: [rescheduled.result.status, cancelled.result.status, expired.outcomes, acked.outcomes],
          digest: await h.digest(),
        });
      }
    }
    expect(runs[0]!.view).toEqual([
      expect.objectContaining({ state: 'in-flight', attempt: 1, tag: runs[0]!.leasedA }),
    ]);
    expect(runs[0]!.outcomes).toEqual([
      'rescheduled',
      'cancelled',
      [{ id: expect.any(BigInt), status: 'expired' }],
      [expect.objectContaining({ status: 'ok' })],
    ]);
    for (const run of runs.slice(1)) expect(run).toEqual(runs[0]);
  });
});
