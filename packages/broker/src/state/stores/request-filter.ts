import type { ReadView } from '@fermata/storage';
import { NS, readU64, requestSuffix } from '../model/layout.js';

/** Records are grouped by the minute their dedup window ends, or by a sixteenth of a longer window. */
const MIN_BUCKET_MS = 60_000;
const BUCKETS_PER_WINDOW = 16;
/** The first Bloom filter of a bucket: 2^17 bits (16 KiB), for 8,192 keys at 16 bits each. */
const FIRST_BITS_LOG2 = 17;
/** Later filters double, up to 2^23 bits (1 MiB). */
const MAX_BITS_LOG2 = 23;
const BITS_PER_KEY = 16;
/**
 * Probes per key: about 0.05% false positives per full filter at 16 bits per
 * key, so that the ~20 filters of a 10-minute window still miss ~1%.
 */
const PROBES = 11;

/**
 * Which publish idempotency keys may have a request record in the store, so
 * that a publish under a new key (nearly every publish) reads nothing.
 *
 * Why not read: a read for a key LevelDB does not hold consults every level
 * whose key range covers it, and LevelDB charges such a read to the first table
 * it consulted; after about one read per 16 KiB of a table it compacts that
 * table into the next level ("seek compaction"). A memtable flush covers every
 * namespace, so at a few hundred publish requests a second each new table was
 * compacted within a fraction of a second, rewriting the next level each time:
 * a quarter of the machine's CPU in the `publish` benchmark.
 *
 * Exactness: `mayHave` answers false only for a key with no request record in
 * the store, expired or not, because apply's outcome must not depend on this
 * node-local answer (an expired record is still forgotten by the publish that
 * reuses its key). Records are grouped by when their window ends (per minute,
 * or per sixteenth of a longer window); each group counts its records and is
 * dropped when its last record is forgotten.
 * Keys are hashed as the UTF-8 bytes the store keys them by: two strings with
 * the same encoding are one record, and a key read back from the store may
 * decode to another string than the one written (a leading U+FEFF).
 * Until `build` has run, and after a batch whose effects on the counts are not
 * known (`invalidate`), every key may have a record.
 */
export class RequestFilter {
  private readonly buckets = new Map<number, Bucket>();
  private exact = false;
  private readonly bucketMs: number;

  /** `windowMs`: limits.publishDedupWindowMs (sizes the groups). */
  constructor(windowMs: number) {
    this.bucketMs = Math.max(MIN_BUCKET_MS, Math.ceil(windowMs / BUCKETS_PER_WINDOW));
  }

  /** Loads every request record's key from the store (the request-window index). */
  async build(view: ReadView): Promise<void> {
    this.invalidate();
    await view.scan(NS.requestWindow.range(), (k) => {
      const s = NS.requestWindow.strip(k);
      this.addBytes(s.subarray(8), Number(readU64(s, 0)));
    });
    this.exact = true;
  }

  /** Every key may have a record until the next `build`. */
  invalidate(): void {
    this.exact = false;
    this.buckets.clear();
  }

  mayHave(idempotencyKey: string): boolean {
    if (!this.exact) return true;
    const [h1, h2] = hashes(requestSuffix(idempotencyKey));
    for (const bucket of this.buckets.values())
      for (const filter of bucket.filters) if (filter.has(h1, h2)) return true;
    return false;
  }

  /** A record for `idempotencyKey` whose window ends at `windowEndMs` was written. */
  add(idempotencyKey: string, windowEndMs: number): void {
    this.addBytes(requestSuffix(idempotencyKey), windowEndMs);
  }

  private addBytes(key: Uint8Array, windowEndMs: number): void {
    const b = this.bucketOf(windowEndMs);
    let bucket = this.buckets.get(b);
    if (!bucket) {
      bucket = { records: 0, filters: [] };
      this.buckets.set(b, bucket);
    }
    let filter = bucket.filters.at(-1);
    if (!filter || filter.full()) {
      const log2 = Math.min(FIRST_BITS_LOG2 + bucket.filters.length, MAX_BITS_LOG2);
      filter = new Bloom(log2);
      bucket.filters.push(filter);
    }
    const [h1, h2] = hashes(key);
    filter.add(h1, h2);
    bucket.records++;
  }

  /** The record whose window ends at `windowEndMs` was deleted. */
  forgotten(windowEndMs: number): void {
    const b = this.bucketOf(windowEndMs);
    const bucket = this.buckets.get(b);
    if (!bucket) return;
    if (--bucket.records <= 0) this.buckets.delete(b);
  }

  private bucketOf(windowEndMs: number): number {
    return Math.floor(windowEndMs / this.bucketMs);
  }

  /** For tests and stats: live buckets and the bytes their filters hold. */
  stats(): { exact: boolean; buckets: number; records: number; bytes: number } {
    let records = 0;
    let bytes = 0;
    for (const bucket of this.buckets.values()) {
      records += bucket.records;
      for (const f of bucket.filters) bytes += f.bytes();
    }
    return { exact: this.exact, buckets: this.buckets.size, records, bytes };
  }
}

interface Bucket {
  /** Request records in the store whose window ends in this bucket's span. */
  records: number;
  filters: Bloom[];
}

class Bloom {
  private readonly words: Uint32Array;
  private readonly mask: number;
  private readonly capacity: number;
  private keys = 0;

  constructor(bitsLog2: number) {
    this.words = new Uint32Array(2 ** (bitsLog2 - 5));
    this.mask = 2 ** bitsLog2 - 1;
    this.capacity = Math.floor(2 ** bitsLog2 / BITS_PER_KEY);
  }

  full(): boolean {
    return this.keys >= this.capacity;
  }

  bytes(): number {
    return this.words.byteLength;
  }

  add(h1: number, h2: number): void {
    for (let i = 0, h = h1; i < PROBES; i++, h = (h + h2) >>> 0) {
      const bit = h & this.mask;
      this.words[bit >>> 5]! |= 1 << (bit & 31);
    }
    this.keys++;
  }

  has(h1: number, h2: number): boolean {
    for (let i = 0, h = h1; i < PROBES; i++, h = (h + h2) >>> 0) {
      const bit = h & this.mask;
      if ((this.words[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }
}

const pair: [number, number] = [0, 0];

/** Two 32-bit hashes of a key's bytes (FNV-1a, then murmur3's finalizer on two seeds). */
function hashes(key: Uint8Array): [number, number] {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key[i]!, 0x01000193);
  pair[0] = fmix(h ^ 0x9e3779b9);
  // An odd step visits distinct bits for every probe.
  pair[1] = fmix(h ^ 0x85ebca6b) | 1;
  return pair;
}

function fmix(x: number): number {
  let h = x;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
