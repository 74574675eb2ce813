import { type LevelStore, Namespace, openStore } from '@fermata/storage';
import { describe, expect, it } from 'vitest';
import {
  createQueueHasher,
  decodeKey,
  dueField,
  dueUpperBound,
  encodeKey,
  encodeKeyMs,
  KEY_BYTES,
  keyAfter,
  leaseTag,
  queueLowerBound,
  queueName,
  queueUpperBound,
  TAG_BYTES,
  tagEntryKey,
  tagLease,
} from '../src/keys.js';

const U64_MAX = (1n << 64n) - 1n;

// A small deterministic generator (mulberry32) so failures replay.
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const randU64 = (r: () => number) =>
  (BigInt(Math.floor(r() * 2 ** 32)) << 32n) | BigInt(Math.floor(r() * 2 ** 32));

describe('queue keys', () => {
  it('encode to 24 bytes and decode back', () => {
    const key = encodeKey(0x0102030405060708n, 1_700_000_000_123n, 42n);
    expect(key.length).toBe(KEY_BYTES);
    expect(Buffer.from(key).toString('hex')).toBe(
      '0102030405060708' + '0000018bcfe5687b' + '000000000000002a',
    );
    expect(decodeKey(key)).toEqual({ queueHash: 0x0102030405060708n, due: 1_700_000_000_123n, id: 42n });
  });

  it('sort as bytes exactly as (queue, due, id) sort as numbers', () => {
    const r = rng(7);
    const tuples = Array.from({ length: 2000 }, () => {
      // Few distinct queues and dues so ties on the leading fields are common.
      const q = [0n, 1n, U64_MAX, randU64(r)][Math.floor(r() * 4)]!;
      const due = [0n, 255n, 256n, U64_MAX, randU64(r)][Math.floor(r() * 5)]!;
      return { queueHash: q, due, id: randU64(r) };
    });
    const byNumbers = [...tuples].sort((a, b) =>
      a.queueHash !== b.queueHash
        ? a.queueHash < b.queueHash
          ? -1
          : 1
        : a.due !== b.due
          ? a.due < b.due
            ? -1
            : 1
          : a.id < b.id
            ? -1
            : a.id > b.id
              ? 1
              : 0,
    );
    const byBytes = tuples
      .map((t) => encodeKey(t.queueHash, t.due, t.id))
      .sort((a, b) => Buffer.compare(a, b))
      .map(decodeKey);
    expect(byBytes).toEqual(byNumbers);
  });

  it('refuse values outside uint64 and keys of the wrong length, naming the field', () => {
    expect(() => encodeKey(-1n, 0n, 0n)).toThrow(/queueHash/);
    expect(() => encodeKey(0n, 1n << 64n, 0n)).toThrow(/due/);
    expect(() => encodeKey(0n, 0n, -5n)).toThrow(/eventId/);
    expect(() => decodeKey(new Uint8Array(23))).toThrow(/24 bytes, got 23/);
  });

  it('name the default group by the topic and other groups by topic NUL group', () => {
    expect(queueName('orders')).toBe('orders');
    expect(queueName('orders', 'default')).toBe('orders');
    expect(queueName('orders', 'billing')).toBe('orders\u0000billing');
  });

  it('hash queue names with xxhash64', async () => {
    const hash = await createQueueHasher();
    // Published reference values of XXH64 with seed 0.
    expect(hash('a')).toBe(0xd24ec4f1a98c6e5bn);
    expect(hash('orders')).not.toBe(hash('orders\u0000billing'));
    expect(hash('')).toBe(0xef46db3751d8e999n);
  });

  it('encodeKeyMs writes what encodeKey writes for the due field of a time in ms', () => {
    const r = rng(5);
    for (let i = 0; i < 2_000; i++) {
      const hash = BigInt.asUintN(64, BigInt(Math.floor(r() * 2 ** 53)) * 4_099n);
      const id = BigInt(Math.floor(r() * 2 ** 53));
      const dueMs =
        [0, -5, 1, 2 ** 32 - 1, 2 ** 32, 1_700_000_000_123, Number.MAX_SAFE_INTEGER - 2][i % 7]! + (i % 3);
      const bucket = [0, 1, 1_000, 7][i % 4]!;
      const want = encodeKey(hash, dueField(BigInt(dueMs), BigInt(bucket)), id);
      expect(Buffer.from(encodeKeyMs(hash, dueMs, bucket, id)).toString('hex')).toBe(
        Buffer.from(want).toString('hex'),
      );
    }
    expect(() => encodeKeyMs(1n, 1.5, 0, 1n)).toThrow(/safe integer/);
    expect(() => encodeKeyMs(1n, 1, -1, 1n)).toThrow(/timeBucketMs/);
    expect(() => encodeKeyMs(1n, 1, 0, -1n)).toThrow(/eventId/);
  });

  it('coarsen the due field with timeBucketMs and keep exact ms by default', () => {
    expect(dueField(12_345n)).toBe(12_345n);
    expect(dueField(12_345n, 1000n)).toBe(12n);
    expect(dueField(12_999n, 1000n)).toBe(12n);
    expect(dueField(-5n)).toBe(0n);
    expect(() => dueField(1n, -1n)).toThrow(/timeBucketMs/);
  });
});

describe('delivery tags', () => {
  it('a lease-in-place tag is the key then the lease number, big-endian; a 24-byte tag is a moved lease', () => {
    const key = encodeKey(0x0102030405060708n, 1_700_000_000_000n, 42n);
    for (const attempt of [0, 1, 255, 256, 65_536, 2 ** 31, 2 ** 32 - 1]) {
      const tag = leaseTag(key, attempt);
      expect(tag.length).toBe(TAG_BYTES);
      expect(Buffer.from(tagEntryKey(tag)).equals(Buffer.from(key))).toBe(true);
      expect(tagLease(tag)).toBe(attempt);
      expect(Buffer.from(tag.subarray(KEY_BYTES)).readUInt32BE(0)).toBe(attempt);
    }
    expect(tagLease(key)).toBeUndefined();
    expect(tagEntryKey(key)).toBe(key);
  });

  it('keyAfter is the next key in byte order (the id plus one, carrying), and copies even a Buffer', () => {
    const k = Buffer.from(encodeKey(7n, 100n, 0xffn));
    const next = keyAfter(k);
    expect(decodeKey(next)).toEqual({ queueHash: 7n, due: 100n, id: 0x100n });
    expect(decodeKey(k).id).toBe(0xffn); // the Buffer it came from is untouched
    expect(decodeKey(keyAfter(encodeKey(7n, 100n, U64_MAX)))).toEqual({ queueHash: 7n, due: 101n, id: 0n });
    expect(Buffer.compare(next, k)).toBe(1);
  });
});

describe('range bounds over a real store', () => {
  const ns = new Namespace(1, 'queues');

  async function fill(store: LevelStore, queues: bigint[], dues: bigint[]): Promise<void> {
    const ops = [];
    let id = 1n;
    for (const q of queues)
      for (const d of dues) ops.push(ns.put(encodeKey(q, d, id++), new Uint8Array([1])));
    await store.batch(ops, { sync: false });
  }

  async function dueIn(store: LevelStore, q: bigint, now: bigint, bucket = 0n) {
    const found: Array<{ queueHash: bigint; due: bigint }> = [];
    const upper = dueUpperBound(q, now, bucket);
    await store.scan(ns.range(queueLowerBound(q), upper), (k) => {
      const { queueHash, due } = decodeKey(ns.strip(k));
      found.push({ queueHash, due });
    });
    return found;
  }

  it('a due-range scan returns exactly the due entries of one queue, none of its neighbours', async () => {
    const store = await openStore({ engine: 'memory' });
    const queues = [0n, 1n, 2n, U64_MAX - 1n, U64_MAX];
    await fill(store, queues, [0n, 99n, 100n, 101n, U64_MAX]);
    for (const q of queues) {
      const found = await dueIn(store, q, 100n);
      expect(found.map((f) => f.queueHash)).toEqual([q, q, q]);
      expect(found.map((f) => f.due)).toEqual([0n, 99n, 100n]);
    }
    // A queue hash of all 0xff bytes: the whole queue is bounded by the namespace end.
    expect(queueUpperBound(U64_MAX)).toBeUndefined();
    const all: bigint[] = [];
    await store.scan(ns.range(queueLowerBound(U64_MAX), queueUpperBound(U64_MAX)), (k) => {
      all.push(decodeKey(ns.strip(k)).due);
    });
    expect(all).toEqual([0n, 99n, 100n, 101n, U64_MAX]);
    // Due "up to the end of time" includes the last entry of that queue and nothing after it.
    expect((await dueIn(store, U64_MAX, U64_MAX)).length).toBe(5);
    await store.close();
  });

  it('with time buckets a scan returns the whole current bucket', async () => {
    const store = await openStore({ engine: 'memory' });
    await fill(store, [5n], [dueField(1_999n, 1000n), dueField(2_000n, 1000n), dueField(2_999n, 1000n)]);
    expect((await dueIn(store, 5n, 1_500n, 1000n)).map((f) => f.due)).toEqual([1n]);
    expect((await dueIn(store, 5n, 2_000n, 1000n)).map((f) => f.due)).toEqual([1n, 2n, 2n]);
    await store.close();
  });
});
