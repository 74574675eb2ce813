import { invariant } from '@fermata/base';
/**
 * What a message is besides its queue entries: its body, its index record
 * (per group, where its entry is now or how it ended), its key record and
 * dedup window, and its expiry entry. The index of a message of one group
 * and no key is implied by its body or entry and written without being read
 * (records.ts `impliedIndex`). Reads outside apply (the reader) go through
 * the functions at the end, over a read view.
 */
import type { ReadView } from '@fermata/storage';
import { DEFAULT_GROUP } from '../../keys.js';
import { decodeBody, encodeBody } from '../codec/body.js';
import { decodedEntry } from '../codec/entry.js';
import { decodeKeyRec, encodeKeyRec } from '../codec/key.js';
import { decodeIndex, encodeIndex, encodeMovedIndex, movedIndexTag } from '../codec/message-index.js';
import {
  EMPTY,
  expirySuffix,
  idKey,
  keyWindowSuffix,
  NS,
  readU64,
  splitTopicKey,
  topicKeySuffix,
} from '../model/layout.js';
import {
  type BodyRec,
  type GroupOutcome,
  type GroupRef,
  impliedIndex,
  type KeyRec,
  type MessageIndexRec,
  movedIndex,
  type QueueEntryRec,
  type TopicRec,
} from '../model/records.js';
import type { PublishStore } from './publishes.js';
import type { QueueStore } from './queues.js';
import type { CommandTime } from './time.js';
import { dueRows } from './time-index.js';
import type { TopicStore } from './topics.js';
import type { Txn } from './txn.js';

/** The first byte of every body record's stored key (a backup counts them by it). */
export const BODY_KEY_PREFIX = NS.body.prefix;

export class MessageStore {
  constructor(
    private readonly txn: Txn,
    private readonly topics: TopicStore,
    private readonly queues: QueueStore,
    private readonly time: CommandTime,
    private readonly publishes: PublishStore,
  ) {}

  /** The storage keys of these messages' index records and bodies, for one parallel prefetch. */
  indexAndBodyReads(ids: readonly bigint[]): Uint8Array[] {
    return ids.flatMap((id) => [NS.index.key(idKey(id)), NS.body.key(idKey(id))]);
  }

  /** The storage keys of these messages' index records, for one parallel prefetch. */
  indexReads(ids: readonly bigint[]): Uint8Array[] {
    return ids.map((id) => NS.index.key(idKey(id)));
  }

  /** The storage keys of these key records, for one parallel prefetch. */
  keyReads(keys: readonly { readonly topic: string; readonly key: string }[]): Uint8Array[] {
    return keys.map((k) => NS.keys.key(topicKeySuffix(k.topic, k.key)));
  }

  /**
   * The message's index record. A one-group message without a key has none
   * until its entry first moves (its body record, or for a body carried in
   * the entry its publish record, says where the entry is), then one that
   * holds only the entry's tag (`encodeMovedIndex`).
   */
  async getIndex(id: bigint): Promise<MessageIndexRec | undefined> {
    const raw = await this.txn.get(NS.index.key(idKey(id)));
    const movedTo = raw && movedIndexTag(raw);
    if (raw && !movedTo) return decodeIndex(raw);
    const body = await this.getBodyRecord(id);
    if (movedTo) return movedIndex(id, body ?? (await this.entryAt(movedTo)), movedTo);
    if (body) {
      if (!body.indexImplied) return undefined;
      const topic = await this.topics.get(body.topic);
      invariant(topic, () => `message ${id} names missing topic ${body.topic}`);
      return impliedIndex(body, DEFAULT_GROUP, this.queues.tagOf(topic, DEFAULT_GROUP, body.dueAtMs, id));
    }
    const published = await this.publishes.locate(id);
    if (!published) return undefined;
    const entry = await this.entryAt(published);
    // Not there: it ended (a move would have written the index record read above).
    if (entry?.id !== id) return undefined;
    return impliedIndex(entry, DEFAULT_GROUP, published);
  }

  /**
   * The index of a message whose entry `entry` is under `tag` (an expiry
   * record names it), without a lookup by id when the entry implies it;
   * otherwise `getIndex`.
   */
  indexAt(
    id: bigint,
    tag: Uint8Array,
    entry: QueueEntryRec | undefined,
  ): Promise<MessageIndexRec | undefined> {
    if (entry?.id === id && entry.indexImplied) return Promise.resolve(impliedIndex(entry, entry.group, tag));
    return this.getIndex(id);
  }

  /** The queue entry under `tag` (a 24-byte key), read through the batch. */
  private async entryAt(tag: Uint8Array): Promise<QueueEntryRec | undefined> {
    const raw = await this.txn.get(NS.queue.key(tag));
    return raw ? decodedEntry(raw) : undefined;
  }

  putIndex(id: bigint, rec: MessageIndexRec, cold = false): void {
    this.txn.put(NS.index.key(idKey(id)), encodeIndex(rec), cold);
  }

  /**
   * A live message's body: its body record, or the one its entry carries
   * (found through its index, or its publish record).
   */
  async getBody(id: bigint): Promise<BodyRec | undefined> {
    const body = await this.getBodyRecord(id);
    if (body) return body;
    const idx = await this.getIndex(id);
    const live = idx && !idx.done ? idx.groups.find((g) => g.outcome === 'live') : undefined;
    return live && (await this.entryAt(live.tag))?.body;
  }

  /** The body of the message `entry` belongs to: the one it carries, or its body record. */
  bodyOf(entry: QueueEntryRec): BodyRec | Promise<BodyRec | undefined> {
    return entry.body ?? this.getBodyRecord(entry.id);
  }

  private async getBodyRecord(id: bigint): Promise<BodyRec | undefined> {
    const raw = await this.txn.get(NS.body.key(idKey(id)));
    return raw ? decodeBody(raw) : undefined;
  }

  putBody(body: BodyRec): void {
    this.txn.put(NS.body.key(idKey(body.id)), encodeBody(body));
  }

  /** `tag`: the entry's key, when the message has one entry that carries its body (empty otherwise). */
  putExpiry(expireAtMs: number, id: bigint, tag: Uint8Array = EMPTY): void {
    this.txn.put(NS.expiry.key(expirySuffix(expireAtMs, id)), tag);
  }

  /** Deletes the expiry record of `id` at `atMs` (none when 0): its TTL's, its deadline's, or one moved. */
  delExpiry(atMs: number, id: bigint): void {
    if (atMs > 0) this.txn.del(NS.expiry.key(expirySuffix(atMs, id)));
  }

  async getKey(topic: string, key: string): Promise<KeyRec | undefined> {
    const raw = await this.txn.get(NS.keys.key(topicKeySuffix(topic, key)));
    return raw ? decodeKeyRec(raw) : undefined;
  }

  putKey(topic: string, key: string, rec: KeyRec): void {
    this.txn.put(NS.keys.key(topicKeySuffix(topic, key)), encodeKeyRec(rec));
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
   * Deletes a message's body, index record and expiry entry, nothing else (its
   * topic is being deleted). `expireAtMs` is its entry's: the expiry when the
   * index and body are gone already (another group's entry went first).
   */
  async deleteForTopic(
    id: bigint,
    expireAtMs: number,
    bodyInline: boolean,
    deadlineMs: number,
  ): Promise<void> {
    const index = await this.getIndex(id);
    if (!bodyInline) this.txn.del(NS.body.key(idKey(id)));
    this.txn.del(NS.index.key(idKey(id)));
    this.delExpiry(index?.expireAtMs || expireAtMs, id);
    this.delExpiry(deadlineMs, id);
  }

  /**
   * `deleteForTopic` of a message whose entry implies its index (one group, no
   * key): the entry carries its expiry, so nothing is read. Its index record,
   * written once the entry moved, is deleted when it may exist.
   */
  deleteImpliedForTopic(entry: QueueEntryRec): void {
    const { id, expireAtMs } = entry;
    const k = idKey(id);
    if (entry.body === undefined) this.txn.del(NS.body.key(k));
    if (!entry.indexUnwritten) this.txn.del(NS.index.key(k));
    this.delExpiry(expireAtMs, id);
    this.delExpiry(entry.deliverBeforeMs, id);
  }

  /**
   * Deletes up to `limit` key records of a topic after the key `after` (from
   * the first when empty), with the window entries and tombstones of ended
   * messages. Returns how many, and the last key deleted.
   */
  async purgeKeysOf(
    topic: string,
    after: Uint8Array,
    limit: number,
  ): Promise<{ count: number; last: Uint8Array }> {
    // Keys: prefix "topic NUL" in the keys namespace.
    const prefix = topicKeySuffix(topic, '');
    const end = prefix.slice();
    end[end.length - 1] = 1;
    let gte = prefix;
    if (after.length > 0) {
      gte = new Uint8Array(after.length + 1);
      gte.set(after);
    }
    const rows = await this.txn.scan(NS.keys.range(gte, end), limit);
    for (const row of rows) {
      const { key } = splitTopicKey(NS.keys.strip(row.key));
      const rec = decodeKeyRec(row.value);
      this.txn.del(row.key);
      if (rec.endedAtMs > 0) {
        this.txn.del(NS.keyWindow.key(keyWindowSuffix(rec.windowEndMs, topic, key)));
        this.txn.del(NS.index.key(idKey(rec.id)));
      }
    }
    const last = rows.length > 0 ? NS.keys.strip(rows[rows.length - 1]!.key) : after;
    return { count: rows.length, last };
  }

  /**
   * Records in the message's index where `entry`'s group is now (`tag`), or how
   * it ended. An entry with `indexImplied` is its message's only one, and the
   * index follows from it: written (or, once the group ends, deleted with the
   * message) without being read.
   */
  setGroupRef(
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
      invariant(
        entry.group === DEFAULT_GROUP,
        () => `entry of message ${entry.id} implies its index in group ${entry.group}`,
      );
      this.txn.put(NS.index.key(idKey(entry.id)), encodeMovedIndex(tag), true);
    } else {
      // No key: no dedup window.
      this.endUnkeyedMessage(entry.id, entry.expireAtMs, !entry.indexUnwritten, entry.body === undefined);
      this.delExpiry(entry.deliverBeforeMs, entry.id);
    }
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
    invariant(idx, () => `queue entry of message ${id} has no index record`);
    const groups: GroupRef[] = idx.groups.map((g) => (g.group === group ? { group, tag, outcome } : g));
    const next = { ...idx, groups };
    if (outcome !== 'live' && !groups.some((g) => g.outcome === 'live')) {
      this.delExpiry(entry.deliverBeforeMs, id);
      await this.endMessage(id, next, topic ?? (await this.topics.get(idx.topic)), entry.body === undefined);
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
    hasBodyRecord: boolean,
  ): Promise<void> | undefined {
    if (idx.key === '') {
      this.endUnkeyedMessage(id, idx.expireAtMs, true, hasBodyRecord);
      return undefined;
    }
    if (hasBodyRecord) this.txn.del(NS.body.key(idKey(id)));
    if (idx.expireAtMs > 0) this.txn.del(NS.expiry.key(expirySuffix(idx.expireAtMs, id)));
    return this.endKeyedMessage(id, idx, topic);
  }

  /**
   * `endMessage` of a message without a key: its body, expiry entry and index
   * record go (`hasIndex` false: none was ever written, so no delete either;
   * `hasBodyRecord` false: the entry carried the body).
   */
  private endUnkeyedMessage(id: bigint, expireAtMs: number, hasIndex: boolean, hasBodyRecord: boolean): void {
    const k = idKey(id);
    if (hasBodyRecord) this.txn.del(NS.body.key(k));
    if (expireAtMs > 0) this.txn.del(NS.expiry.key(expirySuffix(expireAtMs, id)));
    if (hasIndex) this.txn.del(NS.index.key(k));
  }

  /** The rest of `endMessage` for a message with a key: the key's record is read. */
  private async endKeyedMessage(
    id: bigint,
    idx: MessageIndexRec,
    topic: TopicRec | undefined,
  ): Promise<void> {
    const now = this.time.nowMs;
    const windowMs = topic?.settings.dedupWindowMs ?? 0;
    const keyRec = await this.getKey(idx.topic, idx.key);
    if (keyRec && keyRec.id === id && windowMs > 0) {
      const windowEndMs = now + windowMs;
      this.putKey(idx.topic, idx.key, { id, endedAtMs: now, windowEndMs });
      this.txn.put(NS.keyWindow.key(keyWindowSuffix(windowEndMs, idx.topic, idx.key)), EMPTY);
      this.putIndex(id, { ...idx, done: true, endedAtMs: now });
      return;
    }
    if (keyRec && keyRec.id === id) this.txn.del(NS.keys.key(topicKeySuffix(idx.topic, idx.key)));
    this.txn.del(NS.index.key(idKey(id)));
  }
}

/**
 * A message's index record as stored: the index, or, for a one-group message
 * whose entry moved, only the entry's tag (`encodeMovedIndex`).
 */
export type StoredIndex =
  | { readonly index: MessageIndexRec; readonly movedTo?: undefined }
  | { readonly movedTo: Uint8Array; readonly index?: undefined };

/** The message's index record in a read view, undefined where it has none. */
export async function readIndexRecord(view: ReadView, id: bigint): Promise<StoredIndex | undefined> {
  const raw = await view.get(NS.index.key(idKey(id)));
  if (!raw) return undefined;
  const movedTo = movedIndexTag(raw);
  return movedTo ? { movedTo } : { index: decodeIndex(raw) };
}

/** Whether the message has an index record in a read view (not decoded). */
export async function hasIndexRecord(view: ReadView, id: bigint): Promise<boolean> {
  return (await view.get(NS.index.key(idKey(id)))) !== undefined;
}

/** The message's body record in a read view (none for a body its entry carries). */
export async function readBodyRecord(view: ReadView, id: bigint): Promise<BodyRec | undefined> {
  const raw = await view.get(NS.body.key(idKey(id)));
  return raw ? decodeBody(raw) : undefined;
}

/** The body records of these messages in a read view, read together (one multi-get where the view has one). */
export async function readBodyRecords(
  view: ReadView,
  ids: readonly bigint[],
): Promise<(BodyRec | undefined)[]> {
  const keys = ids.map((id) => NS.body.key(idKey(id)));
  const raws = view.getMany ? await view.getMany(keys) : await Promise.all(keys.map((k) => view.get(k)));
  return raws.map((raw) => (raw ? decodeBody(raw) : undefined));
}

/** The record of `key` in `topic` in a read view. */
export async function readKeyRecord(view: ReadView, topic: string, key: string): Promise<KeyRec | undefined> {
  const raw = await view.get(NS.keys.key(topicKeySuffix(topic, key)));
  return raw ? decodeKeyRec(raw) : undefined;
}

/**
 * Messages whose expireAt is <= nowMs, in expiry order, at most `limit`, each
 * with the queue key its expiry record names (empty when it names none).
 */
export function dueExpiries(
  view: ReadView,
  nowMs: number,
  limit: number,
): Promise<{ id: bigint; expireAtMs: number; key: Uint8Array }[]> {
  return dueRows(view, NS.expiry, nowMs, limit, (expireAtMs, rest, value) => ({
    expireAtMs,
    id: readU64(rest),
    key: new Uint8Array(value),
  }));
}

/** Keys whose dedup window ended by nowMs, in window order, at most `limit`. */
export function dueKeyWindows(
  view: ReadView,
  nowMs: number,
  limit: number,
): Promise<{ topic: string; key: string; windowEndMs: number }[]> {
  return dueRows(view, NS.keyWindow, nowMs, limit, (windowEndMs, rest) => ({
    windowEndMs,
    ...splitTopicKey(rest),
  }));
}
