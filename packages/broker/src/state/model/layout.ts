import { invariant } from '@fermata/base';
import { Namespace, slabCopy } from '@fermata/storage';
import { MAX_KEY_HEAD_BYTES, MAX_NAMED_WAITS } from './key-head-size.js';

/**
 * The key layout of the broker's store: one-byte namespaces (docs/state-machine.md
 * lists every one with its key and value). Multi-byte integers are big-endian so
 * byte order is numeric order.
 */
export const NS = {
  /** 24-byte queue key (queueHash, due, id) -> QueueEntry. */
  queue: new Namespace(0x01, 'queue'),
  /** id (8) -> StoredMessage: the body, written once. */
  body: new Namespace(0x02, 'body'),
  /** id (8) -> MessageIndex: where each group's entry is now. */
  index: new Namespace(0x03, 'index'),
  /** topic UTF-8, 0x00, key UTF-8 -> KeyRecord. */
  keys: new Namespace(0x04, 'keys'),
  /** expireAtMs (8), id (8) -> empty. */
  expiry: new Namespace(0x05, 'expiry'),
  /** windowEndMs (8), topic UTF-8, 0x00, key UTF-8 -> empty: keys whose dedup window ends then. */
  keyWindow: new Namespace(0x06, 'key-window'),
  /** topic name UTF-8 -> TopicRecord. */
  topics: new Namespace(0x07, 'topics'),
  /** queueHash (8) -> QueueRecord (names + counters). */
  queues: new Namespace(0x08, 'queues'),
  /** ASCII name -> value (see META). */
  meta: new Namespace(0x09, 'meta'),
  /** publish idempotency key UTF-8 -> RequestRecord: the answer a retry gets. */
  requests: new Namespace(0x0a, 'requests'),
  /** windowEndMs (8), idempotency key UTF-8 -> empty: request records whose dedup window ends then. */
  requestWindow: new Namespace(0x0b, 'request-window'),
  /** topic UTF-8, 0x00, name UTF-8 -> ScheduleRecord; topic, 0x00 -> the topic's count; 0x00 -> the cluster's. */
  schedules: new Namespace(0x0c, 'schedules'),
  /** topic UTF-8, 0x00, group UTF-8 ('' = the whole topic) -> PurgeRecord: a deletion under way. */
  purges: new Namespace(0x0d, 'purges'),
  /** token name UTF-8 -> uint64 BE: the schedules that token created that exist (per-token limit). */
  owners: new Namespace(0x0e, 'owners'),
  /**
   * first id (8) -> PublishRecord: where the messages of one command that carry their body inline
   * and have no index record were published (id -> queue key: the record with the greatest key
   * <= the id).
   */
  publishes: new Namespace(0x0f, 'publishes'),
  /** lease id (8) -> LeaseRecord: a lease of a run of entries of one queue (written once), while an offset of it is open. */
  leases: new Namespace(0x10, 'leases'),
  /** lease id (8) -> LeaseSettles: which offsets of that lease's run are settled or extended (absent: none yet). */
  leaseSettles: new Namespace(0x11, 'lease-settles'),
  /**
   * queueHash (8), ordering key UTF-8 -> the front's id (uint64 BE): the one message of the key in
   * its queue's due order (docs/design.md, "Per-key ordering").
   */
  keyHeads: new Namespace(0x12, 'key-heads'),
  /**
   * queueHash (8), ordering key length (uint16 BE), ordering key UTF-8, due ms (8), id (8) -> empty:
   * the key's messages waiting behind its front, in due order (their entries are under waiting keys).
   */
  keyWaits: new Namespace(0x13, 'key-waits'),
  /**
   * queueHash (8), level (1), bucket start ms (8) -> count (uint64 BE): the queue's pending
   * entries due in that bucket (due-load.ts; docs/design.md, "Due-load forecast").
   */
  dueLoad: new Namespace(0x14, 'due-load'),
} as const;

const enc = new TextEncoder();
// ignoreBOM: a leading U+FEFF is part of a stored name or key, not a byte-order mark to drop.
const dec = new TextDecoder('utf-8', { ignoreBOM: true });

export const META = {
  /** uint64 BE: the last applied Raft index. */
  appliedIndex: NS.meta.key(enc.encode('applied-index')),
  /** uint64 BE: the highest event id observed. */
  lastId: NS.meta.key(enc.encode('event-repo/last-id')),
  /** uint64 BE: the highest leader time stamp applied (time never runs backwards). */
  lastNowMs: NS.meta.key(enc.encode('last-now-ms')),
  /** Present while a snapshot restore is under way (an interrupted restore leaves it). */
  restoring: NS.meta.key(enc.encode('restore-in-progress')),
} as const;

const u64Scratch = new DataView(new ArrayBuffer(8));
const u64Bytes = new Uint8Array(u64Scratch.buffer);

/** 8 bytes big-endian, a slab view (storage's slab.ts): for a key or value being written or read now. */
export function u64(value: bigint | number): Uint8Array {
  u64Scratch.setBigUint64(0, BigInt(value));
  return slabCopy(u64Bytes);
}

export function readU64(bytes: Uint8Array, offset = 0): bigint {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(offset);
}

export function idKey(id: bigint): Uint8Array {
  return u64(id);
}

/** topic, NUL, key: topic names cannot hold NUL, so the split is unambiguous. */
// Buffer's native UTF-8 writer applied to a plain Uint8Array: one allocation, no intermediate arrays.
const utf8Write = (Buffer.prototype as unknown as { utf8Write(s: string, offset: number): number }).utf8Write;

export function topicKeySuffix(topic: string, key: string): Uint8Array {
  const t = Buffer.byteLength(topic, 'utf8');
  const out = new Uint8Array(t + 1 + Buffer.byteLength(key, 'utf8'));
  utf8Write.call(out, topic, 0);
  out[t] = 0;
  utf8Write.call(out, key, t + 1);
  return out;
}

export function splitTopicKey(suffix: Uint8Array): { topic: string; key: string } {
  const nul = suffix.indexOf(0);
  if (nul < 0) throw new RangeError('topic/key suffix without a NUL separator');
  return { topic: dec.decode(suffix.subarray(0, nul)), key: dec.decode(suffix.subarray(nul + 1)) };
}

export function expirySuffix(expireAtMs: number, id: bigint): Uint8Array {
  const out = new Uint8Array(16);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(expireAtMs));
  view.setBigUint64(8, id);
  return out;
}

/** A window index key: the window's end (8 bytes BE, so windows sort by their end), then `rest`. */
function windowSuffix(windowEndMs: number, rest: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + rest.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(windowEndMs));
  out.set(rest, 8);
  return out;
}

export function keyWindowSuffix(windowEndMs: number, topic: string, key: string): Uint8Array {
  return windowSuffix(windowEndMs, topicKeySuffix(topic, key));
}

export function requestSuffix(idempotencyKey: string): Uint8Array {
  return enc.encode(idempotencyKey);
}

export function requestWindowSuffix(windowEndMs: number, idempotencyKey: string): Uint8Array {
  return windowSuffix(windowEndMs, requestSuffix(idempotencyKey));
}

export function topicSuffix(name: string): Uint8Array {
  return enc.encode(name);
}

export function decodeUtf8(bytes: Uint8Array): string {
  return dec.decode(bytes);
}

export const EMPTY = new Uint8Array(0);

/** A key head record's key suffix: the queue's hash, then the ordering key. */
export function keyHeadSuffix(queueHash: bigint, orderingKey: string): Uint8Array {
  const k = Buffer.byteLength(orderingKey, 'utf8');
  const out = new Uint8Array(8 + k);
  new DataView(out.buffer).setBigUint64(0, queueHash);
  utf8Write.call(out, orderingKey, 8);
  return out;
}

/**
 * A key head record's value: the front's id; how many messages wait behind
 * it (undefined in a record written before the count was kept: 8 bytes); the
 * first of them (due time, then id) as far as known, up to
 * MAX_NAMED_WAITS, so that moving them up needs no seek; and the floor,
 * when known: every waiting message of the key is due after it, so a seek
 * for the first one starts past it rather than over the deleted wait
 * records of those already moved up.
 */
export interface KeyHeadRec {
  readonly front: bigint;
  readonly waits: number | undefined;
  /** The key's first waiting messages in due order (a prefix of them, maybe empty). */
  readonly next: readonly KeyWaitRef[];
  readonly floor: KeyWaitRef | undefined;
  /**
   * The front's due time when it was made the front or rescheduled (undefined:
   * not kept, a record of a build before it): while the front was never
   * leased, its due time; once leased, it no longer matters.
   */
  readonly frontDueAtMs?: number | undefined;
}

/** A waiting message's place in its key's order. */
export interface KeyWaitRef {
  readonly dueAtMs: number;
  readonly id: bigint;
}

const HEAD_NEXT = 1;
const HEAD_FLOOR = 2;
const HEAD_MORE = 4;
const HEAD_FRONT_DUE = 8;
const headScratch = new DataView(new ArrayBuffer(MAX_KEY_HEAD_BYTES));
const headBytes = new Uint8Array(headScratch.buffer);

/**
 * A head record's value: front (8 bytes), waits (4), which parts follow
 * (1), then the first named and the floor as due time and id (8 + 8 each),
 * then how many more are named (1) and each of them (8 + 8), then the
 * front's due time (8). A reader that knows only the first and the floor (a
 * build that named one) reads them and ignores the rest. An uncounted head
 * stays uncounted: its front alone.
 */
export function encodeKeyHead(head: KeyHeadRec): Uint8Array {
  headScratch.setBigUint64(0, head.front);
  if (head.waits === undefined) return slabCopy(headBytes.subarray(0, 8));
  headScratch.setUint32(8, head.waits);
  let at = 13;
  let flags = 0;
  const put = (ref: KeyWaitRef): void => {
    headScratch.setBigUint64(at, BigInt(ref.dueAtMs));
    headScratch.setBigUint64(at + 8, ref.id);
    at += 16;
  };
  const [first, ...more] = head.next;
  invariant(more.length < MAX_NAMED_WAITS, () => `a head names ${head.next.length} waiting messages`);
  if (first) {
    flags |= HEAD_NEXT;
    put(first);
  }
  if (head.floor) {
    flags |= HEAD_FLOOR;
    put(head.floor);
  }
  if (more.length > 0) {
    flags |= HEAD_MORE;
    headScratch.setUint8(at++, more.length);
    for (const ref of more) put(ref);
  }
  if (head.frontDueAtMs !== undefined) {
    flags |= HEAD_FRONT_DUE;
    headScratch.setBigUint64(at, BigInt(head.frontDueAtMs));
    at += 8;
  }
  headScratch.setUint8(12, flags);
  return slabCopy(headBytes.subarray(0, at));
}

export function decodeKeyHead(bytes: Uint8Array): KeyHeadRec {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const front = view.getBigUint64(0);
  if (bytes.length < 13) return { front, waits: undefined, next: [], floor: undefined };
  const flags = view.getUint8(12);
  let at = 13;
  const ref = (): KeyWaitRef => {
    const r = { dueAtMs: Number(view.getBigUint64(at)), id: view.getBigUint64(at + 8) };
    at += 16;
    return r;
  };
  const next = flags & HEAD_NEXT ? [ref()] : [];
  const floor = flags & HEAD_FLOOR ? ref() : undefined;
  if (flags & HEAD_MORE) for (let n = view.getUint8(at++); n > 0; n--) next.push(ref());
  const frontDueAtMs = flags & HEAD_FRONT_DUE ? Number(view.getBigUint64(at)) : undefined;
  return { front, waits: view.getUint32(8), next, floor, frontDueAtMs };
}

/**
 * The part of a wait record's key every wait of one (queue, ordering key)
 * shares: the queue's hash, the key's length (so that no key's range holds
 * another's), the key. `keyWaitSuffix` appends the due time and the id.
 */
export function keyWaitPrefix(queueHash: bigint, orderingKey: string): Uint8Array {
  const k = Buffer.byteLength(orderingKey, 'utf8');
  // maxKeyBytes is at most 65,535 (config-schema.ts): the length fits its 2 bytes.
  invariant(k <= 0xffff, () => `an ordering key of ${k} bytes does not fit a wait record's 2-byte length`);
  const out = new Uint8Array(10 + k);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, queueHash);
  view.setUint16(8, k);
  utf8Write.call(out, orderingKey, 10);
  return out;
}

/** A wait record's key suffix: `keyWaitPrefix`, the due time in ms and the id (8 bytes each). */
export function keyWaitSuffix(queueHash: bigint, orderingKey: string, dueMs: number, id: bigint): Uint8Array {
  const prefix = keyWaitPrefix(queueHash, orderingKey);
  const out = new Uint8Array(prefix.length + 16);
  out.set(prefix);
  const view = new DataView(out.buffer);
  view.setBigUint64(prefix.length, BigInt(dueMs));
  view.setBigUint64(prefix.length + 8, id);
  return out;
}

/** The due time and id a wait record's key suffix ends with. */
export function keyWaitOf(suffix: Uint8Array): { readonly dueAtMs: number; readonly id: bigint } {
  const view = new DataView(suffix.buffer, suffix.byteOffset + suffix.length - 16, 16);
  return { dueAtMs: Number(view.getBigUint64(0)), id: view.getBigUint64(8) };
}
