import xxhash from 'xxhash-wasm';

/**
 * The 24-byte, big-endian, sortable queue key (docs/design.md, "Keys"):
 *
 *   bytes 0..8   queueHash  xxhash64 of the queue name
 *   bytes 8..16  due        due time in ms, or due / timeBucketMs when bucketed
 *   bytes 16..24 eventId    monotonic id from the event repository
 *
 * Order is queue -> due -> id, so everything due in queue Q up to `now` is the
 * one range [Q][0][0] .. [Q][now+1][0]. A delivery tag is the key and the
 * lease's attempt (`leaseTag`).
 */
export const KEY_BYTES = 24;

/**
 * A delivery tag of a lease taken in place: the entry's 24-byte key, then the
 * lease's number (uint32, big-endian), which each lease of the entry raises
 * and nothing lowers (the attempt count goes back when a lease taken ahead is
 * handed back; this does not). The entry keeps its key across leases, so the
 * number tells one lease of it from the next: a tag of a lease that ran out
 * names a number the entry has left behind. A tag of the previous versions'
 * lease is the 24-byte key alone (that lease moved the entry to a key of its
 * own).
 */
export const TAG_BYTES = KEY_BYTES + 4;

/**
 * A delivery tag of a lease of a run (`runTag`): the queue's hash (8 bytes,
 * so that a tag names its queue and topic without state, as the other tags
 * do), the lease's id (8) and the offset in the run (uint32), all
 * big-endian: 20 bytes, told apart from the 28- and 24-byte tags of the
 * leases that rewrite or move their entry by its length.
 */
export const RUN_TAG_BYTES = 20;
export const DEFAULT_GROUP = 'default';

const U64_MAX = (1n << 64n) - 1n;

export interface QueueKey {
  readonly queueHash: bigint;
  /** The due field as stored: exact ms, or the bucket number when bucketed. */
  readonly due: bigint;
  readonly id: bigint;
}

/** Maps a queue name to its 64-bit hash. Injected so tests can force collisions. */
export type QueueHasher = (queueName: string) => bigint;

let sharedHasher: QueueHasher | undefined;

/** The production hasher: xxhash64 (seed 0) of the UTF-8 queue name. */
export async function createQueueHasher(): Promise<QueueHasher> {
  if (!sharedHasher) {
    const { h64 } = await xxhash();
    sharedHasher = (name: string) => h64(name);
  }
  return sharedHasher;
}

/** The queue of a topic's group: the topic itself for `default`, else topic NUL group. */
export function queueName(topic: string, group: string = DEFAULT_GROUP): string {
  return group === DEFAULT_GROUP ? topic : `${topic}\u0000${group}`;
}

function checkU64(value: bigint, field: string): void {
  if (value < 0n || value > U64_MAX) throw new RangeError(`${field} out of uint64 range: ${value}`);
}

/** The due field for a due time: exact ms, or `floor(dueMs / timeBucketMs)` when bucketed. */
export function dueField(dueMs: bigint, timeBucketMs = 0n): bigint {
  if (timeBucketMs < 0n) throw new RangeError(`timeBucketMs must be >= 0, got ${timeBucketMs}`);
  if (dueMs < 0n) return 0n;
  return timeBucketMs > 0n ? dueMs / timeBucketMs : dueMs;
}

export function encodeKey(queueHash: bigint, due: bigint, id: bigint): Uint8Array {
  checkU64(queueHash, 'queueHash');
  checkU64(due, 'due');
  checkU64(id, 'eventId');
  const out = new Uint8Array(KEY_BYTES);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, queueHash);
  view.setBigUint64(8, due);
  view.setBigUint64(16, id);
  return out;
}

const keyScratchBytes = new Uint8Array(KEY_BYTES);
const keyScratch = new DataView(keyScratchBytes.buffer);

/**
 * `encodeKey` for a due time in ms (a safe integer), bucketed by `timeBucketMs`
 * as `dueField` does, without bigint arithmetic: apply makes one per new or
 * moved entry.
 */
export function encodeKeyMs(
  queueHash: bigint,
  dueMs: number,
  timeBucketMs: number,
  id: bigint,
  out: Uint8Array = new Uint8Array(KEY_BYTES),
): Uint8Array {
  if (!Number.isSafeInteger(dueMs)) throw new RangeError(`due ${dueMs} is not a safe integer`);
  if (!Number.isSafeInteger(timeBucketMs) || timeBucketMs < 0) {
    throw new RangeError(`timeBucketMs must be >= 0, got ${timeBucketMs}`);
  }
  checkU64(queueHash, 'queueHash');
  checkU64(id, 'eventId');
  const due = dueMs < 0 ? 0 : timeBucketMs > 0 ? Math.floor(dueMs / timeBucketMs) : dueMs;
  keyScratch.setBigUint64(0, queueHash);
  keyScratch.setUint32(8, Math.floor(due / 2 ** 32));
  keyScratch.setUint32(12, due >>> 0);
  keyScratch.setBigUint64(16, id);
  out.set(keyScratchBytes);
  return out;
}

// Buffer's native latin1 decoder applied to the Uint8Array itself: no Buffer object per call.
const latin1Slice = (Buffer.prototype as unknown as { latin1Slice(start: number, end: number): string })
  .latin1Slice;

/**
 * A delivery tag (or any key) as a map key: its bytes as a latin1 string, one
 * character per byte. Half the length of hex, and made without a lookup table.
 */
export const tagKeyOf = (tag: Uint8Array): string => latin1Slice.call(tag, 0, tag.length);

/** The bytes `tagKeyOf` made `key` of. */
export const tagFromKey = (key: string): Uint8Array => Buffer.from(key, 'latin1');

/** The delivery tag of lease number `lease` in place of the entry under `key`. */
export function leaseTag(key: Uint8Array, lease: number): Uint8Array {
  const out = new Uint8Array(TAG_BYTES);
  out.set(key.subarray(0, KEY_BYTES));
  // By hand: a DataView per tag costs more than the rest of this function (apply makes one per lease).
  out[KEY_BYTES] = (lease >>> 24) & 0xff;
  out[KEY_BYTES + 1] = (lease >>> 16) & 0xff;
  out[KEY_BYTES + 2] = (lease >>> 8) & 0xff;
  out[KEY_BYTES + 3] = lease & 0xff;
  return out;
}

/** The queue key a delivery tag names (a view into the tag). */
export function tagEntryKey(tag: Uint8Array): Uint8Array {
  return tag.length === KEY_BYTES ? tag : tag.subarray(0, KEY_BYTES);
}

/** The lease number a lease-in-place tag names; undefined for a tag of a moved lease (24 bytes). */
export function tagLease(tag: Uint8Array): number | undefined {
  if (tag.length !== TAG_BYTES) return undefined;
  return (
    ((tag[KEY_BYTES]! << 24) |
      (tag[KEY_BYTES + 1]! << 16) |
      (tag[KEY_BYTES + 2]! << 8) |
      tag[KEY_BYTES + 3]!) >>>
    0
  );
}

/** The delivery tag of offset `offset` of the run lease `leaseId` of queue `queueHash` (RUN_TAG_BYTES). */
export function runTag(queueHash: bigint, leaseId: bigint, offset: number): Uint8Array {
  checkU64(queueHash, 'queueHash');
  checkU64(leaseId, 'leaseId');
  const out = new Uint8Array(RUN_TAG_BYTES);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, queueHash);
  view.setBigUint64(8, leaseId);
  view.setUint32(16, offset);
  return out;
}

/**
 * The delivery tags of the run lease `leaseId` of queue `queueHash`, made
 * from its first 16 bytes (made once per run): a lease command makes one
 * per entry it leases.
 */
export function runTagMaker(queueHash: bigint, leaseId: bigint): (offset: number) => Uint8Array {
  const prefix = runTag(queueHash, leaseId, 0).subarray(0, 16);
  return (offset) => {
    const out = new Uint8Array(RUN_TAG_BYTES);
    out.set(prefix);
    out[16] = offset >>> 24;
    out[17] = (offset >>> 16) & 0xff;
    out[18] = (offset >>> 8) & 0xff;
    out[19] = offset & 0xff;
    return out;
  };
}

/** The offset a run lease's tag (RUN_TAG_BYTES) names: its last 4 bytes. */
export function runTagOffset(tag: Uint8Array): number {
  return ((tag[16]! << 24) | (tag[17]! << 16) | (tag[18]! << 8) | tag[19]!) >>> 0;
}

/** What a run lease's tag names: its queue, lease and offset; undefined for a tag of another length. */
export function runTagParts(
  tag: Uint8Array,
): { readonly queueHash: bigint; readonly leaseId: bigint; readonly offset: number } | undefined {
  if (tag.length !== RUN_TAG_BYTES) return undefined;
  const view = new DataView(tag.buffer, tag.byteOffset, RUN_TAG_BYTES);
  return { queueHash: view.getBigUint64(0), leaseId: view.getBigUint64(8), offset: view.getUint32(16) };
}

/** The queue a delivery tag (of any kind) names: its first 8 bytes. */
export function tagQueue(tag: Uint8Array): bigint {
  if (tag.length < 8) throw new RangeError(`a delivery tag is at least 8 bytes, got ${tag.length}`);
  return new DataView(tag.buffer, tag.byteOffset, 8).getBigUint64(0);
}

/** A queue hash as the 8 bytes a key of its queue starts with (`inQueue`). */
export function queueHashBytes(queueHash: bigint): Uint8Array {
  checkU64(queueHash, 'queueHash');
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, queueHash);
  return out;
}

/** Whether a key (a tag) belongs to the queue whose `queueHashBytes` these are: no bigint per key. */
export function inQueue(key: Uint8Array, hashBytes: Uint8Array): boolean {
  if (key.length < 8) return false;
  for (let i = 0; i < 8; i++) if (key[i] !== hashBytes[i]) return false;
  return true;
}

/** Throws RangeError naming the problem when `key` is not a 24-byte queue key. */
export function decodeKey(key: Uint8Array): QueueKey {
  if (key.length !== KEY_BYTES) {
    throw new RangeError(`a queue key is ${KEY_BYTES} bytes, got ${key.length}`);
  }
  const view = new DataView(key.buffer, key.byteOffset, KEY_BYTES);
  return { queueHash: view.getBigUint64(0), due: view.getBigUint64(8), id: view.getBigUint64(16) };
}

/**
 * A queue key's due field as a number (bytes 8..16, big-endian), without a
 * bigint: the due read makes one per entry it meets. Due fields are ms or
 * time buckets, far below 2^53.
 */
export function keyDueOf(key: Uint8Array): number {
  const hi = ((key[8]! << 24) | (key[9]! << 16) | (key[10]! << 8) | key[11]!) >>> 0;
  const lo = ((key[12]! << 24) | (key[13]! << 16) | (key[14]! << 8) | key[15]!) >>> 0;
  return hi * 2 ** 32 + lo;
}

/** The next 24-byte key after `key` (the id plus one): where a scan that met `key` last goes on. */
export function keyAfter(key: Uint8Array): Uint8Array {
  // A copy even of a Buffer (whose `slice` is a view).
  const out = new Uint8Array(KEY_BYTES);
  out.set(key.subarray(0, KEY_BYTES));
  for (let i = KEY_BYTES - 1; i >= 0; i--) {
    out[i] = (out[i]! + 1) & 0xff;
    if (out[i] !== 0) return out;
  }
  throw new RangeError('no key after the last possible one');
}

/** First possible key of a queue (inclusive). */
export function queueLowerBound(queueHash: bigint): Uint8Array {
  return encodeKey(queueHash, 0n, 0n);
}

/**
 * First key after a queue (exclusive), or `undefined` when the queue's hash is
 * all 0xff bytes and no 24-byte key sorts after it: the caller then bounds the
 * scan by the end of the namespace.
 */
export function queueUpperBound(queueHash: bigint): Uint8Array | undefined {
  checkU64(queueHash, 'queueHash');
  return queueHash === U64_MAX ? undefined : encodeKey(queueHash + 1n, 0n, 0n);
}

/**
 * Exclusive upper bound of "due by `nowMs`" in a queue: every key whose due field
 * is <= dueField(nowMs). With buckets this includes the whole current bucket;
 * the caller compares the exact due time stored in the value.
 */
export function dueUpperBound(queueHash: bigint, nowMs: bigint, timeBucketMs = 0n): Uint8Array | undefined {
  const due = dueField(nowMs, timeBucketMs);
  return due === U64_MAX ? queueUpperBound(queueHash) : encodeKey(queueHash, due + 1n, 0n);
}

/**
 * The due field of a message waiting behind its ordering key's front
 * (docs/design.md, "Per-key ordering"): past every due time, so a waiting
 * entry sorts after every entry of its queue that a due read may take, and
 * a read that stops before `waitingLowerBound` never meets one. Due fields of
 * real due times (ms or buckets) are far below it.
 */
export const WAITING_DUE = U64_MAX;

/** The queue key of a message `id` of queue `queueHash` waiting for its ordering key. */
export function waitingKey(queueHash: bigint, id: bigint): Uint8Array {
  return encodeKey(queueHash, WAITING_DUE, id);
}

/** The first waiting key of a queue: every due key of the queue sorts before it. */
export function waitingLowerBound(queueHash: bigint): Uint8Array {
  return encodeKey(queueHash, WAITING_DUE, 0n);
}

/** Whether a 24-byte queue key is a waiting key (its due field all 0xff bytes). */
export function isWaitingKey(key: Uint8Array): boolean {
  if (key.length < KEY_BYTES) return false;
  for (let i = 8; i < 16; i++) if (key[i] !== 0xff) return false;
  return true;
}
