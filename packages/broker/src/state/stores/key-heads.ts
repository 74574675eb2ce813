/**
 * The records of per-key ordering (docs/design.md, "Per-key ordering"): per
 * queue and ordering key, a head record naming the key's front (the one
 * message of the key in the queue's due order) and a wait record per message
 * waiting behind it, in due order. The rules that change them are
 * key-order.ts; reads outside apply (tests, the integrity check) go through
 * the functions at the end, over a read view.
 */
import type { ReadView } from '@fermata/storage';
import { tagKeyOf } from '../../keys.js';
import {
  EMPTY,
  keyHeadSuffix,
  keyWaitOf,
  keyWaitPrefix,
  keyWaitSuffix,
  NS,
  readU64,
  u64,
} from '../model/layout.js';
import type { Txn } from './txn.js';

/** A message waiting for its key: its due time and id (its entry is under `waitingKey(queue, id)`). */
export interface KeyWait {
  readonly dueMs: number;
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

export class KeyHeadStore {
  /**
   * The wait records this batch wrote (true) or deleted (false), per (queue,
   * ordering key) prefix: `firstWait` merges them with a scan of the store
   * alone, rather than with every write of the batch (Txn.scan walks them all).
   */
  private readonly waits = new Map<string, Map<string, { readonly w: KeyWait; readonly present: boolean }>>();

  constructor(private readonly txn: Txn) {}

  /** The id of the key's front; undefined when the key has none (no message of it is ordered now). */
  async front(queueHash: bigint, orderingKey: string): Promise<bigint | undefined> {
    const raw = await this.txn.get(NS.keyHeads.key(keyHeadSuffix(queueHash, orderingKey)));
    return raw ? readU64(raw) : undefined;
  }

  setFront(queueHash: bigint, orderingKey: string, id: bigint): void {
    this.txn.put(NS.keyHeads.key(keyHeadSuffix(queueHash, orderingKey)), u64(id));
  }

  /** The key has no front any more (and so nothing waiting). */
  dropFront(queueHash: bigint, orderingKey: string): void {
    this.txn.del(NS.keyHeads.key(keyHeadSuffix(queueHash, orderingKey)));
  }

  /** The key's earliest waiting message (due time, then id); undefined when none waits. */
  async firstWait(queueHash: bigint, orderingKey: string): Promise<KeyWait | undefined> {
    const written = this.waits.get(tagKeyOf(keyWaitPrefix(queueHash, orderingKey)));
    let best: KeyWait | undefined;
    let hidden = 0;
    for (const { w, present } of written?.values() ?? []) {
      if (!present) hidden++;
      else if (!best || before(w, best)) best = w;
    }
    // Each wait this batch deleted may hide one stored: read that many more.
    let stored: KeyWait | undefined;
    await this.txn.scanStore({ ...waitRange(queueHash, orderingKey), limit: 1 + hidden }, (key) => {
      const suffix = NS.keyWaits.strip(key);
      if (written?.has(waitId(suffix))) return;
      stored = keyWaitOf(suffix);
      return false;
    });
    if (stored && (!best || before(stored, best))) best = stored;
    return best;
  }

  putWait(queueHash: bigint, orderingKey: string, w: KeyWait): void {
    const suffix = keyWaitSuffix(queueHash, orderingKey, w.dueMs, w.id);
    this.txn.put(NS.keyWaits.key(suffix), EMPTY);
    this.note(queueHash, orderingKey, suffix, w, true);
  }

  dropWait(queueHash: bigint, orderingKey: string, w: KeyWait): void {
    const suffix = keyWaitSuffix(queueHash, orderingKey, w.dueMs, w.id);
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
    const prefix = tagKeyOf(keyWaitPrefix(queueHash, orderingKey));
    let written = this.waits.get(prefix);
    if (!written) this.waits.set(prefix, (written = new Map()));
    const id = waitId(suffix);
    const was = written.get(id);
    written.set(id, { w, present });
    const into = written;
    this.txn.onRollback(() => {
      if (was) into.set(id, was);
      else into.delete(id);
    });
  }
}

/** A wait's place in the key's order: its due time and id, the last 16 bytes of its key. */
const waitId = (suffix: Uint8Array): string => tagKeyOf(suffix.subarray(suffix.length - 16));

/** Whether `a` comes before `b` in a key's due order (due time, then id). */
function before(a: KeyWait, b: KeyWait): boolean {
  return a.dueMs < b.dueMs || (a.dueMs === b.dueMs && a.id < b.id);
}

/** A key's front, read outside apply. */
export async function readKeyFront(
  view: ReadView,
  queueHash: bigint,
  orderingKey: string,
): Promise<bigint | undefined> {
  const raw = await view.get(NS.keyHeads.key(keyHeadSuffix(queueHash, orderingKey)));
  return raw ? readU64(raw) : undefined;
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
