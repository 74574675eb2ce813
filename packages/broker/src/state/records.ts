import { int64FromSafe, type pb, toBigInt, toSafeNumber, toUint64, v1 } from '@fermata/protocol';
import { slabBytes } from '@fermata/storage';
import { DEFAULT_GROUP } from '../keys.js';
import { lenFieldSize, varintSize, WIRE_LEN, WIRE_VARINT, WireReader, WireWriter } from './wire.js';

/** The one writer of the hand-written codecs (each encode runs to completion before the next). */
const writer = new WireWriter();
const EMPTY_TAG = new Uint8Array(0);

/**
 * Plain views of the stored records (records.proto) and their codecs. Ids are
 * bigint; times and counters are numbers (far below 2^53).
 */
export type ExpiryAction = 'drop' | 'dead-letter';

/** Resolved topic settings: every field holds its effective value. */
export interface TopicSettings {
  readonly maxAttempts: number;
  readonly defaultLeaseMs: number;
  /** Empty = `<topic>.dlq`. */
  readonly deadLetterTopic: string;
  readonly expiryAction: ExpiryAction;
  readonly timeBucketMs: number;
  readonly dedupWindowMs: number;
}

/** One published message's answer, as a request record keeps it for a retry. */
export interface PublishResultItem {
  readonly id: bigint;
  readonly deduplicated: boolean;
  /** The due time the message was (or, deduplicated, had been) published with; 0 if it already ended. */
  readonly dueAtMs: number;
}

export interface TopicRec {
  readonly name: string;
  readonly settings: TopicSettings;
  /** `default` first, then in creation order. */
  readonly groups: readonly string[];
  readonly createdAtMs: number;
}

export interface QueueRec {
  readonly topic: string;
  readonly group: string;
  pending: number;
  inFlight: number;
  deadLettered: number;
}

export interface QueueEntryRec {
  readonly id: bigint;
  readonly topic: string;
  readonly group: string;
  /** Exact due time; for an in-flight entry the end of its lease. */
  readonly dueAtMs: number;
  readonly attempt: number;
  readonly inFlight: boolean;
  readonly deliveredAtMs: readonly number[];
  /** The message's expiry (0 = none). */
  readonly expireAtMs: number;
  /**
   * The message has this one group and no key: its index record is
   * `impliedIndex(entry, entry.group, tag)`, so moving or ending the entry
   * never reads it.
   * False on entries written before the field existed (their index is read).
   */
  readonly indexImplied: boolean;
}

/** When the entry's latest lease starts (its due time when the lease was taken ahead); undefined if never leased. */
export function leaseStartMs(e: QueueEntryRec): number | undefined {
  return e.deliveredAtMs.length > 0 ? e.deliveredAtMs[e.deliveredAtMs.length - 1] : undefined;
}

/** A lease taken ahead of the entry's due time that has not started by `nowMs`: the message is still pending. */
export function leaseNotStarted(e: QueueEntryRec, nowMs: number): boolean {
  if (!e.inFlight) return false;
  const start = leaseStartMs(e);
  return start !== undefined && start > nowMs;
}

/**
 * The entry is leased and its lease has not run out: a consumer holds it, or
 * will at the lease's start (a lease taken ahead may already be on its way to
 * the consumer). Cancel and reschedule answer IN_FLIGHT for it.
 */
export function leaseHeld(e: QueueEntryRec, nowMs: number): boolean {
  return e.inFlight && e.dueAtMs > nowMs;
}

/** A consumer holds the entry under a lease that runs at `nowMs` (started: ack, nack and extend count). */
export function leaseRunning(e: QueueEntryRec, nowMs: number): boolean {
  return e.inFlight && e.dueAtMs > nowMs && !leaseNotStarted(e, nowMs);
}

/** The entry as it was before its not-yet-started lease: pending at its due time, the attempt not counted. */
export function withoutLease(e: QueueEntryRec): QueueEntryRec {
  return {
    ...e,
    dueAtMs: leaseStartMs(e) ?? e.dueAtMs,
    inFlight: false,
    attempt: Math.max(0, e.attempt - 1),
    deliveredAtMs: e.deliveredAtMs.slice(0, -1),
  };
}

export type GroupOutcome = 'live' | 'done' | 'dead-lettered' | 'expired' | 'removed';

export interface GroupRef {
  readonly group: string;
  /** Current 24-byte queue key; empty once the group's entry ended. */
  readonly tag: Uint8Array;
  readonly outcome: GroupOutcome;
}

export interface MessageIndexRec {
  readonly topic: string;
  readonly key: string;
  readonly expireAtMs: number;
  readonly groups: readonly GroupRef[];
  /** The message ended; kept as a tombstone while its key is reserved. */
  readonly done: boolean;
  readonly endedAtMs: number;
}

export interface KeyRec {
  readonly id: bigint;
  /** 0 while the message lives. */
  readonly endedAtMs: number;
  readonly windowEndMs: number;
}

/** The answer to a publish request with an idempotency key, kept for its dedup window. */
export interface RequestRec {
  /** The first id the request's entry assigned to it (message i got firstId + i unless deduplicated by key). */
  readonly firstId: bigint;
  readonly appliedAtMs: number;
  /** What each message was answered, in order. */
  readonly results: readonly PublishResultItem[];
  readonly windowEndMs: number;
}

export interface DeadLetterInfo {
  readonly sourceTopic: string;
  readonly sourceGroup: string;
  readonly sourceId: bigint;
  readonly sourceKey: string;
  readonly reason: 'max_attempts' | 'expired';
  readonly attempts: number;
  readonly deliveredAtMs: readonly number[];
  readonly deadLetteredAtMs: number;
}

export interface BodyRec {
  readonly id: bigint;
  readonly topic: string;
  readonly payload: Uint8Array;
  readonly headers: Readonly<Record<string, string>>;
  readonly key: string;
  readonly enqueuedAtMs: number;
  readonly dueAtMs: number;
  readonly expireAtMs: number;
  readonly deadLetter?: DeadLetterInfo;
  /**
   * The message's entry has `indexImplied`, and no index record is written
   * until that entry first moves: until then `impliedIndex` of the `default`
   * group at `dueAtMs` is its index. Set by `addMessage`.
   */
  readonly indexImplied?: boolean;
}

const i64 = int64FromSafe;
const n64 = (v: Parameters<typeof toSafeNumber>[0]) => toSafeNumber(v, 'stored time');

const OUTCOMES: readonly GroupOutcome[] = ['live', 'done', 'dead-lettered', 'expired', 'removed'];

export function encodeSettings(s: TopicSettings): pb.TopicSettings.$Properties {
  return {
    maxAttempts: s.maxAttempts,
    defaultLeaseMs: i64(s.defaultLeaseMs),
    deadLetterTopic: s.deadLetterTopic,
    expiryAction:
      s.expiryAction === 'drop'
        ? v1.ExpiryAction.EXPIRY_ACTION_DROP
        : v1.ExpiryAction.EXPIRY_ACTION_DEAD_LETTER,
    timeBucketMs: i64(s.timeBucketMs),
    dedupWindowMs: i64(s.dedupWindowMs),
  };
}

function decodeSettings(s: pb.TopicSettings.$Properties | null | undefined): TopicSettings {
  return {
    maxAttempts: s?.maxAttempts ?? 0,
    defaultLeaseMs: n64(s?.defaultLeaseMs),
    deadLetterTopic: s?.deadLetterTopic ?? '',
    expiryAction: s?.expiryAction === v1.ExpiryAction.EXPIRY_ACTION_DEAD_LETTER ? 'dead-letter' : 'drop',
    timeBucketMs: n64(s?.timeBucketMs),
    dedupWindowMs: n64(s?.dedupWindowMs),
  };
}

export function encodeTopic(t: TopicRec): Uint8Array {
  return v1.TopicRecord.encode({
    name: t.name,
    settings: encodeSettings(t.settings),
    groups: [...t.groups],
    createdAtMs: i64(t.createdAtMs),
  }).finish();
}

export function decodeTopic(bytes: Uint8Array): TopicRec {
  const m = v1.TopicRecord.decode(bytes);
  return {
    name: m.name,
    settings: decodeSettings(m.settings),
    groups: m.groups,
    createdAtMs: n64(m.createdAtMs),
  };
}

export function encodeQueue(q: QueueRec): Uint8Array {
  return v1.QueueRecord.encode({
    topic: q.topic,
    group: q.group,
    pending: toUint64(BigInt(q.pending)),
    inFlight: toUint64(BigInt(q.inFlight)),
    deadLettered: toUint64(BigInt(q.deadLettered)),
  }).finish();
}

export function decodeQueue(bytes: Uint8Array): QueueRec {
  const m = v1.QueueRecord.decode(bytes);
  return {
    topic: m.topic,
    group: m.group,
    pending: n64(m.pending),
    inFlight: n64(m.inFlight),
    deadLettered: n64(m.deadLettered),
  };
}

/**
 * The entry a queue entry's stored bytes decode to, kept on the bytes object
 * itself by `decodedEntry` and `encodeEntry(e, true)`: an entry read again
 * (a lease reads what the publish wrote, an ack what the lease wrote, both
 * from the record cache) is decoded once. Entries are never changed in place,
 * and `decodeEntry(encodeEntry(e))` equals `e` (state-record-codec.test.ts),
 * so apply sees the same entry either way. A property rather than a map: a
 * `WeakMap`'s entries are ephemerons that every scavenge traces, and a `Map`
 * would need evicting along with the cache.
 */
const DECODED: unique symbol = Symbol('decoded queue entry');
type EntryBytes = Uint8Array & { [DECODED]?: QueueEntryRec };

/** The entry `bytes` hold, decoded once per bytes object. */
export function decodedEntry(bytes: Uint8Array): QueueEntryRec {
  const b = bytes as EntryBytes;
  let e = b[DECODED];
  if (e === undefined) {
    e = decodeEntry(b);
    b[DECODED] = e;
  }
  return e;
}

// QueueEntry (records.proto), written and read directly (wire.ts).
/**
 * `owned`: into memory of its own, carrying `e` for `decodedEntry` (for an
 * entry the record cache will hold; a slab view is copied there, see slab.ts).
 */
export function encodeEntry(e: QueueEntryRec, owned = false): Uint8Array {
  const w = writer.reset();
  if (e.id !== 0n) w.tag(1, WIRE_VARINT).varint64(e.id);
  if (e.topic !== '') w.tag(2, WIRE_LEN).string(e.topic);
  if (e.group !== '') w.tag(3, WIRE_LEN).string(e.group);
  if (e.dueAtMs !== 0) w.tag(4, WIRE_VARINT).varint(e.dueAtMs);
  if (e.attempt !== 0) w.tag(5, WIRE_VARINT).varint(e.attempt);
  if (e.inFlight) w.tag(6, WIRE_VARINT).varint(1);
  if (e.deliveredAtMs.length > 0) {
    let n = 0;
    for (const t of e.deliveredAtMs) n += varintSize(t);
    w.tag(7, WIRE_LEN).varint(n);
    for (const t of e.deliveredAtMs) w.varint(t);
  }
  if (e.expireAtMs !== 0) w.tag(8, WIRE_VARINT).varint(e.expireAtMs);
  if (e.indexImplied) w.tag(9, WIRE_VARINT).varint(1);
  if (!owned) return w.finish();
  const out: EntryBytes = w.finishOwned();
  out[DECODED] = e;
  return out;
}

export function decodeEntry(bytes: Uint8Array): QueueEntryRec {
  const r = new WireReader(bytes);
  let id = 0n;
  let topic = '';
  let group = '';
  let dueAtMs = 0;
  let attempt = 0;
  let inFlight = false;
  const deliveredAtMs: number[] = [];
  let expireAtMs = 0;
  let indexImplied = false;
  while (!r.done) {
    const tag = r.varint();
    const wt = tag & 7;
    switch (tag >>> 3) {
      case 1:
        if (wt !== WIRE_VARINT) break;
        id = r.varint64();
        continue;
      case 2:
        if (wt !== WIRE_LEN) break;
        topic = r.string();
        continue;
      case 3:
        if (wt !== WIRE_LEN) break;
        group = r.string();
        continue;
      case 4:
        if (wt !== WIRE_VARINT) break;
        dueAtMs = r.varint();
        continue;
      case 5:
        if (wt !== WIRE_VARINT) break;
        attempt = r.varint() >>> 0;
        continue;
      case 6:
        if (wt !== WIRE_VARINT) break;
        inFlight = r.varint() !== 0;
        continue;
      case 7:
        if (wt === WIRE_LEN) {
          const packed = r.sub();
          while (!packed.done) deliveredAtMs.push(packed.varint());
          continue;
        }
        if (wt !== WIRE_VARINT) break;
        deliveredAtMs.push(r.varint());
        continue;
      case 8:
        if (wt !== WIRE_VARINT) break;
        expireAtMs = r.varint();
        continue;
      case 9:
        if (wt !== WIRE_VARINT) break;
        indexImplied = r.varint() !== 0;
        continue;
    }
    r.skip(wt);
  }
  return { id, topic, group, dueAtMs, attempt, inFlight, deliveredAtMs, expireAtMs, indexImplied };
}

/**
 * The index record of a live message of one group and no key (its entry has
 * `indexImplied`) whose entry is under `tag`. A lease and an ack write it (or
 * delete it) without reading it; before the entry first moves it is not
 * stored at all (`BodyRec.indexImplied`).
 */
export function impliedIndex(
  m: { readonly topic: string; readonly expireAtMs: number },
  group: string,
  tag: Uint8Array,
): MessageIndexRec {
  return {
    topic: m.topic,
    key: '',
    expireAtMs: m.expireAtMs,
    groups: [{ group, tag, outcome: 'live' }],
    done: false,
    endedAtMs: 0,
  };
}

/**
 * The stored index of a message with `indexImplied` whose entry moved (a
 * lease, nack, extend or reschedule): a 0x00 byte, which no protobuf field
 * starts with (field numbers start at 1), then the entry's tag. The rest of
 * `impliedIndex` (topic, expiry) is in the message's body. 25 bytes written
 * without encoding an index per lease; the ack deletes it unread.
 */
export function encodeMovedIndex(tag: Uint8Array): Uint8Array {
  const out = slabBytes(1 + tag.length);
  out.set(tag, 1);
  return out;
}

/** The tag a `encodeMovedIndex` record holds, or undefined for an encoded `MessageIndex`. */
export function movedIndexTag(bytes: Uint8Array): Uint8Array | undefined {
  return bytes.length > 0 && bytes[0] === 0 ? bytes.slice(1) : undefined;
}

/** The index a moved-entry record (`movedIndexTag`) stands for, with the body that must imply it. */
export function movedIndex(id: bigint, body: BodyRec | undefined, tag: Uint8Array): MessageIndexRec {
  if (!body?.indexImplied)
    throw new Error(`invariant: message ${id} has a moved-entry index but no implied index`);
  return impliedIndex(body, DEFAULT_GROUP, tag);
}

// MessageIndex (records.proto), written and read directly (wire.ts).
export function encodeIndex(x: MessageIndexRec): Uint8Array {
  const w = writer.reset();
  if (x.topic !== '') w.tag(1, WIRE_LEN).string(x.topic);
  if (x.key !== '') w.tag(2, WIRE_LEN).string(x.key);
  if (x.expireAtMs !== 0) w.tag(3, WIRE_VARINT).varint(x.expireAtMs);
  for (const g of x.groups) {
    const outcome = OUTCOMES.indexOf(g.outcome);
    const groupBytes = Buffer.byteLength(g.group, 'utf8');
    const size =
      (groupBytes > 0 ? lenFieldSize(groupBytes) : 0) +
      (g.tag.length > 0 ? lenFieldSize(g.tag.length) : 0) +
      (outcome !== 0 ? 1 + varintSize(outcome) : 0);
    w.tag(4, WIRE_LEN).varint(size);
    if (groupBytes > 0) w.tag(1, WIRE_LEN).string(g.group);
    if (g.tag.length > 0) w.tag(2, WIRE_LEN).bytes(g.tag);
    if (outcome !== 0) w.tag(3, WIRE_VARINT).varint(outcome);
  }
  if (x.done) w.tag(5, WIRE_VARINT).varint(1);
  if (x.endedAtMs !== 0) w.tag(6, WIRE_VARINT).varint(x.endedAtMs);
  return w.finish();
}

function decodeGroupRef(r: WireReader): GroupRef {
  let group = '';
  let tag = EMPTY_TAG;
  let outcome = 0;
  while (!r.done) {
    const t = r.varint();
    const wt = t & 7;
    switch (t >>> 3) {
      case 1:
        if (wt !== WIRE_LEN) break;
        group = r.string();
        continue;
      case 2:
        if (wt !== WIRE_LEN) break;
        tag = r.bytes().slice();
        continue;
      case 3:
        if (wt !== WIRE_VARINT) break;
        outcome = r.varint();
        continue;
    }
    r.skip(wt);
  }
  return { group, tag, outcome: OUTCOMES[outcome] ?? 'live' };
}

export function decodeIndex(bytes: Uint8Array): MessageIndexRec {
  const r = new WireReader(bytes);
  let topic = '';
  let key = '';
  let expireAtMs = 0;
  const groups: GroupRef[] = [];
  let done = false;
  let endedAtMs = 0;
  while (!r.done) {
    const tag = r.varint();
    const wt = tag & 7;
    switch (tag >>> 3) {
      case 1:
        if (wt !== WIRE_LEN) break;
        topic = r.string();
        continue;
      case 2:
        if (wt !== WIRE_LEN) break;
        key = r.string();
        continue;
      case 3:
        if (wt !== WIRE_VARINT) break;
        expireAtMs = r.varint();
        continue;
      case 4:
        if (wt !== WIRE_LEN) break;
        groups.push(decodeGroupRef(r.sub()));
        continue;
      case 5:
        if (wt !== WIRE_VARINT) break;
        done = r.varint() !== 0;
        continue;
      case 6:
        if (wt !== WIRE_VARINT) break;
        endedAtMs = r.varint();
        continue;
    }
    r.skip(wt);
  }
  return { topic, key, expireAtMs, groups, done, endedAtMs };
}

export function encodeKeyRec(k: KeyRec): Uint8Array {
  return v1.KeyRecord.encode({
    id: toUint64(k.id),
    endedAtMs: i64(k.endedAtMs),
    windowEndMs: i64(k.windowEndMs),
  }).finish();
}

export function decodeKeyRec(bytes: Uint8Array): KeyRec {
  const m = v1.KeyRecord.decode(bytes);
  return { id: toBigInt(m.id), endedAtMs: n64(m.endedAtMs), windowEndMs: n64(m.windowEndMs) };
}

export function encodeRequestRec(r: RequestRec): Uint8Array {
  const existingIndex: number[] = [];
  const existingId: ReturnType<typeof toUint64>[] = [];
  const dueOffsetMs = r.results.map((x, i) => {
    if (x.id !== r.firstId + BigInt(i)) {
      existingIndex.push(i);
      existingId.push(toUint64(x.id));
    }
    return i64(x.dueAtMs - r.appliedAtMs);
  });
  return v1.RequestRecord.encode({
    firstId: toUint64(r.firstId),
    appliedAtMs: i64(r.appliedAtMs),
    dueOffsetMs,
    existingIndex,
    existingId,
    windowEndMs: i64(r.windowEndMs),
  }).finish();
}

export function decodeRequestRec(bytes: Uint8Array): RequestRec {
  const m = v1.RequestRecord.decode(bytes);
  const firstId = toBigInt(m.firstId);
  const appliedAtMs = n64(m.appliedAtMs);
  const existing = new Map(m.existingIndex.map((at, k) => [at, toBigInt(m.existingId[k])] as const));
  const results = m.dueOffsetMs.map((offset, i) => {
    const id = existing.get(i);
    return {
      id: id ?? firstId + BigInt(i),
      deduplicated: id !== undefined,
      dueAtMs: appliedAtMs + n64(offset),
    };
  });
  return { firstId, appliedAtMs, results, windowEndMs: n64(m.windowEndMs) };
}

// StoredMessage (records.proto), written directly (wire.ts); DeadLetterInfo through protobufjs.
export function encodeBody(b: BodyRec): Uint8Array {
  const d = b.deadLetter;
  // Encoded before the body's own fields: the writer is shared and protobufjs does not use it.
  const deadLetter = d
    ? v1.DeadLetterInfo.encode({
        sourceTopic: d.sourceTopic,
        sourceGroup: d.sourceGroup,
        sourceId: toUint64(d.sourceId),
        sourceKey: d.sourceKey,
        reason: d.reason,
        attempts: d.attempts,
        deliveredAtMs: d.deliveredAtMs.map(i64),
        deadLetteredAtMs: i64(d.deadLetteredAtMs),
      }).finish()
    : undefined;
  const w = writer.reset();
  if (b.id !== 0n) w.tag(1, WIRE_VARINT).varint64(b.id);
  if (b.topic !== '') w.tag(2, WIRE_LEN).string(b.topic);
  if (b.payload.length > 0) w.tag(3, WIRE_LEN).bytes(b.payload);
  for (const name in b.headers) {
    const value = b.headers[name]!;
    const size =
      lenFieldSize(Buffer.byteLength(name, 'utf8')) + lenFieldSize(Buffer.byteLength(value, 'utf8'));
    w.tag(4, WIRE_LEN).varint(size).tag(1, WIRE_LEN).string(name).tag(2, WIRE_LEN).string(value);
  }
  if (b.key !== '') w.tag(5, WIRE_LEN).string(b.key);
  if (b.enqueuedAtMs !== 0) w.tag(6, WIRE_VARINT).varint(b.enqueuedAtMs);
  if (b.dueAtMs !== 0) w.tag(7, WIRE_VARINT).varint(b.dueAtMs);
  if (b.expireAtMs !== 0) w.tag(8, WIRE_VARINT).varint(b.expireAtMs);
  if (deadLetter) w.tag(9, WIRE_LEN).bytes(deadLetter);
  if (b.indexImplied) w.tag(10, WIRE_VARINT).varint(1);
  return w.finish();
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
const NO_BYTES: Uint8Array = new Uint8Array(0);

/**
 * Reads what `encodeBody` (or protobufjs) wrote, by hand like `decodeEntry`:
 * the dispatcher decodes a body per delivery, and protobufjs made a message
 * object and a Long per time field on the way. The payload is a view into
 * `bytes`. A dead-letter record's history is read by protobufjs (rare).
 */
export function decodeBody(bytes: Uint8Array): BodyRec {
  const r = new WireReader(bytes);
  let id = 0n;
  let topic = '';
  let payload = NO_BYTES;
  let headers: Record<string, string> | undefined;
  let key = '';
  let enqueuedAtMs = 0;
  let dueAtMs = 0;
  let expireAtMs = 0;
  let deadLetter: DeadLetterInfo | undefined;
  let indexImplied = false;
  while (!r.done) {
    const tag = r.varint();
    const wt = tag & 7;
    switch (tag >>> 3) {
      case 1:
        if (wt !== WIRE_VARINT) break;
        id = r.varint64();
        continue;
      case 2:
        if (wt !== WIRE_LEN) break;
        topic = r.string();
        continue;
      case 3:
        if (wt !== WIRE_LEN) break;
        payload = r.bytes();
        continue;
      case 4: {
        if (wt !== WIRE_LEN) break;
        const e = r.sub();
        let name = '';
        let value = '';
        while (!e.done) {
          const t = e.varint();
          if (t === ((1 << 3) | WIRE_LEN)) name = e.string();
          else if (t === ((2 << 3) | WIRE_LEN)) value = e.string();
          else e.skip(t & 7);
        }
        headers ??= {};
        // As protobufjs does: `__proto__` is an own property, not the prototype's setter.
        if (name === '__proto__') {
          Object.defineProperty(headers, name, {
            value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        } else {
          headers[name] = value;
        }
        continue;
      }
      case 5:
        if (wt !== WIRE_LEN) break;
        key = r.string();
        continue;
      case 6:
        if (wt !== WIRE_VARINT) break;
        enqueuedAtMs = r.varint();
        continue;
      case 7:
        if (wt !== WIRE_VARINT) break;
        dueAtMs = r.varint();
        continue;
      case 8:
        if (wt !== WIRE_VARINT) break;
        expireAtMs = r.varint();
        continue;
      case 9:
        if (wt !== WIRE_LEN) break;
        deadLetter = decodeDeadLetter(r.bytes());
        continue;
      case 10:
        if (wt !== WIRE_VARINT) break;
        indexImplied = r.varint() !== 0;
        continue;
    }
    r.skip(wt);
  }
  // Every field present (undefined when unset), one shape: conditional spreads make slow objects.
  return {
    id,
    topic,
    payload,
    headers: headers ?? NO_HEADERS,
    key,
    enqueuedAtMs,
    dueAtMs,
    expireAtMs,
    deadLetter,
    indexImplied: indexImplied ? true : undefined,
  };
}

function decodeDeadLetter(bytes: Uint8Array): DeadLetterInfo {
  const d = v1.DeadLetterInfo.decode(bytes);
  return {
    sourceTopic: d.sourceTopic ?? '',
    sourceGroup: d.sourceGroup ?? '',
    sourceId: toBigInt(d.sourceId),
    sourceKey: d.sourceKey ?? '',
    reason: d.reason === 'expired' ? ('expired' as const) : ('max_attempts' as const),
    attempts: d.attempts ?? 0,
    deliveredAtMs: (d.deliveredAtMs ?? []).map(n64),
    deadLetteredAtMs: n64(d.deadLetteredAtMs),
  };
}
