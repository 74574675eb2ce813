import { slabBytes } from '@fermata/storage';
import { DEFAULT_GROUP, encodeKeyMs, KEY_BYTES, type QueueHasher, queueName } from '../keys.js';
import { ConflictError, LimitError, NotFoundError, ValidationError } from './errors.js';
import type { EventRepository } from './event-repository.js';
import {
  EMPTY,
  expirySuffix,
  idKey,
  keyWindowSuffix,
  NS,
  requestSuffix,
  requestWindowSuffix,
  topicKeySuffix,
  topicSuffix,
  u64,
} from './layout.js';
import type { Limits } from './limits.js';
import {
  type BodyRec,
  decodeBody,
  decodedEntry,
  decodeIndex,
  decodeKeyRec,
  decodeQueue,
  decodeRequestRec,
  decodeTopic,
  encodeBody,
  encodeEntry,
  encodeIndex,
  encodeKeyRec,
  encodeMovedIndex,
  encodeQueue,
  encodeRequestRec,
  encodeTopic,
  type GroupOutcome,
  type GroupRef,
  impliedIndex,
  type KeyRec,
  leaseNotStarted,
  type MessageIndexRec,
  movedIndex,
  movedIndexTag,
  type QueueEntryRec,
  type QueueRec,
  type RequestRec,
  type TopicRec,
} from './records.js';
import type { RequestFilter } from './request-filter.js';
import type { Txn } from './txn.js';

/**
 * A queue got an entry (new, or moved: leased, nacked, extended, rescheduled)
 * due at `dueAtMs`: its next due time may now be earlier. The dispatcher's heap
 * takes min(current, dueAtMs) for it.
 */
export interface DueChange {
  readonly queueHash: bigint;
  readonly topic: string;
  readonly group: string;
  readonly dueAtMs: number;
}

import { deadLetterTopicOf, settingsForCreate, validateTopicName } from './validation.js';

/**
 * Everything one applied entry batch shares: the write set, the time stamp of
 * the command being applied, and the record operations every command is built
 * from (entries, index, bodies, keys, topics, queue counters). Every change goes
 * through the Txn, so a failing command rolls back completely.
 */
/** Longest stretch of apply work before the event loop gets a turn. */
export const APPLY_SLICE_MS = 2;

/**
 * New queue entries and index records of a message due later than this are
 * not put in the record cache: by their due time they would long be evicted,
 * and caching them only churns it (the records of messages due soon are read
 * back by the lease and the ack).
 */
export const COLD_AFTER_MS = 60_000;

/** What `ApplyContext.entriesOf` read: per tag, its key's id, the stored bytes and the decoded entry. */
export interface TagEntries {
  readonly ids: readonly string[];
  readonly raws: readonly (Uint8Array | undefined)[];
  readonly entries: readonly (QueueEntryRec | undefined)[];
}

export class ApplyContext {
  nowMs = 0;
  private readonly topics = new Map<string, TopicRec | null>();
  private readonly queueRecs = new Map<bigint, QueueRec | null>();
  private readonly dirtyQueues = new Set<bigint>();
  private readonly hashes = new Map<string, bigint>();
  private reserved = { next: 0n, end: 0n };
  /** Per queue, the earliest due time of an entry inserted or moved by this batch. */
  readonly dueChanges = new Map<bigint, DueChange>();
  /**
   * Tags of leases taken ahead, not yet started, that this batch removed or
   * moved (cancel, reschedule, expiry): the leader must not push them.
   */
  readonly withdrawn: Uint8Array[] = [];

  /** When apply last let the event loop run (performance.now()). */
  private sliceStartMs = performance.now();

  constructor(
    readonly txn: Txn,
    readonly limits: Limits,
    private readonly hasher: QueueHasher,
    readonly ids: EventRepository,
    private readonly requestFilter: RequestFilter,
  ) {}

  // ---- ids ---------------------------------------------------------------

  /** Checks and observes a block of leader-assigned ids: they must all be new. */
  claimIds(firstId: bigint, count: number, field: string): void {
    if (count === 0) return;
    if (firstId <= this.ids.lastId) {
      throw new ConflictError(
        'id-reuse',
        `${field}: id ${firstId} is not above the last id ${this.ids.lastId}`,
      );
    }
    this.ids.observeId(firstId + BigInt(count) - 1n);
  }

  /** Ids reserved by the command for dead-letter copies. */
  reserveIds(firstId: bigint, count: number): void {
    this.reserved = { next: firstId, end: firstId + BigInt(count) };
  }

  private takeReservedId(): bigint | undefined {
    if (this.reserved.next >= this.reserved.end) return undefined;
    const id = this.reserved.next;
    const before = this.reserved;
    this.reserved = { next: id + 1n, end: before.end };
    this.txn.onRollback(() => {
      this.reserved = before;
    });
    return id;
  }

  // ---- topics and queues ---------------------------------------------------

  queueHash(topic: string, group: string): bigint {
    const name = queueName(topic, group);
    let h = this.hashes.get(name);
    if (h === undefined) {
      h = this.hasher(name);
      this.hashes.set(name, h);
    }
    return h;
  }

  /** The topic if this batch already read or wrote it (no await on the publish path). */
  cachedTopic(name: string): TopicRec | undefined {
    return this.topics.get(name) ?? undefined;
  }

  async getTopic(name: string): Promise<TopicRec | undefined> {
    const cached = this.topics.get(name);
    if (cached !== undefined) return cached ?? undefined;
    const raw = await this.txn.get(NS.topics.key(topicSuffix(name)));
    const rec = raw ? decodeTopic(raw) : undefined;
    if (!this.topics.has(name)) this.topics.set(name, rec ?? null);
    return rec;
  }

  async requireTopic(name: string, field = 'topic'): Promise<TopicRec> {
    validateTopicName(name, this.limits, field);
    const rec = await this.getTopic(name);
    if (!rec) throw new NotFoundError('topic', name);
    return rec;
  }

  putTopic(rec: TopicRec): void {
    this.setTopicCache(rec.name, rec);
    this.txn.put(NS.topics.key(topicSuffix(rec.name)), encodeTopic(rec));
  }

  delTopic(name: string): void {
    this.setTopicCache(name, null);
    this.txn.del(NS.topics.key(topicSuffix(name)));
  }

  private setTopicCache(name: string, rec: TopicRec | null): void {
    const had = this.topics.has(name);
    const before = this.topics.get(name);
    this.topics.set(name, rec);
    this.txn.onRollback(() => {
      if (had) this.topics.set(name, before!);
      else this.topics.delete(name);
    });
  }

  /** The topic, created with default settings when it does not exist (publish and dead-lettering). */
  async ensureTopic(name: string): Promise<TopicRec> {
    const existing = await this.getTopic(name);
    if (existing) return existing;
    const rec: TopicRec = {
      name,
      settings: settingsForCreate(undefined, this.limits),
      groups: [DEFAULT_GROUP],
      createdAtMs: this.nowMs,
    };
    await this.registerQueue(name, DEFAULT_GROUP);
    this.putTopic(rec);
    return rec;
  }

  async getQueue(hash: bigint): Promise<QueueRec | undefined> {
    const cached = this.queueRecs.get(hash);
    if (cached !== undefined) return cached ?? undefined;
    const raw = await this.txn.get(NS.queues.key(u64(hash)));
    const rec = raw ? decodeQueue(raw) : undefined;
    if (!this.queueRecs.has(hash)) this.queueRecs.set(hash, rec ?? null);
    return rec;
  }

  /**
   * Registers the queue of (topic, group). Two different queue names with one
   * hash would share keys: that is detected here and refused, never merged.
   */
  async registerQueue(topic: string, group: string): Promise<bigint> {
    const hash = this.queueHash(topic, group);
    const rec = await this.getQueue(hash);
    if (rec) {
      if (rec.topic === topic && rec.group === group) return hash;
      throw new ConflictError(
        'queue-hash-collision',
        `queue "${queueName(topic, group)}" has the hash ${hash.toString(16)} of the existing queue of topic "${rec.topic}" group "${rec.group}"`,
      );
    }
    this.setQueueRec(hash, { topic, group, pending: 0, inFlight: 0, deadLettered: 0 });
    return hash;
  }

  dropQueue(hash: bigint): void {
    this.setQueueRec(hash, null);
  }

  private setQueueRec(hash: bigint, rec: QueueRec | null): void {
    const had = this.queueRecs.has(hash);
    const before = this.queueRecs.get(hash);
    const wasDirty = this.dirtyQueues.has(hash);
    this.queueRecs.set(hash, rec);
    this.dirtyQueues.add(hash);
    this.txn.onRollback(() => {
      if (had) this.queueRecs.set(hash, before!);
      else this.queueRecs.delete(hash);
      if (!wasDirty) this.dirtyQueues.delete(hash);
    });
  }

  /**
   * Adjusts a queue's exact counters (written once at the end of the batch).
   * Synchronous once the queue's record is loaded (the usual case): callers
   * await only a returned promise.
   */
  private count(
    hash: bigint,
    pending: number,
    inFlight: number,
    deadLettered: number,
  ): Promise<void> | undefined {
    const rec = this.queueRecs.get(hash);
    if (!rec) {
      return this.getQueue(hash).then((loaded) => {
        if (!loaded) throw new Error(`invariant: counters of unregistered queue ${hash.toString(16)}`);
        this.countLoaded(hash, loaded, pending, inFlight, deadLettered);
      });
    }
    this.countLoaded(hash, rec, pending, inFlight, deadLettered);
    return undefined;
  }

  /** Per queue, the Txn generation whose undo step restores its counters (one step per command, not per change). */
  private readonly countedIn = new Map<bigint, number>();

  private countLoaded(
    hash: bigint,
    rec: QueueRec,
    pending: number,
    inFlight: number,
    deadLettered: number,
  ): void {
    if (this.countedIn.get(hash) !== this.txn.generation) {
      const before = { pending: rec.pending, inFlight: rec.inFlight, deadLettered: rec.deadLettered };
      const wasDirty = this.dirtyQueues.has(hash);
      const counted = this.countedIn.get(hash);
      this.countedIn.set(hash, this.txn.generation);
      this.txn.onRollback(() => {
        rec.pending = before.pending;
        rec.inFlight = before.inFlight;
        rec.deadLettered = before.deadLettered;
        if (!wasDirty) this.dirtyQueues.delete(hash);
        if (counted === undefined) this.countedIn.delete(hash);
        else this.countedIn.set(hash, counted);
      });
    }
    rec.pending += pending;
    rec.inFlight += inFlight;
    rec.deadLettered += deadLettered;
    if (rec.pending < 0 || rec.inFlight < 0) {
      throw new Error(`invariant: negative counter in queue ${hash.toString(16)}: ${JSON.stringify(rec)}`);
    }
    this.dirtyQueues.add(hash);
  }

  /** Writes the queue records changed by the batch (call once, before the batch is written). */
  flushQueues(): void {
    for (const hash of this.dirtyQueues) {
      const rec = this.queueRecs.get(hash);
      const key = NS.queues.key(u64(hash));
      if (rec) this.txn.put(key, encodeQueue(rec));
      else this.txn.del(key);
    }
    this.dirtyQueues.clear();
  }

  // ---- queue entries -----------------------------------------------------

  tagOf(topic: TopicRec, group: string, dueAtMs: number, id: bigint): Uint8Array {
    return encodeKeyMs(this.queueHash(topic.name, group), dueAtMs, topic.settings.timeBucketMs, id);
  }

  async getEntry(tag: Uint8Array): Promise<QueueEntryRec | undefined> {
    const raw = await this.txn.get(NS.queue.key(tag));
    return raw && decodedEntry(raw);
  }

  /**
   * The entries the tags name, read together (one multi-get for those the
   * batch has not read yet), for a command's loop over its tags: `entryAt`
   * answers as `getEntry` would at that turn of the loop, without a promise.
   */
  async entriesOf(tags: readonly Uint8Array[]): Promise<TagEntries> {
    const { ids, values } = await this.txn.getMany(tags.map((t) => NS.queue.key(t)));
    return { ids, raws: values, entries: values.map((raw) => raw && decodedEntry(raw)) };
  }

  /** Entry `i` of `read`, as it is now: re-read when the batch wrote its key since (a tag named twice). */
  entryAt(read: TagEntries, i: number): QueueEntryRec | undefined {
    const now = this.txn.writtenValue(read.ids[i]!);
    if (now === undefined || now === read.raws[i]) return read.entries[i];
    return now ? decodedEntry(now) : undefined;
  }

  private noteDue(topic: string, group: string, dueAtMs: number): void {
    const hash = this.queueHash(topic, group);
    const before = this.dueChanges.get(hash);
    if (before && before.dueAtMs <= dueAtMs) return;
    this.dueChanges.set(hash, { queueHash: hash, topic, group, dueAtMs });
    this.txn.onRollback(() => {
      if (before) this.dueChanges.set(hash, before);
      else this.dueChanges.delete(hash);
    });
  }

  /**
   * Lets the event loop run (timers: the dispatcher's pushes at their due
   * millisecond) when apply has held it for APPLY_SLICE_MS. Changes nothing in
   * the outcome: the batch is written at the end, and applies run one at a time.
   */
  async yieldSometimes(): Promise<void> {
    const now = performance.now();
    if (now - this.sliceStartMs < APPLY_SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStartMs = performance.now();
  }

  private noteWithdrawn(tag: Uint8Array, entry: QueueEntryRec): void {
    if (!leaseNotStarted(entry, this.nowMs)) return;
    const at = this.withdrawn.length;
    this.withdrawn.push(tag);
    this.txn.onRollback(() => {
      this.withdrawn.length = at;
    });
  }

  /** A record of a message due this far ahead is kept out of the record cache (see RecordCache). */
  private isCold(dueAtMs: number): boolean {
    return dueAtMs > this.nowMs + COLD_AFTER_MS;
  }

  /**
   * Writes a new entry; its queue record must be loaded (`loadQueuesOf`). The
   * tag returned is a slab view (storage's slab.ts): for the write at hand, not
   * to be kept.
   */
  private insertEntry(topic: TopicRec, entry: QueueEntryRec): Uint8Array {
    const hash = this.queueHash(topic.name, entry.group);
    const tag = encodeKeyMs(hash, entry.dueAtMs, topic.settings.timeBucketMs, entry.id, slabBytes(KEY_BYTES));
    this.noteDue(topic.name, entry.group, entry.dueAtMs);
    const cold = this.isCold(entry.dueAtMs);
    this.txn.put(NS.queue.key(tag), encodeEntry(entry, !cold && this.txn.cachesWrites), cold);
    const rec = this.queueRecs.get(hash);
    if (!rec)
      throw new Error(`invariant: entry of queue ${hash.toString(16)} inserted before its record was loaded`);
    this.countLoaded(hash, rec, entry.inFlight ? 0 : 1, entry.inFlight ? 1 : 0, 0);
    return tag;
  }

  /** Loads the queue records of the topic's groups, unless they are (a promise only when some is not). */
  private loadQueuesOf(topic: TopicRec): Promise<unknown> | undefined {
    let loading: Promise<unknown>[] | undefined;
    for (const group of topic.groups) {
      const hash = this.queueHash(topic.name, group);
      if (!this.queueRecs.get(hash)) (loading ??= []).push(this.getQueue(hash));
    }
    return loading && Promise.all(loading);
  }

  /**
   * Moves an entry to its new due time / state under a new key; returns the
   * new tag, at once when nothing had to be read (no promise per message).
   */
  moveEntry(
    topic: TopicRec,
    oldTag: Uint8Array,
    old: QueueEntryRec,
    next: QueueEntryRec,
  ): Uint8Array | Promise<Uint8Array> {
    const tag = this.tagOf(topic, next.group, next.dueAtMs, next.id);
    this.noteDue(topic.name, next.group, next.dueAtMs);
    this.noteWithdrawn(oldTag, old);
    this.txn.del(NS.queue.key(oldTag));
    this.txn.put(NS.queue.key(tag), encodeEntry(next, this.txn.cachesWrites));
    let counting: Promise<void> | undefined;
    if (old.inFlight !== next.inFlight) {
      const d = next.inFlight ? 1 : -1;
      counting = this.count(this.queueHash(topic.name, next.group), -d, d, 0);
    }
    if (counting) return counting.then(() => this.setGroupRef(next, tag, 'live')).then(() => tag);
    const referring = this.setGroupRef(next, tag, 'live');
    return referring ? referring.then(() => tag) : tag;
  }

  /**
   * Removes an entry and records how its group ended; ends the message when no
   * group holds it. A promise only when something had to be read.
   */
  removeEntry(
    topic: TopicRec,
    tag: Uint8Array,
    entry: QueueEntryRec,
    outcome: Exclude<GroupOutcome, 'live'>,
  ): Promise<void> | undefined {
    this.noteWithdrawn(tag, entry);
    this.txn.del(NS.queue.key(tag));
    const dead = outcome === 'dead-lettered' ? 1 : 0;
    const counting = this.count(
      this.queueHash(topic.name, entry.group),
      entry.inFlight ? 0 : -1,
      entry.inFlight ? -1 : 0,
      dead,
    );
    if (counting) return counting.then(() => this.setGroupRef(entry, EMPTY, outcome, topic));
    return this.setGroupRef(entry, EMPTY, outcome, topic);
  }

  // ---- message index, bodies, keys ---------------------------------------

  /**
   * The message's index record. A one-group message without a key has none
   * until its entry first moves (its body implies it), then one that holds
   * only the entry's tag (`encodeMovedIndex`).
   */
  async getIndex(id: bigint): Promise<MessageIndexRec | undefined> {
    const raw = await this.txn.get(NS.index.key(idKey(id)));
    const movedTo = raw && movedIndexTag(raw);
    if (raw && !movedTo) return decodeIndex(raw);
    const body = await this.getBody(id);
    if (movedTo) return movedIndex(id, body, movedTo);
    if (!body?.indexImplied) return undefined;
    const topic = await this.getTopic(body.topic);
    if (!topic) throw new Error(`invariant: message ${id} names missing topic ${body.topic}`);
    return impliedIndex(body, DEFAULT_GROUP, this.tagOf(topic, DEFAULT_GROUP, body.dueAtMs, id));
  }

  putIndex(id: bigint, rec: MessageIndexRec, cold = false): void {
    this.txn.put(NS.index.key(idKey(id)), encodeIndex(rec), cold);
  }

  async getBody(id: bigint): Promise<BodyRec | undefined> {
    const raw = await this.txn.get(NS.body.key(idKey(id)));
    return raw ? decodeBody(raw) : undefined;
  }

  putBody(body: BodyRec): void {
    this.txn.put(NS.body.key(idKey(body.id)), encodeBody(body));
  }

  async getKey(topic: string, key: string): Promise<KeyRec | undefined> {
    const raw = await this.txn.get(NS.keys.key(topicKeySuffix(topic, key)));
    return raw ? decodeKeyRec(raw) : undefined;
  }

  putKey(topic: string, key: string, rec: KeyRec): void {
    this.txn.put(NS.keys.key(topicKeySuffix(topic, key)), encodeKeyRec(rec));
  }

  /** False only when the store holds no request record under the key (request-filter.ts): no read needed. */
  mayHaveRequest(idempotencyKey: string): boolean {
    return this.requestFilter.mayHave(idempotencyKey);
  }

  async getRequest(idempotencyKey: string): Promise<RequestRec | undefined> {
    const raw = await this.txn.get(NS.requests.key(requestSuffix(idempotencyKey)));
    return raw ? decodeRequestRec(raw) : undefined;
  }

  /** Remembers a publish request's answer until its window ends (a janitor purge removes it then). */
  putRequest(idempotencyKey: string, rec: RequestRec): void {
    this.txn.put(NS.requests.key(requestSuffix(idempotencyKey)), encodeRequestRec(rec));
    this.txn.put(NS.requestWindow.key(requestWindowSuffix(rec.windowEndMs, idempotencyKey)), EMPTY);
    this.requestFilter.add(idempotencyKey, rec.windowEndMs);
    this.txn.onRollback(() => this.requestFilter.forgotten(rec.windowEndMs));
  }

  forgetRequest(idempotencyKey: string, rec: RequestRec): void {
    this.txn.del(NS.requests.key(requestSuffix(idempotencyKey)));
    this.txn.del(NS.requestWindow.key(requestWindowSuffix(rec.windowEndMs, idempotencyKey)));
    this.requestFilter.forgotten(rec.windowEndMs);
    this.txn.onRollback(() => this.requestFilter.add(idempotencyKey, rec.windowEndMs));
  }

  /** Forgets a key record, its window entry and the tombstone of its ended message. */
  async forgetKey(topic: string, key: string, rec: KeyRec): Promise<void> {
    this.txn.del(NS.keys.key(topicKeySuffix(topic, key)));
    if (rec.endedAtMs > 0) {
      this.txn.del(NS.keyWindow.key(keyWindowSuffix(rec.windowEndMs, topic, key)));
      const idx = await this.getIndex(rec.id);
      if (idx?.done) this.txn.del(NS.index.key(idKey(rec.id)));
    }
  }

  /**
   * Records in the message's index where `entry`'s group is now (`tag`), or how
   * it ended. An entry with `indexImplied` is its message's only one, and the
   * index follows from it: written (or, once the group ends, deleted with the
   * message) without being read.
   */
  private setGroupRef(
    entry: QueueEntryRec,
    tag: Uint8Array,
    outcome: GroupOutcome,
    topic?: TopicRec,
  ): Promise<void> | undefined {
    if (!entry.indexImplied) return this.setStoredGroupRef(entry, tag, outcome, topic);
    // Kept out of the record cache: nothing on the delivery path reads an implied index back (a
    // lease, nack and ack derive it from the entry); only cancel, reschedule and GetMessage do.
    if (outcome === 'live') {
      // Only `default` holds such entries (addMessage); the index names the group, so check.
      if (entry.group !== DEFAULT_GROUP)
        throw new Error(`invariant: entry of message ${entry.id} implies its index in group ${entry.group}`);
      this.txn.put(NS.index.key(idKey(entry.id)), encodeMovedIndex(tag), true);
    } else this.endUnkeyedMessage(entry.id, entry.expireAtMs); // no key: the topic's dedup window plays no part
    return undefined;
  }

  /** `setGroupRef` of an entry whose index is a record of its own: read, changed, written back. */
  private async setStoredGroupRef(
    entry: QueueEntryRec,
    tag: Uint8Array,
    outcome: GroupOutcome,
    topic?: TopicRec,
  ): Promise<void> {
    const { id, group } = entry;
    const idx = await this.getIndex(id);
    if (!idx) throw new Error(`invariant: queue entry of message ${id} has no index record`);
    const groups: GroupRef[] = idx.groups.map((g) => (g.group === group ? { group, tag, outcome } : g));
    const next = { ...idx, groups };
    if (outcome !== 'live' && !groups.some((g) => g.outcome === 'live')) {
      await this.endMessage(id, next, topic ?? (await this.getTopic(idx.topic)));
    } else {
      this.putIndex(id, next);
    }
  }

  /**
   * The last group let go of the message: the body and its expiry entry go; a
   * key stays reserved for the topic's dedup window (the index stays as a
   * tombstone meanwhile, so cancel by id or key answers "already done").
   */
  private endMessage(
    id: bigint,
    idx: MessageIndexRec,
    topic: TopicRec | undefined,
  ): Promise<void> | undefined {
    if (idx.key === '') {
      this.endUnkeyedMessage(id, idx.expireAtMs);
      return undefined;
    }
    this.txn.del(NS.body.key(idKey(id)));
    if (idx.expireAtMs > 0) this.txn.del(NS.expiry.key(expirySuffix(idx.expireAtMs, id)));
    return this.endKeyedMessage(id, idx, topic);
  }

  /** `endMessage` of a message without a key: its body, expiry entry and index record go. */
  private endUnkeyedMessage(id: bigint, expireAtMs: number): void {
    const k = idKey(id);
    this.txn.del(NS.body.key(k));
    if (expireAtMs > 0) this.txn.del(NS.expiry.key(expirySuffix(expireAtMs, id)));
    this.txn.del(NS.index.key(k));
  }

  /** The rest of `endMessage` for a message with a key: the key's record is read. */
  private async endKeyedMessage(
    id: bigint,
    idx: MessageIndexRec,
    topic: TopicRec | undefined,
  ): Promise<void> {
    const windowMs = topic?.settings.dedupWindowMs ?? 0;
    const keyRec = await this.getKey(idx.topic, idx.key);
    if (keyRec && keyRec.id === id && windowMs > 0) {
      const windowEndMs = this.nowMs + windowMs;
      this.putKey(idx.topic, idx.key, { id, endedAtMs: this.nowMs, windowEndMs });
      this.txn.put(NS.keyWindow.key(keyWindowSuffix(windowEndMs, idx.topic, idx.key)), EMPTY);
      this.putIndex(id, { ...idx, done: true, endedAtMs: this.nowMs });
      return;
    }
    if (keyRec && keyRec.id === id) this.txn.del(NS.keys.key(topicKeySuffix(idx.topic, idx.key)));
    this.txn.del(NS.index.key(idKey(id)));
  }

  // ---- dead letters --------------------------------------------------------

  /**
   * Moves a group's entry to the topic's dead-letter topic as a new message
   * (new id from the command's reserved block) that carries DeadLetterInfo.
   * Dead letters never cascade: a message that is already a dead letter, or
   * one with no id reserved or no valid dead-letter topic, is dropped instead.
   * Either way the source queue counts it as dead-lettered.
   */
  async deadLetter(
    topic: TopicRec,
    tag: Uint8Array,
    entry: QueueEntryRec,
    reason: 'max_attempts' | 'expired',
  ): Promise<bigint | undefined> {
    const body = await this.getBody(entry.id);
    if (!body) throw new Error(`invariant: queue entry of message ${entry.id} has no body`);
    const dlqName = deadLetterTopicOf(topic.name, topic.settings);
    let dlqId: bigint | undefined;
    if (!body.deadLetter && dlqName !== topic.name && this.isValidTopicName(dlqName)) {
      const mark = this.txn.mark();
      try {
        const dlq = await this.ensureTopic(dlqName);
        dlqId = this.takeReservedId();
        if (dlqId !== undefined) {
          const adding = this.addMessage(dlq, {
            id: dlqId,
            topic: dlq.name,
            payload: body.payload,
            headers: body.headers,
            key: '',
            enqueuedAtMs: this.nowMs,
            dueAtMs: this.nowMs,
            expireAtMs: 0,
            deadLetter: {
              sourceTopic: topic.name,
              sourceGroup: entry.group,
              sourceId: entry.id,
              sourceKey: body.key,
              reason,
              attempts: entry.attempt,
              deliveredAtMs: entry.deliveredAtMs,
              deadLetteredAtMs: this.nowMs,
            },
          });
          if (adding) await adding;
        }
      } catch (err) {
        // A collision of the dead-letter topic's queue hash: drop instead (deterministic).
        if (!(err instanceof ConflictError)) throw err;
        this.txn.rollback(mark);
        dlqId = undefined;
      }
    }
    await this.removeEntry(topic, tag, entry, 'dead-lettered');
    return dlqId;
  }

  private isValidTopicName(name: string): boolean {
    try {
      validateTopicName(name, this.limits);
      return true;
    } catch (err) {
      if (err instanceof ValidationError || err instanceof LimitError) return false;
      throw err;
    }
  }

  /**
   * Writes a new message: body once, one entry per group of the topic, index,
   * expiry. A message of one group and no key gets no index record until its
   * entry first moves (`BodyRec.indexImplied`).
   */
  addMessage(topic: TopicRec, body: BodyRec): Promise<void> | undefined {
    // Synchronous (no promise, no turn of the microtask queue) once the queue records are loaded.
    const loading = this.loadQueuesOf(topic);
    if (loading) return loading.then(() => this.addLoadedMessage(topic, body));
    this.addLoadedMessage(topic, body);
    return undefined;
  }

  private addLoadedMessage(topic: TopicRec, body: BodyRec): void {
    // `default` cannot be deleted, so a topic of one group has only `default`.
    const indexImplied = topic.groups.length === 1 && topic.groups[0] === DEFAULT_GROUP && body.key === '';
    // One literal, not `{ ...body, indexImplied }`: V8 gives a spread that adds a property a shape
    // whose reads are several times slower, and encodeBody reads every field of every body.
    this.putBody(
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
          }
        : body,
    );
    const groups: GroupRef[] = [];
    for (const group of topic.groups) {
      const tag = this.insertEntry(topic, {
        id: body.id,
        topic: topic.name,
        group,
        dueAtMs: body.dueAtMs,
        attempt: 0,
        inFlight: false,
        deliveredAtMs: [],
        expireAtMs: body.expireAtMs,
        indexImplied,
      });
      groups.push({ group, tag, outcome: 'live' });
    }
    if (!indexImplied)
      this.putIndex(
        body.id,
        { topic: topic.name, key: body.key, expireAtMs: body.expireAtMs, groups, done: false, endedAtMs: 0 },
        this.isCold(body.dueAtMs),
      );
    if (body.expireAtMs > 0) this.txn.put(NS.expiry.key(expirySuffix(body.expireAtMs, body.id)), EMPTY);
  }
}
