/**
 * Publish records (records.proto PublishRecord): for the messages of one
 * command that carry their body in their entry and have no index record (one
 * group, no key), the queue key each was published under, so that a lookup
 * by id finds the entry. Ids are never reused and a command's ids are one
 * block, so the record listing an id is the one with the greatest first id
 * <= it: one reverse seek and one get. A message that moves gets an index
 * record (read first) for the rest of its life, so a record is needed only
 * while one of its messages is still at its published key; the leader's
 * janitor reads which are not (`forgettablePublishes`) and proposes their
 * deletion (ForgetPublishes).
 */
import type { ReadView } from '@fermata/storage';
import { KEY_BYTES } from '../../keys.js';
import {
  decodePublish,
  encodePublish,
  publishCount,
  publishedKey,
  publishLatestDueMs,
} from '../codec/publish.js';
import { NS, readU64, u64 } from '../model/layout.js';
import type { PublishRec } from '../model/records.js';
import type { Txn } from './txn.js';

const recordKey = (firstId: bigint): Uint8Array => NS.publishes.key(u64(firstId));
/** The records whose first id is <= `id`: [namespace start, recordKey(id + 1)). */
const atOrBelow = (id: bigint) => NS.publishes.range(undefined, u64(id + 1n));

/** Orders the keys at `a` and `b` in `keys` by their ids (big-endian bytes 16..24), without making the ids. */
function compareIdsAt(keys: Uint8Array, a: number, b: number): number {
  for (let i = 16; i < KEY_BYTES; i++) {
    if (keys[a + i] !== keys[b + i]) return keys[a + i]! - keys[b + i]!;
  }
  return 0;
}

/** `keys` (24 bytes each) sorted by id, as a new buffer. */
function sortedByIds(keys: Uint8Array): Uint8Array {
  const n = keys.length / KEY_BYTES;
  const order = Array.from({ length: n }, (_, i) => i * KEY_BYTES).sort((a, b) => compareIdsAt(keys, a, b));
  const out = new Uint8Array(keys.length);
  order.forEach((from, i) => {
    out.set(keys.subarray(from, from + KEY_BYTES), i * KEY_BYTES);
  });
  return out;
}

export class PublishStore {
  /** The published keys of the command being applied, as noted: 24 bytes each, in `noted[0, notedBytes)`. */
  private noted = new Uint8Array(KEY_BYTES * 64);
  private notedBytes = 0;
  private latestDueMs = 0;
  /** The Txn generation whose undo step restores `noted` (one step per command, not per message). */
  private notedIn = -1;
  /** The records this batch wrote (or deleted: null), by first id: what a lookup sees before the store. */
  private readonly written = new Map<bigint, PublishRec | null>();

  constructor(private readonly txn: Txn) {}

  /** A command begins: nothing noted. */
  beginCommand(): void {
    this.notedBytes = 0;
    this.latestDueMs = 0;
    this.notedIn = -1;
  }

  /** A message of the command, written under `key` with its body inline and no index record. */
  note(key: Uint8Array, dueAtMs: number): void {
    if (this.notedIn !== this.txn.generation) {
      this.notedIn = this.txn.generation;
      const length = this.notedBytes;
      const latest = this.latestDueMs;
      this.txn.onRollback(() => {
        this.notedBytes = length;
        this.latestDueMs = latest;
        this.notedIn = -1;
      });
    }
    if (this.notedBytes + KEY_BYTES > this.noted.length) {
      const grown = new Uint8Array(this.noted.length * 2);
      grown.set(this.noted.subarray(0, this.notedBytes));
      this.noted = grown;
    }
    this.noted.set(key.subarray(0, KEY_BYTES), this.notedBytes);
    this.notedBytes += KEY_BYTES;
    if (dueAtMs > this.latestDueMs) this.latestDueMs = dueAtMs;
  }

  /** The command applied: its record, keyed by the first id it lists (none when nothing was noted). */
  endCommand(): void {
    const n = this.notedBytes;
    if (n === 0) return;
    const noted = this.noted;
    // Noted in id order unless a command's messages went to their queues out of it.
    let ordered = true;
    for (let at = KEY_BYTES; at < n && ordered; at += KEY_BYTES) {
      ordered = compareIdsAt(noted, at - KEY_BYTES, at) < 0;
    }
    // A copy of its own: the record is kept for lookups in this batch (`written`).
    const keyBytes = ordered ? noted.slice(0, n) : sortedByIds(noted.subarray(0, n));
    this.put({ firstId: readU64(keyBytes, 16), keyBytes, latestDueMs: this.latestDueMs });
    this.notedBytes = 0;
  }

  private put(rec: PublishRec): void {
    this.txn.put(recordKey(rec.firstId), encodePublish(rec));
    this.track(rec.firstId, rec);
  }

  /**
   * Deletes the record of `firstId` unread: the leader found none of its
   * messages at its published key, which stays true (see the file comment).
   */
  forget(firstId: bigint): void {
    this.txn.del(recordKey(firstId));
    this.track(firstId, null);
  }

  private track(firstId: bigint, rec: PublishRec | null): void {
    const had = this.written.has(firstId);
    const before = this.written.get(firstId);
    this.written.set(firstId, rec);
    this.txn.onRollback(() => {
      if (had) this.written.set(firstId, before!);
      else this.written.delete(firstId);
    });
  }

  /**
   * The queue key message `id` was published under, if a publish record
   * lists it (the message may have ended or moved since: the caller reads
   * the entry there and its index record).
   */
  async locate(id: bigint): Promise<Uint8Array | undefined> {
    const noted = this.notedKey(id);
    if (noted) return noted;
    let best: PublishRec | undefined;
    // Records of this batch at or below `id` hide the store's under the same key: skip those.
    let hidden = 0;
    for (const [first, rec] of this.written) {
      if (first > id) continue;
      hidden++;
      if (rec && (!best || first > best.firstId)) best = rec;
    }
    let stored: PublishRec | undefined;
    await this.txn.scanStore({ ...atOrBelow(id), reverse: true, limit: hidden + 1 }, (k, v) => {
      const first = readU64(NS.publishes.strip(k));
      if (this.written.has(first)) return;
      stored = decodePublish(first, v);
      return false;
    });
    if (stored && (!best || stored.firstId > best.firstId)) best = stored;
    return best && publishedKey(best, id);
  }

  /**
   * The key the command being applied noted `id` under (its record is not
   * written yet): an ordered message's placement may look up a front the
   * same command published.
   */
  private notedKey(id: bigint): Uint8Array | undefined {
    const want = u64(id);
    for (let at = this.notedBytes - KEY_BYTES; at >= 0; at -= KEY_BYTES) {
      let same = true;
      for (let i = 0; i < 8 && same; i++) same = this.noted[at + 16 + i] === want[i];
      if (same) return this.noted.slice(at, at + KEY_BYTES);
    }
    return undefined;
  }
}

/** `PublishStore.locate` outside apply, over a store view. */
export async function locatePublished(view: ReadView, id: bigint): Promise<Uint8Array | undefined> {
  let rec: PublishRec | undefined;
  await view.scan({ ...atOrBelow(id), reverse: true, limit: 1 }, (k, v) => {
    rec = decodePublish(readU64(NS.publishes.strip(k)), v);
  });
  return rec && publishedKey(rec, id);
}

/** What the janitor found in one bounded read of the publish records. */
export interface ForgettablePublishes {
  /** Records none of whose messages is at its published key: they may be forgotten. */
  readonly firstIds: bigint[];
  /** Where the next read starts (the first id after the last record read); 0n: from the start again. */
  readonly next: bigint;
  /** Records read, and entry keys read to check them: the cost of the read. */
  readonly recordsRead: number;
  readonly keysRead: number;
}

/** Keys of one record read together: a record still needed is mostly told by its first ones. */
const KEYS_PER_GET = 32;

/**
 * Reads at most `maxRecords` publish records from first id `from` on, and of
 * those whose latest due time is at least `marginMs` past, checks whether any
 * of their messages is still at its published key (at most `maxKeys` keys
 * read; a record that does not fit in what is left ends the read). A record
 * not yet past its margin is passed without decoding its keys, and the check
 * of one stops at its first message still at its key (keys are read
 * KEYS_PER_GET at a time, in id order). The view is the live store: a
 * message found away from its key at any moment has ended or has an index
 * record until it ends, so a record found so stays unneeded however later
 * batches interleave with the reads.
 */
export async function forgettablePublishes(
  view: ReadView,
  options: {
    readonly from: bigint;
    readonly nowMs: number;
    readonly marginMs: number;
    readonly maxRecords: number;
    readonly maxKeys: number;
  },
): Promise<ForgettablePublishes> {
  // A record past its margin, decoded; a record not yet, by its first id only.
  const records: (PublishRec | bigint)[] = [];
  await view.scan({ ...NS.publishes.range(u64(options.from)), limit: options.maxRecords }, (k, v) => {
    const firstId = readU64(NS.publishes.strip(k));
    const past = publishLatestDueMs(v) + options.marginMs <= options.nowMs;
    records.push(past ? decodePublish(firstId, v) : firstId);
  });
  const firstIds: bigint[] = [];
  let keysRead = 0;
  let next = 0n;
  let read = 0;
  for (const rec of records) {
    if (typeof rec === 'bigint') {
      read++;
      next = rec + 1n;
      continue;
    }
    const count = publishCount(rec);
    if (keysRead + count > options.maxKeys && read > 0) break;
    let present = false;
    for (let at = 0; at < count && !present; at += KEYS_PER_GET) {
      const keys: Uint8Array[] = [];
      for (let i = at; i < Math.min(count, at + KEYS_PER_GET); i++) {
        keys.push(NS.queue.key(rec.keyBytes.subarray(i * KEY_BYTES, (i + 1) * KEY_BYTES)));
      }
      const values = view.getMany
        ? await view.getMany(keys)
        : await Promise.all(keys.map((k) => view.get(k)));
      keysRead += keys.length;
      present = values.some((v) => v !== undefined);
    }
    read++;
    next = rec.firstId + 1n;
    if (!present) firstIds.push(rec.firstId);
  }
  // The whole namespace was read from `from` on: the next read starts over.
  if (read === records.length && records.length < options.maxRecords) next = 0n;
  return { firstIds, next, recordsRead: read, keysRead };
}
