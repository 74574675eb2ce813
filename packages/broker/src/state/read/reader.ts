// Every read of the state outside apply (the leader's dispatcher and janitor, the read RPCs),
// from one consistent store view, through the stores' read functions (the only code that knows
// the records' keys and codecs). Over 400 lines: each query is short, but they share the
// implied-index and held-lease rules, and splitting them would repeat both.
import { InvariantError, invariant } from '@fermata/base';
import type { ReadView } from '@fermata/storage';
import {
  DEFAULT_GROUP,
  decodeKey,
  dueField,
  dueUpperBound,
  encodeKey,
  encodeKeyMs,
  KEY_BYTES,
  keyAfter,
  keyDueOf,
  type QueueHasher,
  queueName,
  runTag,
  runTagParts,
  tagEntryKey,
  tagKeyOf,
  tagLease,
  waitingLowerBound,
} from '../../keys.js';
import type { Target } from '../commands/commands.js';
import { NotFoundError, ValidationError } from '../model/errors.js';
import type { GroupSettings } from '../model/group-settings.js';
import { DEFAULT_LIST_LIMIT, type Limits } from '../model/limits.js';
import {
  type BodyRec,
  deliveryTagOf,
  effectiveGroupSettings,
  heldView,
  impliedIndex,
  leaseEndOf,
  leaseHeld,
  type MessageIndexRec,
  movedIndex,
  offsetSettled,
  type PurgeRec,
  type QueueEntryRec,
  type QueueRec,
  runEndMs,
  runKey,
  type TopicRec,
} from '../model/records.js';
import { readEntries, readEntry, scanQueueEntries } from '../stores/entries.js';
import type { LeaseIndex } from '../stores/lease-index.js';
import {
  dueExpiries,
  dueKeyWindows,
  hasIndexRecord,
  readBodyRecord,
  readBodyRecords,
  readIndexRecord,
  readKeyRecord,
} from '../stores/messages.js';
import { type ForgettablePublishes, forgettablePublishes, locatePublished } from '../stores/publishes.js';
import { purgesOf } from '../stores/purges.js';
import { readQueue, readQueues } from '../stores/queues.js';
import type { CacheFiller } from '../stores/record-cache.js';
import { dueRequestWindows } from '../stores/requests.js';
import { readTopic, readTopics } from '../stores/topics.js';
import { type ForecastQuery, type ForecastView, readForecast } from './forecast.js';

/** A queue entry as the dispatcher and the list call see it. */
/**
 * Most running leases and skipped keys one due read passes before it stops
 * (`scanDue`): leases in place stay at the head of their queue, and a read
 * from the head after a lapse would otherwise walk every one in flight.
 */
export const MAX_PASSED_PER_SCAN = 10_000;

/**
 * Entries outside its due window a ListMessages page reads and passes over
 * at the most: past it the page answers with what it has and a page token
 * after the last entry read (messages waiting for their ordering key lie in
 * id order, whatever their due time, so a window can skip every one).
 */
export const MAX_LIST_SKIPPED = 1_000;

/** Most entries `scanDue` reads ahead at first; later reads double. */
const FIRST_SCAN_CHUNK = 256;

export interface EntryView extends QueueEntryRec {
  /** The entry's current key: for an in-flight entry, its delivery tag. */
  readonly tag: Uint8Array;
}

export interface QueueView extends QueueRec {
  readonly queueHash: bigint;
}

export type MessageStateName = 'pending' | 'in-flight' | 'done' | 'dead-lettered';

export interface GroupStateView {
  readonly group: string;
  readonly state: MessageStateName;
  /** Live entries: the due time (the lease end when in flight). */
  readonly dueAtMs: number;
  readonly attempt: number;
  readonly tag?: Uint8Array;
}

export interface MessageView {
  readonly message: BodyRec;
  readonly groups: readonly GroupStateView[];
}

export interface ListOptions {
  readonly group?: string;
  /** Inclusive lower / exclusive upper bound on the due time; 0 or absent = open. */
  readonly fromDueMs?: number;
  readonly toDueMs?: number;
  /** 0 or absent = DEFAULT_LIST_LIMIT; capped at maxListLimit. */
  readonly limit?: number;
  readonly pageToken?: Uint8Array;
}

export interface ListedEntry {
  readonly entry: EntryView;
  /** The entry's due time; in flight: its lease's end. */
  readonly dueAtMs: number;
  /** In flight: the delivery tag of its lease; otherwise the entry's key. */
  readonly tag: Uint8Array;
  /** Undefined only if the body vanished between the scan and the read. */
  readonly message: BodyRec | undefined;
  /** in-flight while the lease runs at `nowMs`; a lapsed lease reads as pending. */
  readonly state: 'pending' | 'in-flight';
}

export interface GroupStatsView extends QueueRec {
  /** Earliest due time of the group's entries (pending or lease end); undefined when empty. */
  readonly nextDueMs: number | undefined;
  /** Its effective settings (`effectiveGroupSettings`): paused when the topic or the group is. */
  readonly settings: GroupSettings;
}

const equalBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** `readMessage` found an entry gone that the index named: the message moved while it was read. */
const MOVED = Symbol('moved');

/**
 * Read helpers for the server: plain reads of the committed store (never of a
 * batch being applied). The dispatcher, janitor and the inspect RPCs use them.
 */
export class BrokerReader {
  constructor(
    readonly view: ReadView,
    private readonly hasher: QueueHasher,
    private readonly limits: Limits,
    /** The run leases (the state machine's, as of the last batch written): which entries they hold. */
    private readonly leases: LeaseIndex,
    private readonly cacheFiller?: CacheFiller,
  ) {}

  /**
   * The entry stored under `key` as it stands: its held view when a run lease
   * holds it (in flight, the lease counted), with that lease's tag.
   */
  private asHeld(
    key: Uint8Array,
    e: QueueEntryRec,
  ): { entry: QueueEntryRec; runTag: Uint8Array | undefined } {
    const hold = this.leases.holder(key);
    if (!hold) return { entry: e, runTag: undefined };
    return { entry: heldView(e, hold), runTag: runTag(hold.run.queueHash, hold.run.leaseId, hold.offset) };
  }

  /** The entry stored under `key` as it stands (`asHeld` without the tag: no object per entry read). */
  private viewOf(key: Uint8Array, e: QueueEntryRec): QueueEntryRec {
    const hold = this.leases.holder(key);
    return hold ? heldView(e, hold) : e;
  }

  /** The delivery tag of the entry under `key` (its run lease's, when one holds it). */
  private tagOf(key: Uint8Array, held: { entry: QueueEntryRec; runTag: Uint8Array | undefined }): Uint8Array {
    return held.runTag ?? deliveryTagOf(key, held.entry);
  }

  queueHash(topic: string, group: string = DEFAULT_GROUP): bigint {
    return this.hasher(queueName(topic, group));
  }

  getTopic(name: string): Promise<TopicRec | undefined> {
    return readTopic(this.view, name);
  }

  /** Every topic in name order (the first `limit`). */
  listTopics(limit?: number): Promise<TopicRec[]> {
    return readTopics(this.view, limit);
  }

  /** Every queue with its names and counters (to rebuild the dispatcher's heap at start-up). */
  listQueues(): Promise<QueueView[]> {
    return readQueues(this.view);
  }

  getQueue(queueHash: bigint): Promise<QueueRec | undefined> {
    return readQueue(this.view, queueHash);
  }

  /**
   * The dispatcher's read: entries of a queue that a lease command may take at
   * `nowMs` with look-ahead up to `uptoMs`: pending entries due by `uptoMs`
   * and leases that ran out by `nowMs`, in due order, at most `limit`, leaving out tags `skip` names (`tagKeyOf`;
   * entries a lease command already carries). Also returns the due time of
   * the first entry it did not take (or, with time buckets, a lower bound of
   * it): what the dispatcher's heap should hold for the queue next. One range
   * scan that stops at the first entry past `uptoMs` (with time buckets, at
   * the first later bucket).
   *
   * `fromTag` starts the scan there instead of at the queue's start, when the
   * caller knows no entry before it can be taken (the dispatcher's cursor):
   * entries leased in place, and the deleted keys of entries acked or moved,
   * are not stepped over again. `resumeTag` is where the next scan may start:
   * the first entry this one met and did not take, pass as a running lease or
   * skip (the key after the last one met when it met the queue's end; `fromTag`
   * when it met nothing). `passedLeaseEndMs` is the earliest end of the running
   * leases it passed: from then on an entry before `resumeTag` can be taken
   * again. It passes at most MAX_PASSED_PER_SCAN running leases and skipped
   * keys, then stops (the next read goes on from there).
   */
  async scanDue(
    queueHash: bigint,
    timeBucketMs: number,
    nowMs: number,
    uptoMs: number,
    limit: number,
    skip?: ReadonlySet<string>,
    fromTag?: Uint8Array,
  ): Promise<{
    entries: EntryView[];
    nextDueMs: number | undefined;
    resumeTag: Uint8Array | undefined;
    passedLeaseEndMs: number;
  }> {
    const entries: EntryView[] = [];
    let nextDueMs: number | undefined;
    let resumeTag: Uint8Array | undefined;
    let passedLeaseEndMs = Number.POSITIVE_INFINITY;
    let stopped = false;
    let passed = 0;
    const last = new Uint8Array(KEY_BYTES);
    let met = false;
    const later = (ms: number): void => {
      if (nextDueMs === undefined || ms < nextDueMs) nextDueMs = ms;
    };
    const lastBucket = timeBucketMs > 0 ? Math.floor(uptoMs / timeBucketMs) : uptoMs;
    invariant(
      !fromTag || decodeKey(fromTag).queueHash === queueHash,
      () => `a scan of queue ${queueHash.toString(16)} from a tag of another queue`,
    );
    // Most reads stop after `limit` entries (one more gives the next due time) or at the first
    // entry past `uptoMs`'s bucket: the first read asks for no more, since each entry read ahead
    // is copied out of LevelDB whether visited or not. The entries taken go to the record cache:
    // the lease command reads them next, on this node.
    const firstChunk = Math.min(limit + 1, FIRST_SCAN_CHUNK);
    // Messages waiting for their ordering key lie past every due key: never read.
    const scan = { from: fromTag, before: waitingLowerBound(queueHash), firstChunk, cache: this.cacheFiller };
    await scanQueueEntries(this.view, queueHash, scan, (tag, stored, keep) => {
      met = true;
      last.set(tag);
      const keyDue = keyDueOf(tag);
      if (keyDue > lastBucket) {
        later(timeBucketMs > 0 ? keyDue * timeBucketMs : keyDue);
        resumeTag ??= new Uint8Array(tag);
        stopped = true;
        return false;
      }
      if (passed >= MAX_PASSED_PER_SCAN) {
        // Bounded: the next read goes on from here at once.
        later(nowMs);
        resumeTag ??= new Uint8Array(tag);
        stopped = true;
        return false;
      }
      const e = this.viewOf(tag, stored);
      if (e.inFlight && leaseEndOf(e) > nowMs) {
        // A running lease is never taken ahead: it can be leased once it ends, which the
        // dispatcher (comparing with now + the look-ahead) sees as this time.
        passed++;
        later(leaseEndOf(e) + (uptoMs - nowMs));
        if (leaseEndOf(e) < passedLeaseEndMs) passedLeaseEndMs = leaseEndOf(e);
        return;
      }
      // After the running-lease check: a lease command of the caller may have applied meanwhile.
      if (skip && skip.size > 0 && skip.has(tagKeyOf(tag))) {
        passed++;
        return;
      }
      if (e.dueAtMs > uptoMs) {
        // Same time bucket, not yet due: later entries of the bucket may be earlier.
        later(e.dueAtMs);
        resumeTag ??= new Uint8Array(tag);
        return;
      }
      if (entries.length >= limit) {
        later(e.dueAtMs);
        resumeTag ??= new Uint8Array(tag);
        stopped = true;
        return false;
      }
      // A literal, not `{ ...e, tag }`: a spread that adds a property gives V8's slow object shape.
      entries.push({
        id: e.id,
        topic: e.topic,
        group: e.group,
        dueAtMs: e.inFlight ? leaseEndOf(e) : e.dueAtMs,
        attempt: e.attempt,
        inFlight: e.inFlight,
        deliveredAtMs: e.deliveredAtMs,
        expireAtMs: e.expireAtMs,
        indexImplied: e.indexImplied,
        leaseEndMs: e.leaseEndMs,
        indexUnwritten: e.indexUnwritten,
        leaseSerial: e.leaseSerial,
        leaseConsumer: e.leaseConsumer,
        lastError: e.lastError,
        orderingKey: e.orderingKey,
        deliverBeforeMs: e.deliverBeforeMs,
        ordered: e.ordered,
        body: e.body,
        tag: new Uint8Array(tag),
      });
      keep();
    });
    if (resumeTag === undefined && !stopped) resumeTag = met ? keyAfter(last) : fromTag;
    return { entries, nextDueMs, resumeTag, passedLeaseEndMs };
  }

  /** Entries of a topic's group due by `nowMs` (pending, and leases that ran out), in due order, at most `limit`. */
  async dueEntriesOf(topic: string, group: string, nowMs: number, limit: number): Promise<EntryView[]> {
    const t = await this.getTopic(topic);
    if (!t) throw new NotFoundError('topic', topic);
    if (!t.groups.includes(group)) throw new NotFoundError('group', `${topic}/${group}`);
    const hash = this.queueHash(topic, group);
    return (await this.scanDue(hash, t.settings.timeBucketMs, nowMs, nowMs, limit)).entries;
  }

  /**
   * Earliest time something in a queue falls due: a pending entry's due time
   * or a running lease's end; undefined when empty. Leases taken in place lie
   * at the queue's start under their entries' keys, so it reads past them, up
   * to maxListLimit entries; with time buckets it reads the first bucket of
   * pending entries. When that many in-flight entries hide what lies after
   * them, it answers the earliest time among those, or, `atMost`, the first
   * one's due time: a time not later than the answer (the dispatcher then
   * reads the queue and learns the rest).
   */
  async nextDueMs(queueHash: bigint, atMost = false): Promise<number | undefined> {
    let best: number | undefined;
    let firstDue: number | undefined;
    let pendingBucket: bigint | undefined;
    let seen = 0;
    let done = false;
    const take = (ms: number): void => {
      if (best === undefined || ms < best) best = ms;
    };
    const scan = { limit: this.limits.maxListLimit, before: waitingLowerBound(queueHash) };
    await scanQueueEntries(this.view, queueHash, scan, (key, stored) => {
      seen++;
      const due = decodeKey(key).due;
      const e = this.viewOf(key, stored);
      firstDue ??= e.dueAtMs;
      if (e.inFlight) {
        take(leaseEndOf(e));
        return;
      }
      if (pendingBucket === undefined) pendingBucket = due;
      else if (due !== pendingBucket) {
        done = true;
        return false;
      }
      take(e.dueAtMs);
      // Exact-ms keys: the first pending entry is the earliest.
      if (e.dueAtMs === Number(due)) {
        done = true;
        return false;
      }
    });
    if (atMost && !done && seen >= this.limits.maxListLimit && pendingBucket === undefined) return firstDue;
    return best;
  }

  /**
   * The leases in place of a queue that run at `nowMs` (started or not), in
   * key order from the queue's start, for a new leader taking over the
   * previous one's deliveries: they lie at the queue's start under their
   * entries' keys. Reads at most `maxRead` entries and stops once it found
   * `want` leases (the queue's in-flight count).
   */
  async runningLeases(queueHash: bigint, nowMs: number, want: number, maxRead: number): Promise<EntryView[]> {
    const out: EntryView[] = [];
    if (want <= 0) return out;
    // Run leases: their open offsets that still run, read from the index, then their entries.
    const held: { key: Uint8Array; tag: Uint8Array }[] = [];
    for (const run of this.leases.runsOf(queueHash)) {
      for (let offset = 0; offset < run.length && held.length < Math.min(want, maxRead); offset++) {
        if (offsetSettled(run, offset) || runEndMs(run, offset) <= nowMs) continue;
        held.push({ key: runKey(run, offset), tag: runTag(queueHash, run.leaseId, offset) });
      }
    }
    if (held.length > 0) {
      const stored = await readEntries(
        this.view,
        held.map((h) => h.key),
      );
      held.forEach((h, i) => {
        const e = stored[i];
        if (!e) return; // settled since the index was read
        const { entry, runTag: tag } = this.asHeld(h.key, e);
        if (tag && entry.leaseEndMs > nowMs) out.push({ ...entry, tag });
      });
    }
    if (out.length >= want) return out;
    // Leases in place of earlier versions lie at the queue's start under their entries' keys.
    await scanQueueEntries(
      this.view,
      queueHash,
      { limit: maxRead, before: waitingLowerBound(queueHash) },
      (key, e) => {
        if (!e.inFlight || e.leaseEndMs <= nowMs) return;
        out.push({ ...e, tag: deliveryTagOf(key, e) });
        if (out.length >= want) return false;
      },
    );
    return out;
  }

  /** The entry whose lease `tag` names, while that lease runs at `nowMs`; undefined otherwise. */
  async runningLease(tag: Uint8Array, nowMs: number): Promise<EntryView | undefined> {
    const parts = runTagParts(tag);
    if (parts) {
      const run = this.leases.run(parts.leaseId);
      if (!run || run.queueHash !== parts.queueHash || parts.offset >= run.length) return undefined;
      if (offsetSettled(run, parts.offset) || runEndMs(run, parts.offset) <= nowMs) return undefined;
      const key = runKey(run, parts.offset);
      const stored = await readEntry(this.view, key);
      if (!stored) return undefined;
      const held = this.asHeld(key, stored);
      return held.runTag && equalBytes(held.runTag, tag) ? { ...held.entry, tag } : undefined;
    }
    if (tagLease(tag) === undefined) return undefined;
    const e = await readEntry(this.view, tagEntryKey(tag));
    if (!e) return undefined;
    if (!e.inFlight || e.leaseEndMs <= nowMs || e.leaseSerial !== tagLease(tag)) return undefined;
    return { ...e, tag };
  }

  /**
   * Live messages' bodies by id: the body record, or the body the message's
   * entry carries (found through its index record or publish record).
   * Undefined for a message that ended.
   */
  async getBodies(ids: readonly bigint[]): Promise<(BodyRec | undefined)[]> {
    const out = await this.bodiesOf(ids.map((id) => ({ id, body: undefined })));
    return Promise.all(out.map((b, i) => b ?? this.carriedBody(ids[i]!)));
  }

  /** The body a live message's entry carries: the entry its index record names, or its publish record. */
  private async carriedBody(id: bigint): Promise<BodyRec | undefined> {
    const stored = await readIndexRecord(this.view, id);
    const index = stored?.index;
    if (index?.done) return undefined;
    const tags = index
      ? index.groups.filter((g) => g.outcome === 'live').map((g) => g.tag)
      : [stored?.movedTo || (await locatePublished(this.view, id))];
    for (const tag of tags) {
      if (!tag) continue;
      const e = await readEntry(this.view, tag);
      if (e && e.id === id && e.body) return e.body;
    }
    return undefined;
  }

  /**
   * The bodies of these entries' messages: the one an entry carries, or its
   * message's body record (read together, one multi-get). Undefined where the
   * record is gone (the message ended since the entry was read).
   */
  async bodiesOf(
    entries: readonly { readonly id: bigint; readonly body: BodyRec | undefined }[],
  ): Promise<(BodyRec | undefined)[]> {
    const out: (BodyRec | undefined)[] = entries.map((e) => e.body);
    const missing: number[] = [];
    for (let i = 0; i < entries.length; i++) if (out[i] === undefined) missing.push(i);
    if (missing.length === 0) return out;
    const bodies = await readBodyRecords(
      this.view,
      missing.map((i) => entries[i]!.id),
    );
    missing.forEach((i, j) => {
      out[i] = bodies[j];
    });
    return out;
  }

  /**
   * A live message of `topic` by id or key, with every group's state, or
   * undefined (unknown, or ended). `nowMs` decides whether a lease still runs.
   */
  async getMessage(topic: string, target: Target, nowMs: number): Promise<MessageView | undefined> {
    // Its records are read one after another from the live store: an apply batch between the
    // index read and the entry read can move the entry. Read again then (a batch is atomic).
    for (let attempt = 1; ; attempt++) {
      const view = await this.readMessage(topic, target, nowMs);
      if (view !== MOVED) return view;
      if (attempt === 3) {
        const which = 'id' in target ? String(target.id) : `with key "${target.key}"`;
        throw new InvariantError(`message ${which} of topic "${topic}" names a missing entry`);
      }
    }
  }

  private async readMessage(
    topic: string,
    target: Target,
    nowMs: number,
  ): Promise<MessageView | undefined | typeof MOVED> {
    let id: bigint;
    if ('key' in target) {
      const rec = await readKeyRecord(this.view, topic, target.key);
      if (!rec || rec.endedAtMs > 0) return undefined;
      id = rec.id;
    } else {
      id = target.id;
    }
    const [stored, bodyRecord] = await Promise.all([
      readIndexRecord(this.view, id),
      readBodyRecord(this.view, id),
    ]);
    let body = bodyRecord;
    const movedTo = stored?.movedTo;
    let idx: MessageIndexRec | undefined;
    if (stored?.index) idx = stored.index;
    else if (body) idx = movedTo ? movedIndex(id, body, movedTo) : await this.impliedIndexOf(id, body);
    else {
      // Its entry carries its body: where the index record or its publish record says.
      const at = movedTo ?? (await locatePublished(this.view, id));
      if (!at) return undefined;
      const e = await readEntry(this.view, at);
      if (!e || e.id !== id) {
        // Moved since the index was read (read again), or ended.
        return movedTo || (await hasIndexRecord(this.view, id)) ? MOVED : undefined;
      }
      idx = impliedIndex(e, DEFAULT_GROUP, at);
    }
    if (!idx || idx.topic !== topic || idx.done) return undefined;
    const groups = await Promise.all(
      idx.groups.map(async (g): Promise<GroupStateView | undefined> => {
        if (g.outcome !== 'live') {
          return {
            group: g.group,
            state: g.outcome === 'dead-lettered' ? 'dead-lettered' : 'done',
            dueAtMs: 0,
            attempt: 0,
          };
        }
        const stored = await readEntry(this.view, g.tag);
        if (!stored) return undefined; // moved since the index was read
        const held = this.asHeld(g.tag, stored);
        const e = held.entry;
        body ??= e.body;
        return {
          group: g.group,
          state: leaseHeld(e, nowMs) ? 'in-flight' : 'pending',
          dueAtMs: e.inFlight ? leaseEndOf(e) : e.dueAtMs,
          attempt: e.attempt,
          tag: this.tagOf(g.tag, held),
        };
      }),
    );
    if (groups.some((g) => g === undefined)) return MOVED;
    // A live message has its body record, or an entry that carries it.
    if (!body) return MOVED;
    return { message: body, groups: groups as GroupStateView[] };
  }

  /** A one-group message whose entry never moved has no index record: its body implies it (MessageStore.getIndex). */
  private async impliedIndexOf(id: bigint, body: BodyRec): Promise<MessageIndexRec | undefined> {
    if (!body.indexImplied) return undefined;
    const t = await this.getTopic(body.topic);
    if (!t) return undefined;
    const tag = encodeKeyMs(
      this.queueHash(body.topic, DEFAULT_GROUP),
      body.dueAtMs,
      t.settings.timeBucketMs,
      id,
    );
    return impliedIndex(body, DEFAULT_GROUP, tag);
  }

  /**
   * A queue's entries by due time, `[fromDueMs, toDueMs)`, a page at a time;
   * `nextPageToken` (the last key read) is undefined on the last page. A
   * page reads at most `limit` entries and MAX_LIST_SKIPPED outside the
   * window, so it may hold fewer than `limit` (none) and a token.
   */
  async listMessages(
    topic: string,
    options: ListOptions,
    nowMs: number,
  ): Promise<{ items: ListedEntry[]; nextPageToken: Uint8Array | undefined }> {
    const group = options.group || DEFAULT_GROUP;
    const t = await this.getTopic(topic);
    if (!t) throw new NotFoundError('topic', topic);
    if (!t.groups.includes(group)) throw new NotFoundError('group', `${topic}/${group}`);
    const limit = Math.min(options.limit || DEFAULT_LIST_LIMIT, this.limits.maxListLimit);
    const hash = this.queueHash(topic, group);
    const bucket = BigInt(t.settings.timeBucketMs);
    const from = options.fromDueMs ?? 0;
    const to = options.toDueMs ?? 0;
    let start = encodeKey(hash, dueField(BigInt(from), bucket), 0n);
    if (options.pageToken && options.pageToken.length > 0) {
      if (options.pageToken.length !== KEY_BYTES || decodeKey(options.pageToken).queueHash !== hash) {
        throw new ValidationError('page_token', 'is not a page token of this topic and group');
      }
      const after = new Uint8Array(KEY_BYTES + 1);
      after.set(options.pageToken);
      if (Buffer.compare(after, start) > 0) start = after;
    }
    // Messages waiting for their ordering key lie past every due key: listed after the others.
    const waiting = waitingLowerBound(hash);
    const upto = to > 0 ? dueUpperBound(hash, BigInt(to - 1), bucket) : undefined;
    const before = upto && Buffer.compare(upto, waiting) < 0 ? upto : waiting;
    const entries: EntryView[] = [];
    const tags: Uint8Array[] = [];
    let more = false;
    let skipped = 0;
    let lastRead: Uint8Array | undefined;
    const visit = (k: Uint8Array, e: QueueEntryRec): false | undefined => {
      // Outside the window: a bucket's edges, or a message waiting for its key.
      const outside = e.dueAtMs < from || (to > 0 && e.dueAtMs >= to);
      if (entries.length >= limit || (outside && skipped >= MAX_LIST_SKIPPED)) {
        more = true;
        return false;
      }
      const key = new Uint8Array(k);
      lastRead = key;
      if (outside) {
        skipped++;
        return undefined;
      }
      const held = this.asHeld(key, e);
      entries.push({ ...held.entry, tag: key });
      tags.push(this.tagOf(key, held));
      return undefined;
    };
    if (Buffer.compare(start, before) < 0)
      await scanQueueEntries(this.view, hash, { from: start, before }, visit);
    if (!more) {
      const waitFrom = Buffer.compare(start, waiting) > 0 ? start : waiting;
      await scanQueueEntries(this.view, hash, { from: waitFrom }, visit);
    }
    const bodies = await this.bodiesOf(entries);
    const items = entries.map((entry, i) => ({
      entry,
      dueAtMs: entry.inFlight ? leaseEndOf(entry) : entry.dueAtMs,
      tag: tags[i]!,
      message: bodies[i],
      state: leaseHeld(entry, nowMs) ? ('in-flight' as const) : ('pending' as const),
    }));
    return { items, nextPageToken: more ? lastRead : undefined };
  }

  /** The due-load forecast of a topic's group (forecast.ts). */
  forecast(q: ForecastQuery): Promise<ForecastView> {
    return readForecast(this.view, this.hasher, this.limits, q);
  }

  /**
   * Counters and next due time per group of a topic (groups being deleted
   * too: their counters shrink as their entries are removed), and its
   * deletions under way.
   */
  async topicStats(
    name: string,
  ): Promise<{ topic: TopicRec; groups: GroupStatsView[]; deletions: PurgeRec[] }> {
    const topic = await this.getTopic(name);
    if (!topic) throw new NotFoundError('topic', name);
    const deletions =
      topic.deleting || (topic.deletingGroups?.length ?? 0) > 0 ? await purgesOf(this.view, name) : [];
    const deletingGroups = topic.deletingGroups ?? [];
    const groups = await Promise.all(
      [...topic.groups, ...deletingGroups].map(async (group): Promise<GroupStatsView> => {
        const hash = this.queueHash(name, group);
        // Nothing falls due in a queue being deleted; and its start, already purged, is a run
        // of deleted keys that a scan would walk (each read costs the deleted entries so far).
        const deleting = topic.deleting === true || deletingGroups.includes(group);
        const [q, nextDueMs] = await Promise.all([
          this.getQueue(hash),
          deleting ? undefined : this.nextDueMs(hash),
        ]);
        return {
          topic: name,
          group,
          pending: q?.pending ?? 0,
          inFlight: q?.inFlight ?? 0,
          deadLettered: q?.deadLettered ?? 0,
          nextDueMs,
          settings: effectiveGroupSettings(topic, group),
        };
      }),
    );
    return { topic, groups, deletions };
  }

  /**
   * Messages whose expireAt is <= nowMs, in expiry order (the janitor
   * proposes Expire for them), each with the queue key its expiry record
   * names (empty when it names none: see ExpireCommand.keys).
   */
  dueExpiries(nowMs: number, limit: number): Promise<{ id: bigint; expireAtMs: number; key: Uint8Array }[]> {
    return dueExpiries(this.view, nowMs, limit);
  }

  /** The janitor's bounded read of the publish records it may forget (stores/publishes.ts). */
  forgettablePublishes(options: Parameters<typeof forgettablePublishes>[1]): Promise<ForgettablePublishes> {
    return forgettablePublishes(this.view, options);
  }

  /** Keys whose dedup window ended by nowMs (the janitor proposes PurgeKeys for them). */
  dueKeyPurges(nowMs: number, limit: number): Promise<{ topic: string; key: string; windowEndMs: number }[]> {
    return dueKeyWindows(this.view, nowMs, limit);
  }

  /** Publish idempotency keys whose dedup window ended by nowMs (the janitor proposes PurgeKeys for them). */
  dueRequestPurges(nowMs: number, limit: number): Promise<string[]> {
    return dueRequestWindows(this.view, nowMs, limit);
  }
}
