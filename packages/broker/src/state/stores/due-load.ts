/**
 * The due-load histogram (docs/design.md, "Due-load forecast"): per queue,
 * its pending entries counted by due time at every level of
 * `DUE_LOAD_LEVEL_MS`, one record per non-empty bucket, keyed
 * `queueHash (8) | level (1) | bucket start ms (8)` -> count (uint64 BE).
 * The entry store reports each change of an entry's pending state with its
 * due time (`moved`); the changes of a command are summed in memory and
 * written when it ends (`flush`), a record read and rewritten (or deleted at
 * 0) per bucket they touch, so its work counts in the command's bound.
 * `scanDueLoad` reads a level over a view.
 */

import { invariant } from '@fermata/base';
import { type ReadView, slabBytes } from '@fermata/storage';
import { DUE_LOAD_LEVEL_MS, levelBucketMs } from '../model/due-load.js';
import { NS } from '../model/layout.js';
import type { Txn } from './txn.js';

const TWO_32 = 2 ** 32;
const KEY_BYTES = 18;

/**
 * The stored key of a bucket of queue `hash` at `level` starting at
 * `startMs`: a slab view (storage's slab.ts), for the write or read at hand.
 */
function bucketKey(hash: bigint, level: number, startMs: number): Uint8Array {
  const key = slabBytes(KEY_BYTES);
  const view = new DataView(key.buffer, key.byteOffset, KEY_BYTES);
  key[0] = NS.dueLoad.prefix;
  view.setBigUint64(1, hash);
  key[9] = level;
  view.setUint32(10, Math.floor(startMs / TWO_32));
  view.setUint32(14, startMs >>> 0);
  return key;
}

/** A stored count (uint64 BE, far below 2^53). */
function readCount(bytes: Uint8Array, offset = 0): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, 8);
  return view.getUint32(0) * TWO_32 + view.getUint32(4);
}

function encodeCount(count: number): Uint8Array {
  const out = slabBytes(8);
  const view = new DataView(out.buffer, out.byteOffset, 8);
  view.setUint32(0, Math.floor(count / TWO_32));
  view.setUint32(4, count >>> 0);
  return out;
}

export class DueLoadStore {
  /** The command's changes, in order: queue, due second, +1 or -1 (undone by truncation). */
  private readonly hashes: bigint[] = [];
  private readonly seconds: number[] = [];
  private readonly deltas: number[] = [];
  /** The Txn generation whose undo step truncates the log to where it was (one step per generation). */
  private undoIn = -1;

  constructor(
    private readonly txn: Txn,
    /** Whether a queue keeps a histogram (QueueStore.keepsDueLoad). */
    private readonly keepsDueLoad: (hash: bigint) => Promise<boolean>,
  ) {}

  /**
   * A pending entry of queue `hash` stopped being pending at `fromDueMs`
   * and/or became pending at `toDueMs` (undefined: not pending on that side).
   */
  moved(hash: bigint, fromDueMs: number | undefined, toDueMs: number | undefined): void {
    if (fromDueMs === toDueMs) return;
    if (this.undoIn !== this.txn.generation) {
      this.undoIn = this.txn.generation;
      const length = this.deltas.length;
      this.txn.onRollback(() => {
        this.hashes.length = length;
        this.seconds.length = length;
        this.deltas.length = length;
      });
    }
    if (fromDueMs !== undefined) this.log(hash, fromDueMs, -1);
    if (toDueMs !== undefined) this.log(hash, toDueMs, 1);
  }

  private log(hash: bigint, dueAtMs: number, delta: number): void {
    this.hashes.push(hash);
    this.seconds.push(levelBucketMs(0, dueAtMs));
    this.deltas.push(delta);
  }

  /**
   * Writes the command's changes: every bucket they touch at every level,
   * read (one multi-get) and rewritten, deleted when it reaches 0. A queue of
   * an earlier version (no histogram: `QueueRec.dueLoad` false) is left alone.
   */
  async flush(): Promise<void> {
    if (this.deltas.length === 0) return;
    // Per queue and level, the net change per bucket.
    const sums = new Map<bigint, Map<number, number>[]>();
    for (let i = 0; i < this.deltas.length; i++) {
      let levels = sums.get(this.hashes[i]!);
      if (!levels) {
        levels = DUE_LOAD_LEVEL_MS.map(() => new Map<number, number>());
        sums.set(this.hashes[i]!, levels);
      }
      for (let level = 0; level < levels.length; level++) {
        const start = levelBucketMs(level, this.seconds[i]!);
        levels[level]!.set(start, (levels[level]!.get(start) ?? 0) + this.deltas[i]!);
      }
    }
    this.hashes.length = 0;
    this.seconds.length = 0;
    this.deltas.length = 0;
    const keys: Uint8Array[] = [];
    const deltas: number[] = [];
    for (const [hash, levels] of sums) {
      if (!(await this.keepsDueLoad(hash))) continue;
      for (let level = 0; level < levels.length; level++) {
        for (const [start, d] of levels[level]!) {
          if (d === 0) continue;
          keys.push(bucketKey(hash, level, start));
          deltas.push(d);
        }
      }
    }
    if (keys.length === 0) return;
    const { values } = await this.txn.getMany(keys);
    for (let i = 0; i < keys.length; i++) {
      const raw = values[i];
      const count = (raw ? readCount(raw) : 0) + deltas[i]!;
      invariant(
        count >= 0,
        () => `due-load bucket counted below 0`,
        () => ({ key: Buffer.from(keys[i]!).toString('hex'), count }),
      );
      if (count === 0) this.txn.del(keys[i]!);
      else this.txn.put(keys[i]!, encodeCount(count));
    }
  }
}

/**
 * The non-empty buckets of queue `hash` at `level` whose start lies in
 * [fromMs, toMs), in time order: `visit(startMs, count)`. Reads one record
 * per non-empty bucket, no more.
 */
export async function scanDueLoad(
  view: ReadView,
  hash: bigint,
  level: number,
  fromMs: number,
  toMs: number,
  visit: (startMs: number, count: number) => void,
): Promise<void> {
  const gte = bucketKey(hash, level, fromMs).slice();
  const lt = bucketKey(hash, level, toMs).slice();
  await view.scan({ gte, lt }, (key, value) => {
    visit(readCount(key, 10), readCount(value));
  });
}
