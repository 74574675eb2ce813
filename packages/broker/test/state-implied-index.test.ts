import { type KVStore, openStore } from '@fermata/storage';
import { describe, expect, it } from 'vitest';
import { NS } from '../src/state/layout.js';
import { decodeEntry, decodeIndex, encodeEntry } from '../src/state/records.js';
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

describe('index records implied by the queue entry', () => {
  it('a lease and an ack of a one-group message without a key write and end its index without reading it, as the reading path would', async () => {
    const runs = [];
    for (const old of [false, true]) {
      const { store, indexReads } = await countingStore();
      // No record cache: every read reaches the store.
      const h = await Harness.create({ store, cacheEntries: 0 });
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
      const hex = (b: Uint8Array | undefined) => Buffer.from(b ?? []).toString('hex');
      expect(indexAfterLease.map(([, v]) => hex(decodeIndex(v).groups[0]!.tag))).toEqual(
        leases.map((l) => hex(l.status === 'leased' ? l.newTag : undefined)),
      );
      const acked = await h.ok({
        kind: 'ack',
        tags: leases.map((l) => (l.status === 'leased' ? l.newTag : new Uint8Array(0))),
      });
      expect(acked.outcomes.map((o) => o.status)).toEqual(['ok', 'ok']);
      runs.push({
        indexReads: [afterLease, indexReads() - before - afterLease],
        indexAfterLease,
        digest: await h.digest(),
      });
    }
    const [implied, read] = runs;
    expect(implied!.indexReads).toEqual([0, 0]);
    expect(read!.indexReads[0]).toBeGreaterThanOrEqual(2); // entries written before the field: read
    expect(read!.indexReads[1]).toBeGreaterThanOrEqual(2);
    // The same index records, byte for byte, and once acked the same store.
    expect(implied!.indexAfterLease).toEqual(read!.indexAfterLease);
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
      await h.ok({ kind: 'ack', tags: [lease!.status === 'leased' ? lease!.newTag : new Uint8Array(0)] });
    }
    // Both groups acked: the fan-out message ended; the keyed one stays as a tombstone for its key's window.
    const index = (await records(store, NS.index)).map(([, v]) => decodeIndex(v));
    expect(index.map((x) => `${x.topic}:${x.done}`)).toEqual(['k:true']);
  });
});
