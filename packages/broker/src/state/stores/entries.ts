/**
 * Queue entries: the one time index of pending entries, leases and retry
 * backoffs, keyed `queueHash | due | id` (keys.ts); a lease in place keeps the
 * entry under its key and its end in the entry. Every insert, move and return
 * to pending is noted for the dispatcher (`dueChanges`), every lease in place
 * taken or extended too (`lapseChanges`), and every lease taken ahead that is
 * removed or changed before it starts (`withdrawn`); moving or removing an
 * entry keeps its message's index and counters in step. Reads outside
 * apply (the reader) go through the functions at the end, over a read view.
 * Over 400 lines: the batch's entry store and those reads share the layout.
 */
import { type ReadView, type ScanOptions, slabBytes } from '@fermata/storage';
import {
  DEFAULT_GROUP,
  dueField,
  encodeKeyMs,
  KEY_BYTES,
  queueLowerBound,
  queueUpperBound,
} from '../../keys.js';
import { decodeAndKeep, decodedEntry, decodeEntry, encodeEntry } from '../codec/entry.js';
import { EMPTY, NS } from '../model/layout.js';
import {
  type BodyRec,
  deliveryTagOf,
  type GroupOutcome,
  type GroupRef,
  leaseNotStarted,
  maybeOrdered,
  ORDERED_INLINE_PAYLOAD_BYTES,
  type QueueEntryRec,
  type TopicRec,
} from '../model/records.js';
import type { KeyHeadStore } from './key-heads.js';
import { KeyOrder, type OrderedEntries, orderedIn } from './key-order.js';
import type { LeaseStore } from './leases.js';
import type { MessageStore } from './messages.js';
import type { PublishStore } from './publishes.js';
import type { QueueStore } from './queues.js';
import type { CacheFiller } from './record-cache.js';
import type { CommandTime } from './time.js';
import { keyId, type Txn } from './txn.js';

/**
 * New queue entries and index records of a message due later than this are
 * not put in the record cache: by their due time they would long be evicted,
 * and caching them only churns it (the records of messages due soon are read
 * back by the lease and the ack).
 */
export const COLD_AFTER_MS = 60_000;

/** The first byte of every queue entry's stored key (a backup counts them by it). */
export const ENTRY_KEY_PREFIX = NS.queue.prefix;

/**
 * A queue got an entry (new, or moved or made pending: nacked, rescheduled,
 * handed back, or leased or extended by a moved lease) due at `dueAtMs`: its
 * next due time may now be earlier. The dispatcher's heap takes
 * min(current, dueAtMs) for it.
 */
export interface DueChange {
  readonly queueHash: bigint;
  readonly topic: string;
  readonly group: string;
  readonly dueAtMs: number;
  /**
   * True: not an entry coming due but a lease in place ending at `dueAtMs`
   * (taken or extended; the entry stays behind the dispatcher's cursor), the
   * earliest such end in the queue this batch wrote.
   */
  readonly lapse?: boolean;
}

/** What `EntryStore.entriesOf` read: per tag, its key's id, the stored bytes and the decoded entry. */
export interface TagEntries {
  readonly ids: readonly string[];
  readonly raws: readonly (Uint8Array | undefined)[];
  readonly entries: readonly (QueueEntryRec | undefined)[];
}

export class EntryStore implements OrderedEntries {
  /** Per queue, the earliest due time of an entry inserted or moved by this batch. */
  readonly dueChanges = new Map<bigint, DueChange>();
  /** Per queue, the earliest end of a lease in place this batch took or extended. */
  readonly lapseChanges = new Map<bigint, DueChange>();
  /**
   * Tags of leases taken ahead, not yet started, that this batch removed or
   * moved (cancel, reschedule, expiry): the leader must not push them.
   */
  readonly withdrawn: Uint8Array[] = [];

  /** Per-key ordering (key-order.ts): where an ordered message's entry goes, and what its end moves up. */
  readonly order: KeyOrder;

  constructor(
    private readonly txn: Txn,
    private readonly queues: QueueStore,
    private readonly messages: MessageStore,
    private readonly time: CommandTime,
    private readonly publishes: PublishStore,
    heads: KeyHeadStore,
    leases: LeaseStore,
    /** False only in the simulation's injected bug `ordering-no-swap`. */
    frontSwaps = true,
  ) {
    this.order = new KeyOrder(heads, this, messages, queues, leases, frontSwaps);
  }

  tagOf(topic: TopicRec, group: string, dueAtMs: number, id: bigint): Uint8Array {
    return this.queues.tagOf(topic, group, dueAtMs, id);
  }

  /** The storage keys of these entries, for one parallel prefetch. */
  reads(tags: readonly Uint8Array[]): Uint8Array[] {
    return tags.map((t) => NS.queue.key(t));
  }

  async get(tag: Uint8Array): Promise<QueueEntryRec | undefined> {
    const raw = await this.txn.get(NS.queue.key(tag));
    return raw && decodedEntry(raw);
  }

  /**
   * The entries the tags name, read together (one multi-get for those the
   * batch has not read yet), for a command's loop over its tags: `entryAt`
   * answers as `get` would at that turn of the loop, without a promise.
   */
  async entriesOf(tags: readonly Uint8Array[]): Promise<TagEntries> {
    const { ids, values, fresh } = await this.txn.getMany(tags.map((t) => NS.queue.key(t)));
    const entries: (QueueEntryRec | undefined)[] = new Array(values.length);
    // Values read from the store now were never decoded: no earlier decoding to look for.
    for (const i of fresh) {
      const raw = values[i];
      if (raw && this.txn.writtenValue(ids[i]!) === undefined) entries[i] = decodeAndKeep(raw);
    }
    for (let i = 0; i < values.length; i++) {
      const raw = values[i];
      if (raw && entries[i] === undefined) entries[i] = decodedEntry(raw);
    }
    return { ids, raws: values, entries };
  }

  /** Entry `i` of `read`, as it is now: re-read when the batch wrote its key since (a tag named twice). */
  entryAt(read: TagEntries, i: number): QueueEntryRec | undefined {
    const now = this.txn.writtenValue(read.ids[i]!);
    if (now === undefined || now === read.raws[i]) return read.entries[i];
    return now ? decodedEntry(now) : undefined;
  }

  /**
   * Up to `limit` entries of one queue in key order after the key `after`
   * (from the queue's start when empty): their tags (copies) and entries.
   */
  async scanQueue(
    hash: bigint,
    after: Uint8Array,
    limit: number,
  ): Promise<{ tag: Uint8Array; entry: QueueEntryRec }[]> {
    let gte = queueLowerBound(hash);
    if (after.length > 0) {
      gte = new Uint8Array(after.length + 1);
      gte.set(after);
    }
    const rows = await this.txn.scan(NS.queue.range(gte, queueUpperBound(hash)), limit);
    return rows.map((r) => ({ tag: NS.queue.strip(r.key), entry: decodeEntry(r.value) }));
  }

  /** Deletes an entry without counting or indexing it (its queue and message go with it). */
  deleteForTopic(tag: Uint8Array): void {
    this.txn.del(NS.queue.key(tag));
  }

  private noteDue(topic: string, group: string, dueAtMs: number, lapse = false): void {
    const changes = lapse ? this.lapseChanges : this.dueChanges;
    const hash = this.queues.hash(topic, group);
    const before = changes.get(hash);
    if (before && before.dueAtMs <= dueAtMs) return;
    changes.set(
      hash,
      lapse ? { queueHash: hash, topic, group, dueAtMs, lapse } : { queueHash: hash, topic, group, dueAtMs },
    );
    this.txn.onRollback(() => {
      if (before) changes.set(hash, before);
      else changes.delete(hash);
    });
  }

  /**
   * The entry under `key` was a lease not yet started: its delivery (tag) must
   * not be pushed. `runTag`: the tag of the run lease that held it (`entry`
   * is then its held view, records.ts `heldView`).
   */
  private noteWithdrawn(key: Uint8Array, entry: QueueEntryRec, runTag?: Uint8Array): void {
    if (!leaseNotStarted(entry, this.time.nowMs)) return;
    const at = this.withdrawn.length;
    this.withdrawn.push(runTag ?? deliveryTagOf(key, entry));
    this.txn.onRollback(() => {
      this.withdrawn.length = at;
    });
  }

  /** A record of a message due this far ahead is kept out of the record cache (see RecordCache). */
  private isCold(dueAtMs: number): boolean {
    return dueAtMs > this.time.nowMs + COLD_AFTER_MS;
  }

  /**
   * Writes a new entry; its queue record must be loaded (`QueueStore.loadOf`).
   * The tag returned is a slab view (storage's slab.ts): for the write at
   * hand, not to be kept.
   */
  private insert(topic: TopicRec, entry: QueueEntryRec): Uint8Array {
    const hash = this.queues.hash(topic.name, entry.group);
    const tag = encodeKeyMs(hash, entry.dueAtMs, topic.settings.timeBucketMs, entry.id, slabBytes(KEY_BYTES));
    this.noteDue(topic.name, entry.group, entry.dueAtMs);
    this.insertAt(hash, tag, entry, this.isCold(entry.dueAtMs));
    return tag;
  }

  private insertAt(hash: bigint, tag: Uint8Array, entry: QueueEntryRec, cold: boolean): void {
    this.txn.put(NS.queue.key(tag), encodeEntry(entry, !cold && this.txn.cachesWrites), cold);
    this.queues.countNow(hash, entry.inFlight ? 0 : 1, entry.inFlight ? 1 : 0, 0);
    this.pendingMoved(hash, undefined, entry);
  }

  /**
   * The due-load histogram follows an entry's pending state and due time
   * (due-load.ts), as the queue's counters follow its state: `before` and
   * `after` as counted (undefined: no entry on that side).
   */
  private pendingMoved(
    hash: bigint,
    before: QueueEntryRec | undefined,
    after: QueueEntryRec | undefined,
  ): void {
    this.queues.dueLoad.moved(
      hash,
      before && !before.inFlight ? before.dueAtMs : undefined,
      after && !after.inFlight ? after.dueAtMs : undefined,
    );
  }

  /** A new ordered entry in front of its key: under its due key (a copy, kept across awaits). */
  insertDue(topic: TopicRec, entry: QueueEntryRec): Uint8Array {
    return new Uint8Array(this.insert(topic, entry));
  }

  /** A new ordered entry waiting behind its key's front: under `key`, its waiting key; not due. */
  insertWaiting(topic: TopicRec, entry: QueueEntryRec, key: Uint8Array): void {
    // Cold: it is read again only when it moves up, which may be long after.
    this.insertAt(this.queues.hash(topic.name, entry.group), key, entry, true);
  }

  /**
   * Moves an entry to its new due time / state under a new key; returns the
   * new tag, at once when nothing had to be read (no promise per message).
   */
  move(
    topic: TopicRec,
    oldTag: Uint8Array,
    old: QueueEntryRec,
    moved: QueueEntryRec,
    runTag?: Uint8Array,
  ): Uint8Array | Promise<Uint8Array> {
    const tag = this.tagOf(topic, moved.group, moved.dueAtMs, moved.id);
    return this.moveUnder(topic, oldTag, old, moved, tag, true, runTag);
  }

  /** `move` to a key of the caller's (per-key ordering: a waiting key, or back to its due key). */
  async moveTo(
    topic: TopicRec,
    oldTag: Uint8Array,
    old: QueueEntryRec,
    next: QueueEntryRec,
    newTag: Uint8Array,
    due: boolean,
  ): Promise<void> {
    await this.moveUnder(topic, oldTag, old, next, newTag, due);
  }

  private moveUnder(
    topic: TopicRec,
    oldTag: Uint8Array,
    old: QueueEntryRec,
    moved: QueueEntryRec,
    tag: Uint8Array,
    due: boolean,
    runTag?: Uint8Array,
  ): Uint8Array | Promise<Uint8Array> {
    // A move writes the message's index (setGroupRef): from now on there is one to delete.
    const next = moved.indexUnwritten ? { ...moved, indexUnwritten: false } : moved;
    if (due) this.noteDue(topic.name, next.group, next.dueAtMs);
    this.noteWithdrawn(oldTag, old, runTag);
    this.txn.del(NS.queue.key(oldTag));
    this.txn.put(NS.queue.key(tag), encodeEntry(next, this.txn.cachesWrites));
    this.pendingMoved(this.queues.hash(topic.name, next.group), old, next);
    let counting: Promise<void> | undefined;
    if (old.inFlight !== next.inFlight) {
      const d = next.inFlight ? 1 : -1;
      counting = this.queues.count(this.queues.hash(topic.name, next.group), -d, d, 0);
    }
    if (counting) return counting.then(() => this.messages.setGroupRef(next, tag, 'live')).then(() => tag);
    const referring = this.messages.setGroupRef(next, tag, 'live');
    return referring ? referring.then(() => tag) : tag;
  }

  /**
   * Rewrites an entry under its own key (a lease taken in place, its extension,
   * a lease taken ahead handed back): its message's index does not change.
   * `next` must keep the key's due field (`sameKey`).
   */
  rewrite(
    topic: TopicRec,
    key: Uint8Array,
    old: QueueEntryRec,
    next: QueueEntryRec,
    runTag?: Uint8Array,
  ): Promise<void> | undefined {
    this.noteWithdrawn(key, old, runTag);
    if (!next.inFlight) this.noteDue(topic.name, next.group, next.dueAtMs);
    else if (next.leaseEndMs > 0) this.noteDue(topic.name, next.group, next.leaseEndMs, true);
    this.txn.put(NS.queue.key(key), encodeEntry(next, this.txn.cachesWrites));
    this.pendingMoved(this.queues.hash(topic.name, next.group), old, next);
    if (old.inFlight === next.inFlight) return undefined;
    const d = next.inFlight ? 1 : -1;
    return this.queues.count(this.queues.hash(topic.name, next.group), -d, d, 0);
  }

  /** Whether `next` stays under `old`'s key (same due field: the exact ms, or the same time bucket). */
  sameKey(topic: TopicRec, old: QueueEntryRec, next: QueueEntryRec): boolean {
    const bucket = BigInt(topic.settings.timeBucketMs);
    return (
      old.id === next.id &&
      old.group === next.group &&
      dueField(BigInt(old.dueAtMs), bucket) === dueField(BigInt(next.dueAtMs), bucket)
    );
  }

  /** `rewrite` when `next` stays under the key, else `move`; the entry's key afterwards. */
  async update(
    topic: TopicRec,
    key: Uint8Array,
    old: QueueEntryRec,
    next: QueueEntryRec,
    runTag?: Uint8Array,
  ): Promise<Uint8Array> {
    if (!this.sameKey(topic, old, next)) return this.move(topic, key, old, next, runTag);
    await this.rewrite(topic, key, old, next, runTag);
    return key;
  }

  /**
   * A run lease let go of the entry under `key` without a write of it (a
   * lease handed back before it was counted): `view` (its held view) is
   * pending again at its own due time.
   */
  release(
    topic: TopicRec,
    key: Uint8Array,
    view: QueueEntryRec,
    runTag: Uint8Array,
  ): Promise<void> | undefined {
    this.noteWithdrawn(key, view, runTag);
    this.noteDue(topic.name, view.group, view.dueAtMs);
    const hash = this.queues.hash(topic.name, view.group);
    this.queues.dueLoad.moved(hash, undefined, view.dueAtMs);
    return this.queues.count(hash, 1, -1, 0);
  }

  /**
   * A run lease took entries of `group` (not written): those pending until
   * now, due at `pendingDueMs`, are counted in flight from now (the others a
   * run held already), and the earliest of their leases ends at `endMs`,
   * which the dispatcher hears as a lapse change. Once per lease command,
   * not per entry.
   */
  hold(
    topic: TopicRec,
    group: string,
    pendingDueMs: readonly number[],
    endMs: number,
  ): Promise<void> | undefined {
    this.noteDue(topic.name, group, endMs, true);
    const count = pendingDueMs.length;
    if (count === 0) return undefined;
    const hash = this.queues.hash(topic.name, group);
    for (const dueAtMs of pendingDueMs) this.queues.dueLoad.moved(hash, dueAtMs, undefined);
    return this.queues.count(hash, -count, count, 0);
  }

  /**
   * `group` of the topic was resumed (the topic's or its own pause lifted):
   * the dispatcher, which parked the queue, reads it again from its start.
   */
  resumed(topic: TopicRec, group: string): void {
    this.noteDue(topic.name, group, 0);
  }

  /**
   * `group`'s rate or in-flight limits changed: the dispatcher, which may
   * hold the queue back by its old ones, reads them and the queue again.
   */
  limitsChanged(topic: TopicRec, group: string): void {
    this.noteDue(topic.name, group, 0);
  }

  /** A run lease's offset was extended to `endMs`: a lapse change for the dispatcher. */
  extended(topic: TopicRec, group: string, endMs: number): void {
    this.noteDue(topic.name, group, endMs, true);
  }

  /**
   * Removes an entry and records how its group ended; ends the message when no
   * group holds it. A promise only when something had to be read.
   */
  remove(
    topic: TopicRec,
    tag: Uint8Array,
    entry: QueueEntryRec,
    outcome: Exclude<GroupOutcome, 'live'>,
    runTag?: Uint8Array,
  ): Promise<void> | undefined {
    this.noteWithdrawn(tag, entry, runTag);
    this.txn.del(NS.queue.key(tag));
    const dead = outcome === 'dead-lettered' ? 1 : 0;
    const hash = this.queues.hash(topic.name, entry.group);
    this.pendingMoved(hash, entry, undefined);
    const counting = this.queues.count(hash, entry.inFlight ? 0 : -1, entry.inFlight ? -1 : 0, dead);
    // An ordered message may be its key's front or wait behind it.
    if (maybeOrdered(entry)) {
      const key = new Uint8Array(tag);
      return (async () => {
        if (counting) await counting;
        await this.messages.setGroupRef(entry, EMPTY, outcome, topic);
        await this.order.ended(topic, key, entry);
      })();
    }
    if (counting) return counting.then(() => this.messages.setGroupRef(entry, EMPTY, outcome, topic));
    return this.messages.setGroupRef(entry, EMPTY, outcome, topic);
  }

  /**
   * Removes, unread, the entry under `key` of queue `queueHash` that a
   * running run lease holds and that is all its message has (records.ts
   * `entryAlone`: one group, no key, no expiry, never moved, its body
   * inline): what `remove` does with its outcome `done`, the entry and its
   * count in flight, with nothing else to end.
   */
  removeAlone(queueHash: bigint, key: Uint8Array): Promise<void> | undefined {
    this.txn.del(NS.queue.key(key));
    return this.queues.count(queueHash, 0, -1, 0);
  }

  /**
   * Writes a new message: one entry per group of the topic (or for
   * `onlyGroup` alone: a redriven dead letter), its body, index, expiry. A
   * message of one entry made by a command with `inline_bodies` carries its
   * body in that entry (no body record); otherwise the body is a record of
   * its own, written once. A message of one group and no key gets no index
   * record until its entry first moves: its publish record (inline body) or
   * its body record (`BodyRec.indexImplied`) says where the entry is.
   */
  addMessage(topic: TopicRec, body: BodyRec, onlyGroup?: string): Promise<void> | undefined {
    // Synchronous (no promise, no turn of the microtask queue) once the queue records are loaded.
    const loading = this.queues.loadOf(topic);
    if (loading) return loading.then(() => this.addLoadedMessage(topic, body, onlyGroup));
    return this.addLoadedMessage(topic, body, onlyGroup);
  }

  private addLoadedMessage(topic: TopicRec, body: BodyRec, onlyGroup?: string): Promise<void> | undefined {
    const groupNames = onlyGroup === undefined ? topic.groups : [onlyGroup];
    // Ordered by its key in a group: its entry may wait and move (docs/design.md, "Per-key ordering").
    const ordered = body.orderingKey !== '' && groupNames.some((g) => orderedIn(topic, g, body.orderingKey));
    const inline =
      this.time.inlineBodies &&
      groupNames.length === 1 &&
      (!ordered || body.payload.length <= ORDERED_INLINE_PAYLOAD_BYTES);
    // `default` cannot be deleted, so a topic of one group has only `default`. An ordered entry may
    // wait under a key of its own: only its publish record (inline body) can say where it is.
    const indexImplied =
      groupNames.length === 1 && groupNames[0] === DEFAULT_GROUP && body.key === '' && (inline || !ordered);
    if (!inline) {
      // One literal, not `{ ...body, indexImplied }`: V8 gives a spread that adds a property a shape
      // whose reads are several times slower, and encodeBody reads every field of every body.
      this.messages.putBody(
        indexImplied
          ? {
              id: body.id,
              topic: body.topic,
              payload: body.payload,
              headers: body.headers,
              key: body.key,
              enqueuedAtMs: body.enqueuedAtMs,
              dueAtMs: body.dueAtMs,
              expireAtMs: body.expireAtMs,
              deadLetter: body.deadLetter,
              indexImplied,
              orderingKey: body.orderingKey,
              deliverBeforeMs: body.deliverBeforeMs,
            }
          : body,
      );
    }
    if (ordered) return this.addOrderedMessage(topic, body, groupNames, indexImplied, inline);
    const groups: GroupRef[] = [];
    let only: Uint8Array | undefined;
    for (const group of groupNames) {
      const tag = this.insert(topic, newEntry(topic, body, group, indexImplied, inline, false));
      groups.push({ group, tag, outcome: 'live' });
      only = tag;
    }
    if (!indexImplied) this.putNewIndex(topic, body, groups);
    else if (inline) this.publishes.note(only!, body.dueAtMs);
    this.putExpiries(body, inline ? only : undefined);
    return undefined;
  }

  /**
   * `addLoadedMessage` of a message ordered in some of its groups: each such
   * entry goes where its key puts it. One of one group carries its body and
   * implies its index, as an unordered one does: its publish record names
   * the key it went to (its due key, or a waiting key), and its first move
   * writes its index.
   */
  private async addOrderedMessage(
    topic: TopicRec,
    body: BodyRec,
    groupNames: readonly string[],
    indexImplied: boolean,
    inline: boolean,
  ): Promise<void> {
    const groups: GroupRef[] = [];
    for (const group of groupNames) {
      const ordered = orderedIn(topic, group, body.orderingKey);
      const entry = newEntry(topic, body, group, indexImplied, inline, ordered);
      const tag = ordered ? await this.order.place(topic, entry) : new Uint8Array(this.insert(topic, entry));
      groups.push({ group, tag, outcome: 'live' });
    }
    if (indexImplied) this.publishes.note(groups[0]!.tag, body.dueAtMs);
    else this.putNewIndex(topic, body, groups);
    // Its entries move (wait, move up): the janitor finds them through the index, not a key.
    this.putExpiries(body, undefined);
  }

  /**
   * A new message's expiry records: its TTL's, and its deadline's, which fires as a TTL does (the
   * janitor's expiry sweep), consumers or not, paused or not, front of its key or waiting.
   */
  private putExpiries(body: BodyRec, key: Uint8Array | undefined): void {
    if (body.expireAtMs > 0) this.messages.putExpiry(body.expireAtMs, body.id, key);
    if (body.deliverBeforeMs > 0 && body.deliverBeforeMs !== body.expireAtMs)
      this.messages.putExpiry(body.deliverBeforeMs, body.id, key);
  }

  private putNewIndex(topic: TopicRec, body: BodyRec, groups: GroupRef[]): void {
    this.messages.putIndex(
      body.id,
      { topic: topic.name, key: body.key, expireAtMs: body.expireAtMs, groups, done: false, endedAtMs: 0 },
      this.isCold(body.dueAtMs),
    );
  }
}

/** A new message's entry in `group` (attempt 0, pending at its due time). */
function newEntry(
  topic: TopicRec,
  body: BodyRec,
  group: string,
  indexImplied: boolean,
  inline: boolean,
  ordered: boolean,
): QueueEntryRec {
  return {
    id: body.id,
    topic: topic.name,
    group,
    dueAtMs: body.dueAtMs,
    attempt: 0,
    inFlight: false,
    deliveredAtMs: [],
    expireAtMs: body.expireAtMs,
    indexImplied,
    leaseEndMs: 0,
    indexUnwritten: indexImplied,
    leaseSerial: 0,
    leaseConsumer: 0n,
    lastError: '',
    orderingKey: body.orderingKey,
    deliverBeforeMs: body.deliverBeforeMs,
    ordered,
    body: inline ? body : undefined,
  };
}

/**
 * Most bytes of a slab a due read copies the values it keeps into. A slab
 * lives while the cache holds one of its rows; the cache evicts in insertion
 * order, so the rows of one read leave it together, when acks have not
 * removed them first.
 */
const SLAB_BYTES = 64 * 1024;

/** Which part of one queue `scanQueueEntries` reads, and how. */
export interface QueueScan {
  /** The first queue key read (inclusive); absent = the queue's start. */
  readonly from?: Uint8Array | undefined;
  /** The queue key the read stops before; absent = the queue's end. */
  readonly before?: Uint8Array | undefined;
  readonly limit?: number;
  /** How many entries the first read from the engine asks for (ScanOptions.firstChunk). */
  readonly firstChunk?: number;
  /** Gets copies of the rows the visitor `keep`s (the record cache: a command reads them next). */
  readonly cache?: CacheFiller | undefined;
}

/**
 * Visits one queue's entries in key order from a read view: each entry's
 * key (a view valid during the visit: copy what is kept) and the entry. The
 * visitor returns false to stop; `keep()` copies the row visited into
 * `scan.cache`.
 */
export async function scanQueueEntries(
  view: ReadView,
  queueHash: bigint,
  scan: QueueScan,
  visit: (key: Uint8Array, entry: QueueEntryRec, keep: () => void) => boolean | undefined | void,
): Promise<void> {
  const range = NS.queue.range(
    scan.from ?? queueLowerBound(queueHash),
    scan.before ?? queueUpperBound(queueHash),
  );
  const version = scan.cache?.version();
  const options: ScanOptions = {
    ...range,
    ...(scan.limit !== undefined ? { limit: scan.limit } : {}),
    ...(scan.firstChunk !== undefined ? { firstChunk: scan.firstChunk } : {}),
  };
  // Values are copied into slabs of this scan's own: one allocation per 64 KiB rather than one
  // per value (which the cache would keep, each its own buffer for the collector to track). A slab is sized for the rows the read expects: a read of
  // one row does not keep a slab of 64 KiB alive in the cache.
  const expected = scan.firstChunk ?? scan.limit ?? 1;
  let slab = EMPTY;
  let used = 0;
  let rows = 0;
  const kept: Array<readonly [string, Uint8Array]> = [];
  let rowKey: Uint8Array = EMPTY;
  let rowValue: Uint8Array = EMPTY;
  // Queue entries are all cacheable (record-cache.ts): the row's id is made from its key as read.
  const keep = (): void => {
    if (version !== undefined) kept.push([keyId(rowKey), rowValue]);
  };
  let read = false;
  try {
    await view.scan(options, (k, v) => {
      rowKey = k;
      // Decoded from a copy: an entry that carries its body keeps views of these bytes, which
      // the scan's slice does not outlive (the store's copy-what-you-keep rule). A copy kept for
      // the cache carries what it decodes to: the command that reads it next does not decode it
      // again (`decodedEntry`).
      if (used + v.length > slab.length) {
        const room = v.length * Math.max(1, expected - rows);
        slab = new Uint8Array(Math.max(v.length, Math.min(SLAB_BYTES, room)));
        used = 0;
      }
      rows++;
      slab.set(v, used);
      rowValue = new Uint8Array(slab.buffer, used, v.length);
      used += v.length;
      const entry = version === undefined ? decodeEntry(rowValue) : decodeAndKeep(rowValue);
      return visit(NS.queue.strip(k), entry, keep);
    });
    read = true;
  } finally {
    // Once per version taken, even when the read failed (then with nothing).
    if (version !== undefined) scan.cache!.fill(version, read ? kept : []);
  }
}

/** The queue entry under `key` in a read view. */
export async function readEntry(view: ReadView, key: Uint8Array): Promise<QueueEntryRec | undefined> {
  const raw = await view.get(NS.queue.key(key));
  return raw ? decodeEntry(raw) : undefined;
}

/** The queue entries under `keys` in a read view, read together (one multi-get where the view has one). */
export async function readEntries(
  view: ReadView,
  keys: readonly Uint8Array[],
): Promise<(QueueEntryRec | undefined)[]> {
  const storeKeys = keys.map((k) => NS.queue.key(k));
  const raws = view.getMany
    ? await view.getMany(storeKeys)
    : await Promise.all(storeKeys.map((k) => view.get(k)));
  return raws.map((raw) => (raw ? decodeEntry(raw) : undefined));
}
