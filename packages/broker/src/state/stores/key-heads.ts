/**
 * The records of per-key ordering (docs/design.md, "Per-key ordering"): per
 * queue and ordering key, a head record naming the key's front (the one
 * message of the key in the queue's due order) and a wait record per message
 * waiting behind it, in due order. The rules that change them are
 * key-order.ts; reads outside apply (tests) go through the functions at the
 * end, over a read view.
 */

import { invariant } from '@fermata/base';
import { compareBytes, type ReadView } from '@fermata/storage';
import { tagKeyOf } from '../../keys.js';
import { MAX_NAMED_WAITS } from '../model/key-head-size.js';
import {
  decodeKeyHead,
  EMPTY,
  encodeKeyHead,
  type KeyHeadRec,
  keyHeadSuffix,
  keyWaitOf,
  keyWaitPrefix,
  keyWaitSuffix,
  NS,
} from '../model/layout.js';
import type { Txn } from './txn.js';

/** A message waiting for its key: its due time and id (its entry is under `waitingKey(queue, id)`). */
export interface KeyWait {
  readonly dueAtMs: number;
  readonly id: bigint;
}

/** The wait records' range of one (queue, ordering key). */
function waitRange(queueHash: bigint, orderingKey: string): { gte: Uint8Array; lt: Uint8Array } {
  const prefix = keyWaitPrefix(queueHash, orderingKey);
  // Every suffix of the key's waits is the prefix and 16 more bytes: below the prefix + 0xff x 17.
  const lt = new Uint8Array(prefix.length + 17).fill(0xff);
  lt.set(prefix);
  return NS.keyWaits.range(prefix, lt);
}

/**
 * What one batch did to the wait records of one (queue, ordering key): the
 * waits it wrote or deleted, and how far a seek of the stored ones need not
 * look again.
 */
interface BatchWaits {
  /** Every wait this batch wrote or deleted, by its place (due time and id). */
  readonly written: Set<string>;
  /** Those of them present now: the batch's own candidates for the first wait. */
  readonly present: Map<string, KeyWait>;
  /** Every stored wait record up to this key (inclusive) is in `written`: a seek starts after it. */
  after: Uint8Array | undefined;
  /** The first stored wait after `after` not in `written`, as the last seek found it. */
  next: { readonly id: string; readonly key: Uint8Array } | undefined;
}

export class KeyHeadStore {
  /**
   * Per (queue, ordering key) prefix, what this batch did to its wait
   * records: `firstWait` merges it with a seek of the store alone, rather
   * than with every write of the batch (Txn.scan walks them all).
   */
  private readonly waits = new Map<string, BatchWaits>();
  /** Head record keys built this batch, by queue hash and ordering key (a head is read up to five times an item). */
  private readonly headKeys = new Map<bigint, Map<string, Uint8Array>>();
  /** Head records decoded this batch, by the value the write set or the store answered (never changed in place). */
  private readonly decoded = new WeakMap<Uint8Array, KeyHeadRec>();

  constructor(private readonly txn: Txn) {}

  private headKey(queueHash: bigint, orderingKey: string): Uint8Array {
    let byKey = this.headKeys.get(queueHash);
    if (!byKey) {
      byKey = new Map();
      this.headKeys.set(queueHash, byKey);
    }
    let key = byKey.get(orderingKey);
    if (!key) {
      key = NS.keyHeads.key(keyHeadSuffix(queueHash, orderingKey));
      byKey.set(orderingKey, key);
    }
    return key;
  }

  /** The id of the key's front; undefined when the key has none (no message of it is ordered now). */
  async front(queueHash: bigint, orderingKey: string): Promise<bigint | undefined> {
    return (await this.head(queueHash, orderingKey))?.front;
  }

  /** The key's head record: its front, how many wait, the first of them, and at or below what none does. */
  async head(queueHash: bigint, orderingKey: string): Promise<KeyHeadRec | undefined> {
    const raw = await this.txn.get(this.headKey(queueHash, orderingKey));
    if (!raw) return undefined;
    let head = this.decoded.get(raw);
    if (!head) {
      head = decodeKeyHead(raw);
      this.decoded.set(raw, head);
    }
    return head;
  }

  /** `front` is the key's front now (a key without a head gets one, with nothing waiting). */
  async setFront(queueHash: bigint, orderingKey: string, front: KeyWait): Promise<void> {
    const head = await this.head(queueHash, orderingKey);
    this.write(queueHash, orderingKey, {
      front: front.id,
      waits: head ? head.waits : 0,
      next: head?.next ?? [],
      floor: head?.floor,
      frontDueAtMs: front.dueAtMs,
    });
  }

  /** The key's front, rescheduled, stays the front, due at `dueAtMs` now. */
  async frontRescheduled(queueHash: bigint, orderingKey: string, dueAtMs: number): Promise<void> {
    const head = await this.head(queueHash, orderingKey);
    invariant(head, () => `the front of key "${orderingKey}" is rescheduled, and the key has no head`);
    this.write(queueHash, orderingKey, { ...head, frontDueAtMs: dueAtMs });
  }

  /**
   * The key's first waiting message `first`, its wait record dropped, is the
   * front now: every message still waiting is due after it (the floor), and
   * `after`, the messages the seek that found `first` saw after it, are the
   * first of them (when the head names none).
   */
  async promote(
    queueHash: bigint,
    orderingKey: string,
    first: KeyWait,
    after: readonly KeyWait[] = [],
  ): Promise<void> {
    const head = await this.head(queueHash, orderingKey);
    invariant(head, () => `message ${first.id} moves up to the front of a key with no head`);
    const next = head.next.length > 0 || !head.waits ? head.next : after.slice(0, head.waits);
    this.write(queueHash, orderingKey, {
      front: first.id,
      waits: head.waits,
      next,
      floor: first,
      frontDueAtMs: first.dueAtMs,
    });
  }

  /** The key has no front any more (and so nothing waiting). */
  dropFront(queueHash: bigint, orderingKey: string): void {
    this.txn.del(this.headKey(queueHash, orderingKey));
  }

  private write(queueHash: bigint, orderingKey: string, head: KeyHeadRec): void {
    const value = encodeKeyHead(head);
    // An uncounted head keeps its front alone (8 bytes): cached as a read would decode it.
    this.decoded.set(value, head.waits === undefined ? decodeKeyHead(value) : head);
    this.txn.put(this.headKey(queueHash, orderingKey), value);
  }

  /**
   * The head after a wait record was written (+1) or deleted (-1): its count;
   * the waiting messages it names (one written into an empty key, before the
   * last named, or after them all when they are all, is named in its place,
   * the last dropped past MAX_NAMED_WAITS; one deleted is no longer named);
   * its floor (one written at or below it lowers it away). A head written
   * before counts were kept stays uncounted (its seeks read from the key's
   * start).
   */
  private async count(queueHash: bigint, orderingKey: string, w: KeyWait, delta: 1 | -1): Promise<void> {
    const head = await this.head(queueHash, orderingKey);
    invariant(
      head || delta === -1,
      () => `message ${w.id} waits for key "${orderingKey}", which has no head`,
    );
    if (!head) return; // a deleted group's front went first: its head is gone already
    const waits = head.waits === undefined ? undefined : head.waits + delta;
    invariant(
      waits === undefined || waits >= 0,
      () => `key "${orderingKey}" of front ${head.front} waits -1`,
    );
    if (waits === undefined) return; // uncounted: it holds no first or floor either
    let { next, floor } = head;
    if (delta === 1) {
      const last = next[next.length - 1];
      if (next.length === head.waits || (last && dueBefore(w, last))) {
        const at = next.findIndex((n) => dueBefore(w, n));
        next = at < 0 ? [...next, w] : [...next.slice(0, at), w, ...next.slice(at)];
        if (next.length > MAX_NAMED_WAITS) next = next.slice(0, MAX_NAMED_WAITS);
      }
      if (floor && !dueBefore(floor, w)) floor = undefined;
    } else next = next.filter((n) => n.id !== w.id);
    this.write(queueHash, orderingKey, {
      front: head.front,
      waits,
      next,
      floor,
      frontDueAtMs: head.frontDueAtMs,
    });
  }

  /**
   * The key's earliest waiting message (due time, then id); undefined when
   * none waits. The head names it when it names any; else one seek of the
   * stored wait records, past the floor and after those this batch
   * already moved past: a stored wait this batch deleted or rewrote is
   * skipped there at most once a batch, so a command ending a key's messages
   * one after another moves each next one up in one seek. A seek also
   * answers up to MAX_NAMED_WAITS after it (`after`, in due order; empty when
   * the head named the first), so that moving the first up can name them in
   * the head and the next ones need no seek.
   */
  async firstWait(
    queueHash: bigint,
    orderingKey: string,
  ): Promise<{ first: KeyWait; after: readonly KeyWait[] } | undefined> {
    const head = await this.head(queueHash, orderingKey);
    if (head?.waits === 0) return undefined;
    const named = head?.next[0];
    if (named) return { first: named, after: [] };
    const batch = this.batchOf(queueHash, orderingKey);
    const candidates = [...batch.present.values()];
    const range = waitRange(queueHash, orderingKey);
    // The smallest key after a given one: every wait key is as long as the prefix and 16 bytes.
    let gte = range.gte;
    if (head?.floor)
      gte = successor(
        NS.keyWaits.key(keyWaitSuffix(queueHash, orderingKey, head.floor.dueAtMs, head.floor.id)),
      );
    if (batch.after && compareBytes(batch.after, gte) >= 0) gte = successor(batch.after);
    let after = batch.after;
    let next: BatchWaits['next'];
    let found = 0;
    await this.txn.seekStore({ gte, lt: range.lt, firstChunk: SEEK_WAITS }, (key) => {
      const suffix = NS.keyWaits.strip(key);
      const id = waitId(suffix);
      if (batch.written.has(id)) {
        if (!next) after = key.slice();
        return;
      }
      candidates.push(keyWaitOf(suffix));
      if (!next) next = { id, key: key.slice() };
      return ++found < SEEK_WAITS;
    });
    this.moveCursor(batch, after, next);
    // The batch's own and the first SEEK_WAITS stored not written by it: every wait not among them
    // is after the last of those, so the first SEEK_WAITS of them all are the key's first.
    candidates.sort((a, b) => (dueBefore(a, b) ? -1 : dueBefore(b, a) ? 1 : 0));
    const [first, ...rest] = candidates.slice(0, SEEK_WAITS);
    return first ? { first, after: rest } : undefined;
  }

  async putWait(queueHash: bigint, orderingKey: string, w: KeyWait): Promise<void> {
    const suffix = keyWaitSuffix(queueHash, orderingKey, w.dueAtMs, w.id);
    this.txn.put(NS.keyWaits.key(suffix), EMPTY);
    this.note(queueHash, orderingKey, suffix, w, true);
    await this.count(queueHash, orderingKey, w, 1);
  }

  async dropWait(queueHash: bigint, orderingKey: string, w: KeyWait): Promise<void> {
    this.dropWaitRecord(queueHash, orderingKey, w);
    await this.count(queueHash, orderingKey, w, -1);
  }

  /** A purge's delete: the wait record alone (the purge drops the key's head too, uncounted). */
  dropWaitRecord(queueHash: bigint, orderingKey: string, w: KeyWait): void {
    const suffix = keyWaitSuffix(queueHash, orderingKey, w.dueAtMs, w.id);
    this.txn.del(NS.keyWaits.key(suffix));
    this.note(queueHash, orderingKey, suffix, w, false);
  }

  private note(
    queueHash: bigint,
    orderingKey: string,
    suffix: Uint8Array,
    w: KeyWait,
    present: boolean,
  ): void {
    const batch = this.batchOf(queueHash, orderingKey);
    const id = waitId(suffix);
    const wasWritten = batch.written.has(id);
    const was = batch.present.get(id);
    batch.written.add(id);
    if (present) batch.present.set(id, { dueAtMs: w.dueAtMs, id: w.id });
    else batch.present.delete(id);
    const into = batch;
    this.txn.onRollback(() => {
      if (!wasWritten) into.written.delete(id);
      if (was) into.present.set(id, was);
      else into.present.delete(id);
    });
    // The stored wait the last seek found is written now: the next seek starts after it.
    if (batch.next?.id === id) this.moveCursor(batch, batch.next.key, undefined);
  }

  private batchOf(queueHash: bigint, orderingKey: string): BatchWaits {
    const prefix = tagKeyOf(keyWaitPrefix(queueHash, orderingKey));
    let batch = this.waits.get(prefix);
    if (!batch) {
      batch = { written: new Set(), present: new Map(), after: undefined, next: undefined };
      this.waits.set(prefix, batch);
    }
    return batch;
  }

  /** Moves a key's cursor (undone with the command, as the writes it passed are). */
  private moveCursor(batch: BatchWaits, after: Uint8Array | undefined, next: BatchWaits['next']): void {
    const { after: wasAfter, next: wasNext } = batch;
    if (after === wasAfter && next === wasNext) return;
    batch.after = after;
    batch.next = next;
    this.txn.onRollback(() => {
      batch.after = wasAfter;
      batch.next = wasNext;
    });
  }
}

/** Waits one seek reads: the first and as many as a head names after it. */
const SEEK_WAITS = MAX_NAMED_WAITS + 1;

/** The smallest key after `key` (0 appended). */
const successor = (key: Uint8Array): Uint8Array => Uint8Array.of(...key, 0);

/** A wait's place in the key's order: its due time and id, the last 16 bytes of its key. */
const waitId = (suffix: Uint8Array): string => tagKeyOf(suffix.subarray(suffix.length - 16));

/** Whether `a` comes before `b` in a key's due order: due time, then id. */
export function dueBefore(a: KeyWait, b: KeyWait): boolean {
  return a.dueAtMs < b.dueAtMs || (a.dueAtMs === b.dueAtMs && a.id < b.id);
}

/** A key's head record, read outside apply. */
export async function readKeyHead(
  view: ReadView,
  queueHash: bigint,
  orderingKey: string,
): Promise<KeyHeadRec | undefined> {
  const raw = await view.get(NS.keyHeads.key(keyHeadSuffix(queueHash, orderingKey)));
  return raw ? decodeKeyHead(raw) : undefined;
}

/** A key's front, read outside apply. */
export async function readKeyFront(
  view: ReadView,
  queueHash: bigint,
  orderingKey: string,
): Promise<bigint | undefined> {
  return (await readKeyHead(view, queueHash, orderingKey))?.front;
}

/** A key's waiting messages in due order (at most `limit`), read outside apply. */
export async function readKeyWaits(
  view: ReadView,
  queueHash: bigint,
  orderingKey: string,
  limit: number,
): Promise<KeyWait[]> {
  const out: KeyWait[] = [];
  await view.scan({ ...waitRange(queueHash, orderingKey), limit }, (key) => {
    out.push(keyWaitOf(NS.keyWaits.strip(key)));
  });
  return out;
}

/** How many head and wait records the store holds (tests: a purge leaves none). */
export async function countKeyRecords(view: ReadView): Promise<{ heads: number; waits: number }> {
  let heads = 0;
  let waits = 0;
  await view.scan(NS.keyHeads.range(), () => {
    heads++;
  });
  await view.scan(NS.keyWaits.range(), () => {
    waits++;
  });
  return { heads, waits };
}
