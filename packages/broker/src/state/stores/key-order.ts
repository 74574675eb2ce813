/**
 * Per-key ordering in apply (docs/design.md, "Per-key ordering"): of one
 * ordering key's messages in a group, only the *front* is in the queue's due
 * order; the others wait under waiting keys (keys.ts `waitingKey`), listed in
 * due order by their wait records (key-heads.ts). A new message goes in front
 * or behind; the front's end moves the first waiting one up; a reschedule
 * keeps a waiting one waiting. Once leased (attempts counted or a lease
 * holding it) the front is the key's head and keeps its place until it ends,
 * whatever it is due after a nack or a lapse: the dispatcher never sees
 * another message of the key meanwhile.
 */
import { invariant } from '@fermata/base';
import { isWaitingKey, waitingKey } from '../../keys.js';
import {
  effectiveGroupSettings,
  groupDeleting,
  heldView,
  type QueueEntryRec,
  type TopicRec,
} from '../model/records.js';
import { dueBefore, type KeyHeadStore } from './key-heads.js';
import type { LeaseStore } from './leases.js';
import type { MessageStore } from './messages.js';
import type { QueueStore } from './queues.js';

/** What KeyOrder needs of the entry store: where entries go and how they move. */
export interface OrderedEntries {
  get(tag: Uint8Array): Promise<QueueEntryRec | undefined>;
  /** Writes a new entry under its due key (noted due); returns a copy of the key. */
  insertDue(topic: TopicRec, entry: QueueEntryRec): Uint8Array;
  /** Writes a new entry under its waiting key (not noted due). */
  insertWaiting(topic: TopicRec, entry: QueueEntryRec, key: Uint8Array): void;
  /** Moves an entry to `newTag` (its index follows), noting it due when `due`. */
  moveTo(
    topic: TopicRec,
    oldTag: Uint8Array,
    old: QueueEntryRec,
    next: QueueEntryRec,
    newTag: Uint8Array,
    due: boolean,
  ): Promise<void>;
  /** `next`'s due key. */
  tagOf(topic: TopicRec, group: string, dueAtMs: number, id: bigint): Uint8Array;
}

/** Whether a new message of `orderingKey` is ordered in `group` of `topic`. */
export function orderedIn(topic: TopicRec, group: string, orderingKey: string): boolean {
  return orderingKey !== '' && effectiveGroupSettings(topic, group).ordering === 'key';
}

export class KeyOrder {
  constructor(
    private readonly heads: KeyHeadStore,
    private readonly entries: OrderedEntries,
    private readonly messages: MessageStore,
    private readonly queues: QueueStore,
    private readonly leases: LeaseStore,
    private readonly frontSwaps = true,
  ) {}

  /**
   * Writes a new ordered entry where it belongs: in front when its key has
   * none; in front, the old front moved to wait, when that one was never
   * leased and is due after it; else waiting. Returns its key (a copy).
   */
  async place(topic: TopicRec, entry: QueueEntryRec): Promise<Uint8Array> {
    const q = this.queues.hash(topic.name, entry.group);
    const k = entry.orderingKey;
    const head = await this.heads.head(q, k);
    if (head) {
      // Due at or after the front's due time as its head keeps it: it waits, whether the front was
      // leased or not (a front never leased is due then), and the front is not read.
      const frontDue = head.frontDueAtMs;
      const after = frontDue !== undefined && !dueBefore(entry, { dueAtMs: frontDue, id: head.front });
      const front = after ? undefined : await this.frontOf(topic, entry.group, head.front);
      if (!front || front.delivered || !dueBefore(entry, front.entry) || !this.frontSwaps) {
        const key = waitingKey(q, entry.id);
        this.entries.insertWaiting(topic, entry, key);
        await this.heads.putWait(q, k, entry);
        return key;
      }
      await this.toWaiting(topic, q, front.tag, front.entry);
    }
    await this.heads.setFront(q, k, entry);
    return this.entries.insertDue(topic, entry);
  }

  /**
   * The entry under `tag` (keyed) left its queue: a waiting one takes its
   * wait record with it; the front makes the first waiting one the front
   * (or, with none, the key has no front). A group being deleted moves
   * nothing up: its purge removes every entry, and an entry moved behind
   * its cursor would outlive it.
   */
  async ended(topic: TopicRec, tag: Uint8Array, entry: QueueEntryRec): Promise<void> {
    const q = this.queues.hash(topic.name, entry.group);
    const k = entry.orderingKey;
    if (isWaitingKey(tag)) {
      await this.heads.dropWait(q, k, entry);
      return;
    }
    if ((await this.heads.front(q, k)) !== entry.id) return;
    if (groupDeleting(topic, entry.group)) {
      this.heads.dropFront(q, k);
      return;
    }
    await this.moveUp(topic, q, k);
  }

  /**
   * The key's front is over: its first waiting message becomes the front,
   * back under its due key (noted due); with none waiting the key has no
   * front. (Exported for the simulation's injected bug that releases a head
   * at its nack.)
   */
  async moveUp(topic: TopicRec, queueHash: bigint, orderingKey: string): Promise<void> {
    const next = await this.heads.firstWait(queueHash, orderingKey);
    if (!next) {
      this.heads.dropFront(queueHash, orderingKey);
      return;
    }
    await this.fromWaiting(topic, queueHash, next.first.id);
    await this.heads.promote(queueHash, orderingKey, next.first, next.after);
  }

  /**
   * A topic's purge deleted the entry under `tag` (keyed) unread of its
   * message: its key's records go too, unread (every entry of the topic goes).
   */
  purged(queueHash: bigint, tag: Uint8Array, entry: QueueEntryRec): void {
    const k = entry.orderingKey;
    if (isWaitingKey(tag)) this.heads.dropWaitRecord(queueHash, k, entry);
    else this.heads.dropFront(queueHash, k);
  }

  /**
   * Reschedules a keyed entry (pending: no lease runs) to `dueAtMs` as
   * `next`; returns whether it was ordered (false: the caller moves it as any
   * entry). A waiting one keeps waiting under its new due time, unless it is
   * now before a front never leased: then the two swap. The front stays the
   * front; one never leased swaps with the first waiting one when that is
   * now earlier.
   */
  async reschedule(
    topic: TopicRec,
    tag: Uint8Array,
    entry: QueueEntryRec,
    next: QueueEntryRec,
  ): Promise<boolean> {
    const q = this.queues.hash(topic.name, entry.group);
    const k = entry.orderingKey;
    const frontId = await this.heads.front(q, k);
    const waiting = isWaitingKey(tag);
    invariant(
      frontId !== undefined || !waiting,
      () => `message ${entry.id} waits for key "${k}" of ${topic.name}/${entry.group}, which has no front`,
    );
    if (frontId === undefined) return false;
    if (waiting) {
      await this.heads.dropWait(q, k, entry);
      const front = await this.frontOf(topic, entry.group, frontId);
      if (!front.delivered && dueBefore(next, front.entry)) {
        await this.toWaiting(topic, q, front.tag, front.entry);
        await this.heads.setFront(q, k, next);
        await this.entries.moveTo(topic, tag, entry, next, this.dueTag(topic, next), true);
        return true;
      }
      await this.heads.putWait(q, k, next);
      await this.entries.moveTo(topic, tag, entry, next, tag, false);
      return true;
    }
    if (frontId !== entry.id) return false;
    return this.frontAt(topic, q, k, tag, entry, next);
  }

  /**
   * The front, `old` under `tag`, is pending as `next` now (rescheduled, or
   * handed back unleased). Never leased and after the first waiting message,
   * the two swap: `next` waits, that one moves up (true). Else it stays the
   * front and the head keeps its due time (false: the caller moves or keeps
   * its entry).
   */
  private async frontAt(
    topic: TopicRec,
    q: bigint,
    k: string,
    tag: Uint8Array,
    old: QueueEntryRec,
    next: QueueEntryRec,
  ): Promise<boolean> {
    const first = next.attempt === 0 ? (await this.heads.firstWait(q, k))?.first : undefined;
    if (!first || !dueBefore(first, next)) {
      await this.heads.frontRescheduled(q, k, next.dueAtMs);
      return false;
    }
    await this.entries.moveTo(topic, tag, old, next, waitingKey(q, next.id), false);
    await this.heads.putWait(q, k, next);
    await this.fromWaiting(topic, q, first.id);
    await this.heads.promote(q, k, first);
    return true;
  }

  /**
   * The front `entry`, under `tag`, was handed back unleased (a lease not
   * started, or one the leader gave back uncounted), pending at its due time
   * now. Never leased again, it must be the key's earliest: it swaps with the
   * first waiting message when that one is now earlier, else the head keeps
   * its due time. One leased before keeps its place whatever waits.
   */
  async handedBack(topic: TopicRec, tag: Uint8Array, entry: QueueEntryRec): Promise<void> {
    const q = this.queues.hash(topic.name, entry.group);
    const k = entry.orderingKey;
    if (k === '' || (await this.heads.front(q, k)) !== entry.id) return;
    if (entry.attempt > 0 || entry.inFlight) return;
    await this.frontAt(topic, q, k, tag, entry, entry);
  }

  /** The key's front in `group`: its key, its entry as it stands, and whether it was ever leased. */
  private async frontOf(
    topic: TopicRec,
    group: string,
    id: bigint,
  ): Promise<{ tag: Uint8Array; entry: QueueEntryRec; delivered: boolean }> {
    const index = await this.messages.getIndex(id);
    const ref = index?.groups.find((g) => g.group === group && g.outcome === 'live');
    invariant(ref, () => `the front ${id} of a key of ${topic.name}/${group} has no live entry`);
    const stored = await this.entries.get(ref.tag);
    invariant(stored?.id === id, () => `the front ${id} of a key of ${topic.name}/${group} is missing`);
    const hold = this.leases.holder(ref.tag);
    const entry = hold ? heldView(stored, hold) : stored;
    return { tag: ref.tag, entry, delivered: entry.attempt > 0 || entry.inFlight };
  }

  /** The front, never leased, moves to wait: under its waiting key, with its wait record. */
  private async toWaiting(topic: TopicRec, q: bigint, tag: Uint8Array, front: QueueEntryRec): Promise<void> {
    await this.entries.moveTo(topic, tag, front, front, waitingKey(q, front.id), false);
    await this.heads.putWait(q, front.orderingKey, front);
  }

  /** The waiting message `id` moves up: back to its due key (noted due), its wait record gone. */
  private async fromWaiting(topic: TopicRec, q: bigint, id: bigint): Promise<void> {
    const key = waitingKey(q, id);
    const w = await this.entries.get(key);
    invariant(w, () => `a key of ${topic.name} lists waiting message ${id}, which has no waiting entry`);
    await this.heads.dropWait(q, w.orderingKey, w);
    await this.entries.moveTo(topic, key, w, w, this.dueTag(topic, w), true);
  }

  private dueTag(topic: TopicRec, e: QueueEntryRec): Uint8Array {
    return this.entries.tagOf(topic, e.group, e.dueAtMs, e.id);
  }
}
