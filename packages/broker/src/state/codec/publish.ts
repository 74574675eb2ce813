/**
 * PublishRecord (records.proto), written and read by hand (wire.ts): one per
 * command that makes messages carrying their body inline, read by every
 * lookup by id of such a message and by the janitor's check of whether it is
 * still needed. Keys are handled as bytes, their fields as numbers (ids and
 * due fields far below 2^52), with a bigint path for any that is not. The
 * bytes equal protobufjs's (state-record-codec.test.ts).
 */
import { KEY_BYTES } from '../../keys.js';
import type { PublishRec } from '../model/records.js';
import { writer } from './shared.js';
import {
  unzigzag64,
  WIRE_I64,
  WIRE_LEN,
  WIRE_VARINT,
  WireReader,
  type WireWriter,
  zigzag64,
} from './wire.js';

/** Fields at or past this go the bigint way: their zigzagged deltas could pass 2^53. */
const NUMBER_LIMIT = 2 ** 52;

/** The big-endian uint64 at `at` in `b` as a number; -1 at or past NUMBER_LIMIT. */
function field(b: Uint8Array, at: number): number {
  const hi = ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
  if (hi >= NUMBER_LIMIT / 2 ** 32) return -1;
  return hi * 2 ** 32 + (((b[at + 4]! << 24) | (b[at + 5]! << 16) | (b[at + 6]! << 8) | b[at + 7]!) >>> 0);
}

/** The big-endian uint64 at `at` in `b`. */
function field64(b: Uint8Array, at: number): bigint {
  return new DataView(b.buffer, b.byteOffset + at, 8).getBigUint64(0);
}

/** Writes `v` (a number below NUMBER_LIMIT, or a bigint) as a big-endian uint64 at `at` in `b`. */
function setField(b: Uint8Array, at: number, v: number | bigint): void {
  if (typeof v === 'bigint') {
    new DataView(b.buffer, b.byteOffset + at, 8).setBigUint64(0, v);
    return;
  }
  const hi = Math.floor(v / 2 ** 32);
  const lo = v >>> 0;
  b[at] = hi >>> 24;
  b[at + 1] = (hi >>> 16) & 0xff;
  b[at + 2] = (hi >>> 8) & 0xff;
  b[at + 3] = hi & 0xff;
  b[at + 4] = lo >>> 24;
  b[at + 5] = (lo >>> 16) & 0xff;
  b[at + 6] = (lo >>> 8) & 0xff;
  b[at + 7] = lo & 0xff;
}

function sameBytes(a: Uint8Array, at: number, b: Uint8Array, bt: number, n: number): boolean {
  for (let i = 0; i < n; i++) if (a[at + i] !== b[bt + i]) return false;
  return true;
}

/** The record's keys' count. */
export const publishCount = (rec: PublishRec): number => rec.keyBytes.length / KEY_BYTES;

/** `rec.keyBytes` (24 bytes per key) in id order, the first one's id `rec.firstId`. */
export function encodePublish(rec: PublishRec): Uint8Array {
  const keys = rec.keyBytes;
  const n = keys.length / KEY_BYTES;
  // The queues table: the offset of the first key of each queue, in order of first use.
  const queueAt: number[] = [];
  const queueOf = new Array<number>(n);
  let numbers = rec.firstId < BigInt(NUMBER_LIMIT);
  for (let i = 0, at = 0; i < n; i++, at += KEY_BYTES) {
    let q = i > 0 && sameBytes(keys, at, keys, at - KEY_BYTES, 8) ? queueOf[i - 1]! : -1;
    for (let j = 0; q < 0 && j < queueAt.length; j++) if (sameBytes(keys, at, keys, queueAt[j]!, 8)) q = j;
    if (q < 0) {
      q = queueAt.length;
      queueAt.push(at);
    }
    queueOf[i] = q;
    if (numbers && (field(keys, at + 8) < 0 || field(keys, at + 16) < 0)) numbers = false;
  }
  const w = writer.reset();
  if (queueAt.length > 0) {
    w.tag(1, WIRE_LEN).varint(8 * queueAt.length);
    // fixed64: little-endian, the key's bytes reversed.
    for (const at of queueAt) for (let i = 7; i >= 0; i--) w.byte(keys[at + i]!);
  }
  if (numbers) writeNumbers(w, rec, queueOf);
  else writeBigints(w, rec, queueOf);
  if (rec.latestDueMs !== 0) w.tag(5, WIRE_VARINT).varint(rec.latestDueMs);
  return w.finish();
}

function u64Bytes(v: bigint): Uint8Array {
  const out = new Uint8Array(8);
  setField(out, 0, v);
  return out;
}

/** Fields 2-4, every id and due field below NUMBER_LIMIT. */
function writeNumbers(w: WireWriter, rec: PublishRec, queueOf: readonly number[]): void {
  const keys = rec.keyBytes;
  const n = queueOf.length;
  if (n === 0) return;
  let at = w.tag(2, WIRE_LEN).beginLength();
  let last = Number(rec.firstId);
  for (let i = 0; i < n; i++) {
    const id = field(keys, i * KEY_BYTES + 16);
    if (id < last) throw new RangeError(`publish record of ${rec.firstId}: id ${id} out of order`);
    w.varint(id - last);
    last = id;
  }
  w.endLength(at);
  at = w.tag(3, WIRE_LEN).beginLength();
  for (let i = 0; i < n; i++) w.varint(queueOf[i]!);
  w.endLength(at);
  at = w.tag(4, WIRE_LEN).beginLength();
  let lastDue = 0;
  for (let i = 0; i < n; i++) {
    const due = field(keys, i * KEY_BYTES + 8);
    const d = due - lastDue;
    w.varint(d >= 0 ? 2 * d : -2 * d - 1);
    lastDue = due;
  }
  w.endLength(at);
}

/** Fields 2-4 the bigint way (an id or due field at or past NUMBER_LIMIT). */
function writeBigints(w: WireWriter, rec: PublishRec, queueOf: readonly number[]): void {
  const keys = rec.keyBytes;
  const idDeltas: bigint[] = [];
  const dueDeltas: bigint[] = [];
  let lastId = rec.firstId;
  let lastDue = 0n;
  for (let i = 0; i < queueOf.length; i++) {
    const id = field64(keys, i * KEY_BYTES + 16);
    const due = field64(keys, i * KEY_BYTES + 8);
    if (id < lastId) throw new RangeError(`publish record of ${rec.firstId}: id ${id} out of order`);
    idDeltas.push(id - lastId);
    dueDeltas.push(zigzag64(due - lastDue));
    lastId = id;
    lastDue = due;
  }
  w.packed64(2, idDeltas).packed(3, queueOf).packed64(4, dueDeltas);
}

/** The record stored under `firstId`. */
export function decodePublish(firstId: bigint, bytes: Uint8Array): PublishRec {
  const r = new WireReader(bytes);
  const queues: Uint8Array[] = [];
  // Where the packed fields 2-4 lie (protobuf writes them packed); a field met unpacked goes the
  // general way.
  const ranges = [-1, -1, -1, -1, -1, -1];
  let packed = true;
  let latestDueMs = 0;
  while (!r.done) {
    const tag = r.varint();
    const wt = tag & 7;
    const f = tag >>> 3;
    if (f === 1) {
      if (wt === WIRE_LEN) {
        const p = r.sub();
        while (!p.done) queues.push(p.fixed64Bytes());
        continue;
      }
      if (wt === WIRE_I64) {
        queues.push(r.fixed64Bytes());
        continue;
      }
    } else if (f >= 2 && f <= 4) {
      if (wt === WIRE_LEN && ranges[(f - 2) * 2]! < 0) {
        const end = r.lengthEnd();
        ranges[(f - 2) * 2] = r.pos;
        ranges[(f - 2) * 2 + 1] = end;
        r.pos = end;
        continue;
      }
      packed = false;
    } else if (f === 5 && wt === WIRE_VARINT) {
      latestDueMs = r.varint();
      continue;
    }
    r.skip(wt);
  }
  const keyBytes =
    (packed && decodeNumbers(firstId, bytes, queues, ranges)) || decodeBigints(firstId, bytes, queues);
  return { firstId, keyBytes, latestDueMs };
}

/**
 * The keys of packed fields 2-4 at `ranges` with number arithmetic; undefined
 * when an id or due field reaches NUMBER_LIMIT (the bigint way then).
 */
function decodeNumbers(
  firstId: bigint,
  bytes: Uint8Array,
  queues: readonly Uint8Array[],
  ranges: readonly number[],
): Uint8Array | undefined {
  if (firstId >= BigInt(NUMBER_LIMIT)) return undefined;
  const reader = (f: number): WireReader => {
    const start = ranges[(f - 2) * 2]!;
    const r = new WireReader(bytes, start < 0 ? 0 : ranges[(f - 2) * 2 + 1]!);
    r.pos = Math.max(start, 0);
    return r;
  };
  const ids = reader(2);
  const queueIndex = reader(3);
  const dues = reader(4);
  const keys: number[] = [];
  let id = Number(firstId);
  let due = 0;
  while (!ids.done) {
    const d = ids.smallVarint();
    const z = dues.done ? -1 : dues.smallVarint();
    if (d < 0 || z < 0 || queueIndex.done) return undefined;
    id += d;
    due += z % 2 === 0 ? z / 2 : -(z + 1) / 2;
    if (id >= NUMBER_LIMIT || due < 0 || due >= NUMBER_LIMIT) return undefined;
    keys.push(queueIndex.varint(), due, id);
  }
  if (!queueIndex.done || !dues.done) {
    throw new RangeError(`publish record of ${firstId}: ids, queues and due fields differ in number`);
  }
  const out = new Uint8Array((keys.length / 3) * KEY_BYTES);
  for (let i = 0, at = 0; i < keys.length; i += 3, at += KEY_BYTES) {
    const hash = queues[keys[i]!];
    if (hash === undefined) throw new RangeError(`publish record of ${firstId}: no queue ${keys[i]}`);
    out.set(hash, at);
    setField(out, at + 8, keys[i + 1]!);
    setField(out, at + 16, keys[i + 2]!);
  }
  return out;
}

/** The keys of a record, any way its fields were written, with bigint arithmetic. */
function decodeBigints(firstId: bigint, bytes: Uint8Array, queues: readonly Uint8Array[]): Uint8Array {
  const r = new WireReader(bytes);
  const idDeltas: bigint[] = [];
  const queueIndex: number[] = [];
  const dueDeltas: bigint[] = [];
  while (!r.done) {
    const tag = r.varint();
    const wt = tag & 7;
    switch (tag >>> 3) {
      case 2:
        if (r.repeated64(wt, idDeltas)) continue;
        break;
      case 3:
        if (r.repeated(wt, queueIndex)) continue;
        break;
      case 4:
        if (r.repeated64(wt, dueDeltas)) continue;
        break;
    }
    r.skip(wt);
  }
  const n = idDeltas.length;
  if (queueIndex.length !== n || dueDeltas.length !== n) {
    throw new RangeError(`publish record of ${firstId}: ${n} ids, ${queueIndex.length} queues`);
  }
  const keyBytes = new Uint8Array(n * KEY_BYTES);
  let id = firstId;
  let due = 0n;
  for (let i = 0; i < n; i++) {
    id += idDeltas[i]!;
    due = BigInt.asUintN(64, due + unzigzag64(dueDeltas[i]!));
    const hash = queues[queueIndex[i]!];
    if (hash === undefined) throw new RangeError(`publish record of ${firstId}: no queue ${queueIndex[i]}`);
    const at = i * KEY_BYTES;
    keyBytes.set(hash, at);
    setField(keyBytes, at + 8, due);
    setField(keyBytes, at + 16, id);
  }
  return keyBytes;
}

/** A record's latest due time (`PublishRec.latestDueMs`) without decoding its keys. */
export function publishLatestDueMs(bytes: Uint8Array): number {
  const r = new WireReader(bytes);
  let latestDueMs = 0;
  while (!r.done) {
    const tag = r.varint();
    const wt = tag & 7;
    if (tag >>> 3 === 5 && wt === WIRE_VARINT) latestDueMs = r.varint();
    else r.skip(wt);
  }
  return latestDueMs;
}

/** The queue key `id` was published under, as the record lists it (a copy); undefined when it does not. */
export function publishedKey(rec: PublishRec, id: bigint): Uint8Array | undefined {
  const want = u64Bytes(id);
  const keys = rec.keyBytes;
  // Keys are in id order: a binary search on their id bytes.
  let lo = 0;
  let hi = keys.length / KEY_BYTES;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const at = mid * KEY_BYTES + 16;
    let c = 0;
    for (let i = 0; i < 8 && c === 0; i++) c = keys[at + i]! - want[i]!;
    if (c === 0) return keys.slice(mid * KEY_BYTES, (mid + 1) * KEY_BYTES);
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return undefined;
}
