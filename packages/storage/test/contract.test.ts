import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type BatchOp,
  digestStore,
  type EngineName,
  type LevelStore,
  Namespace,
  openStore,
} from '../src/index.js';
import { REUSED_BATCH_MAX_BYTES } from '../src/level-store.js';

const b = (...bytes: number[]) => Uint8Array.from(bytes);
const text = (s: string) => new TextEncoder().encode(s);
const hex = (u: Uint8Array) => Buffer.from(u).toString('hex');
const getHex = async (view: { get(k: Uint8Array): Promise<Uint8Array | undefined> }, key: Uint8Array) => {
  const value = await view.get(key);
  return value === undefined ? undefined : hex(value);
};

async function collect(
  store: LevelStore,
  options: Parameters<LevelStore['scan']>[0] = {},
): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  await store.scan(options, (k, v) => {
    out.push([hex(k), hex(v)]);
  });
  return out;
}

/** Records the reused native batch's writes (classic-level's private chained batch). */
function chainedWrites(store: LevelStore): { made: number; options: unknown[] } {
  const seen = { made: 0, options: [] as unknown[] };
  const db = store.db as unknown as { _chainedBatch(): { _write(o: unknown): Promise<void> } };
  const make = db._chainedBatch.bind(db);
  vi.spyOn(db, '_chainedBatch').mockImplementation(() => {
    seen.made++;
    const batch = make();
    const write = batch._write.bind(batch);
    batch._write = (o) => {
      seen.options.push(o);
      return write(o);
    };
    return batch;
  });
  return seen;
}

for (const engine of ['leveldb', 'memory'] as EngineName[]) {
  describe(`storage contract: ${engine}`, () => {
    let dir: string;
    let store: LevelStore;

    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), 'fermata-storage-'));
      store = await openStore({ engine, path: join(dir, 'db') });
    });
    afterEach(async () => {
      await store.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    });

    it('orders the whole keyspace by unsigned byte, 0x00 first and 0xff last', async () => {
      const keys = [b(0xff), b(0x00), b(0x80), b(0x7f), b(0x00, 0x00), b(0xff, 0xff), b(0x01), b(0xff, 0x00)];
      await store.batch(
        keys.map((key) => ({ type: 'put', key, value: b(1) })),
        { sync: false },
      );
      const seen = (await collect(store)).map(([k]) => k);
      expect(seen).toEqual(['00', '0000', '01', '7f', '80', 'ff', 'ff00', 'ffff']);
    });

    it('includes the lower bound and excludes the upper bound', async () => {
      await store.batch(
        [1, 2, 3, 4].map((i) => ({ type: 'put', key: b(i), value: b(i) })),
        { sync: false },
      );
      expect((await collect(store, { gte: b(2), lt: b(4) })).map(([k]) => k)).toEqual(['02', '03']);
      expect((await collect(store, { gte: b(2), lt: b(2) })).length).toBe(0);
      expect((await collect(store, { gte: b(3), lt: b(2) })).length).toBe(0);
    });

    it('scans in reverse within the same bounds', async () => {
      await store.batch(
        [1, 2, 3, 4].map((i) => ({ type: 'put', key: b(i), value: b(i) })),
        { sync: false },
      );
      expect((await collect(store, { gte: b(1), lt: b(4), reverse: true })).map(([k]) => k)).toEqual([
        '03',
        '02',
        '01',
      ]);
    });

    it('stops at the limit, forward and reverse, and when the visitor returns false', async () => {
      await store.batch(
        Array.from({ length: 3000 }, (_, i) => ({
          type: 'put' as const,
          key: b(i >> 8, i & 0xff),
          value: b(1),
        })),
        { sync: false },
      );
      expect(await store.scan({ limit: 2500 }, () => undefined)).toBe(2500);
      const last = await collect(store, { reverse: true, limit: 2 });
      expect(last.map(([k]) => k)).toEqual(['0bb7', '0bb6']);
      let n = 0;
      expect(await store.scan({}, () => ++n < 10)).toBe(10);
      expect(await store.scan({ limit: 0 }, () => undefined)).toBe(0);
    });

    it('visits the same entries in the same order whatever it reads ahead at first', async () => {
      await store.batch(
        Array.from({ length: 3000 }, (_, i) => ({
          type: 'put' as const,
          key: b(i >> 8, i & 0xff),
          value: b(i & 0xff),
        })),
        { sync: false },
      );
      const all = await collect(store);
      expect(all).toHaveLength(3000);
      for (const firstChunk of [1, 7, 256, 5000]) {
        expect(await collect(store, { firstChunk })).toEqual(all);
        expect(await collect(store, { firstChunk, reverse: true, limit: 1500 })).toEqual(
          all.slice(1500).reverse(),
        );
        let n = 0;
        expect(await store.scan({ firstChunk }, () => ++n < 600)).toBe(600);
      }
    });

    it('reads many keys in one call, in key order given, undefined where absent, snapshots included', async () => {
      await store.batch(
        [
          { type: 'put', key: b(1), value: b(10) },
          { type: 'put', key: b(3), value: b(30) },
        ],
        { sync: false },
      );
      const snap = store.snapshot();
      await store.batch([{ type: 'put', key: b(2), value: b(20) }], { sync: false });
      const live = await store.getMany([b(3), b(2), b(9), b(1)]);
      expect(live.map((v) => (v === undefined ? undefined : hex(v)))).toEqual(['1e', '14', undefined, '0a']);
      const old = await snap.getMany!([b(3), b(2), b(1)]);
      expect(old.map((v) => (v === undefined ? undefined : hex(v)))).toEqual(['1e', undefined, '0a']);
      expect(await store.getMany([])).toEqual([]);
      await snap.close();
    });

    it('reports a missing key as undefined', async () => {
      expect(await store.get(b(9))).toBeUndefined();
      await store.batch([{ type: 'put', key: b(9), value: b() }], { sync: false });
      expect(await getHex(store, b(9))).toBe(hex(b()));
      await store.batch([{ type: 'del', key: b(9) }], { sync: false });
      expect(await store.get(b(9))).toBeUndefined();
    });

    it('applies a batch all-or-nothing: a batch that fails leaves nothing behind', async () => {
      await store.batch([{ type: 'put', key: b(1), value: b(1) }], { sync: false });
      const before = await digestStore(store);
      const bad = [
        { type: 'put', key: b(2), value: b(2) },
        { type: 'del', key: b(1) },
        { type: 'put', key: null, value: b(3) },
      ] as unknown as BatchOp[];
      await expect(store.batch(bad, { sync: true })).rejects.toThrow();
      expect(await digestStore(store)).toBe(before);
      expect(await store.get(b(2))).toBeUndefined();
      expect(await getHex(store, b(1))).toBe(hex(b(1)));
    });

    it('never shows readers half of a batch', async () => {
      const keys = Array.from({ length: 200 }, (_, i) => b(5, i));
      const writes = (v: number) => keys.map((key) => ({ type: 'put' as const, key, value: b(v) }));
      await store.batch(writes(0), { sync: false });
      for (let round = 1; round <= 20; round++) {
        const pending = store.batch(writes(round), { sync: false });
        const values = new Set<number>();
        await store.scan({ gte: b(5), lt: b(6) }, (_k, v) => {
          values.add(v[0]!);
        });
        await pending;
        expect(values.size).toBe(1);
      }
    });

    it('scan slices may be reused: with checkSlices a kept slice is overwritten, a copy is not', async () => {
      const checked = await openStore({ engine, path: join(dir, 'checked'), checkSlices: true });
      try {
        await checked.batch(
          [
            { type: 'put', key: text('a'), value: text('first') },
            { type: 'put', key: text('b'), value: text('second') },
          ],
          { sync: false },
        );
        const kept: Uint8Array[] = [];
        const copied: Uint8Array[] = [];
        await checked.scan({}, (_k, v) => {
          kept.push(v);
          copied.push(v.slice());
        });
        expect(copied.map((v) => Buffer.from(v).toString())).toEqual(['first', 'second']);
        expect(Buffer.from(kept[0]!).toString()).not.toBe('first');
      } finally {
        await checked.close();
      }
    });

    it('reads a snapshot that later writes do not change', async () => {
      await store.batch([{ type: 'put', key: b(1), value: b(1) }], { sync: false });
      const snap = store.snapshot();
      await store.batch(
        [
          { type: 'put', key: b(1), value: b(2) },
          { type: 'put', key: b(2), value: b(2) },
        ],
        { sync: false },
      );
      expect(await getHex(snap, b(1))).toBe(hex(b(1)));
      expect(await snap.get(b(2))).toBeUndefined();
      let n = 0;
      await snap.scan({}, () => {
        n++;
      });
      expect(n).toBe(1);
      await snap.close();
    });

    it('keeps namespaces apart and writes across them in one batch', async () => {
      const queues = new Namespace(1, 'queues');
      const bodies = new Namespace(2, 'bodies');
      await store.batch(
        [
          queues.put(b(0xff, 0xff), b(1)),
          bodies.put(b(0x00), b(2)),
          queues.put(b(0x00), b(3)),
          { type: 'put', key: b(0x03, 0x01), value: b(4) },
        ],
        { sync: false },
      );
      const inQueues: string[] = [];
      await store.scan(queues.range(), (k) => {
        inQueues.push(hex(queues.strip(k)));
      });
      expect(inQueues).toEqual(['00', 'ffff']);
      const inBodies: string[] = [];
      await store.scan(bodies.range(), (k) => {
        inBodies.push(hex(bodies.strip(k)));
      });
      expect(inBodies).toEqual(['00']);
    });

    it('keeps its own copy of what a batch wrote: changing the arrays given later changes nothing', async () => {
      const key = b(7, 7);
      const value = text('kept');
      await store.batch([{ type: 'put', key, value }], { sync: false });
      key.fill(0);
      value.fill(0);
      expect(await collect(store)).toEqual([['0707', hex(text('kept'))]]);
    });

    it('passes the sync flag to the engine', async () => {
      // memory-level ends in its private `_batch`; the leveldb engine writes its reused native batch.
      const calls: unknown[] = [];
      if (engine === 'leveldb') {
        const writes = chainedWrites(store);
        await store.batch([{ type: 'put', key: b(1), value: b(1) }], { sync: true });
        await store.batch([{ type: 'put', key: b(2), value: b(1) }], { sync: false });
        calls.push(...writes.options);
      } else {
        const spy = vi.spyOn(
          store.db as unknown as { _batch: (...args: unknown[]) => Promise<void> },
          '_batch',
        );
        await store.batch([{ type: 'put', key: b(1), value: b(1) }], { sync: true });
        await store.batch([{ type: 'put', key: b(2), value: b(1) }], { sync: false });
        calls.push(...spy.mock.calls.map((c) => (c as unknown[])[1]));
      }
      expect(calls).toEqual([
        expect.objectContaining({ sync: true }),
        expect.objectContaining({ sync: false }),
      ]);
      expect(store.stats.syncedBatches).toBe(1);
      expect(store.stats.batches).toBe(2);
    });

    if (engine === 'leveldb') {
      it('reuses one native batch, emptied after each write; a write while it is busy, or a big one, takes the array path', async () => {
        const writes = chainedWrites(store);
        const arrays = vi.spyOn(
          store.db as unknown as { _batch: (...args: unknown[]) => Promise<void> },
          '_batch',
        );
        await store.batch([{ type: 'put', key: b(1), value: text('a') }], { sync: false });
        await store.batch([{ type: 'del', key: b(1) }], { sync: false });
        // Had the first write's put stayed in the batch, this write would bring b(1) back.
        await store.batch([{ type: 'put', key: b(2), value: text('b') }], { sync: false });
        expect(await collect(store)).toEqual([['02', hex(text('b'))]]);
        expect(writes.made).toBe(1);
        expect(writes.options).toHaveLength(3);
        expect(arrays).not.toHaveBeenCalled();
        // Two at once: the second does not wait for the reused batch.
        await Promise.all([
          store.batch([{ type: 'put', key: b(3), value: text('c') }], { sync: false }),
          store.batch([{ type: 'put', key: b(4), value: text('d') }], { sync: false }),
        ]);
        expect(arrays).toHaveBeenCalledTimes(1);
        const big = new Uint8Array(REUSED_BATCH_MAX_BYTES);
        await store.batch([{ type: 'put', key: b(5), value: big }], { sync: false });
        expect(arrays).toHaveBeenCalledTimes(2);
        expect(writes.made).toBe(1);
        expect((await collect(store)).map(([k]) => k)).toEqual(['02', '03', '04', '05']);
      });

      it('keeps its data across close and reopen', async () => {
        await store.batch(
          [
            { type: 'put', key: b(1, 2), value: text('kept') },
            { type: 'put', key: b(3), value: text('gone') },
            { type: 'del', key: b(3) },
          ],
          { sync: true },
        );
        const digest = await digestStore(store);
        await store.close();
        store = await openStore({ engine, path: join(dir, 'db') });
        expect(await getHex(store, b(1, 2))).toBe(hex(text('kept')));
        expect(await store.get(b(3))).toBeUndefined();
        expect(await digestStore(store)).toBe(digest);
      });
    } else {
      it('keeps nothing once closed (memory engine)', async () => {
        await store.batch([{ type: 'put', key: b(1), value: b(1) }], { sync: true });
        await store.close();
        store = await openStore({ engine });
        expect(await store.get(b(1))).toBeUndefined();
      });
    }
  });
}

describe('openStore', () => {
  it('names an unknown engine', async () => {
    await expect(openStore({ engine: 'rocks' as EngineName })).rejects.toThrow(
      /unknown storage engine "rocks"/,
    );
  });
  it('needs a path for leveldb', async () => {
    await expect(openStore({ engine: 'leveldb' })).rejects.toThrow(/needs a path/);
  });
});
