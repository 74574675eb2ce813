/**
 * PublishRecord (records.proto), written and read by hand (wire.ts): one per
 * command that makes messages carrying their body inline, read by every
 * lookup by id of such a message. The bytes equal protobufjs's
 * (state-record-codec.test.ts).
 */
import { encodeKey, KEY_BYTES } from '../../keys.js';
import type { PublishRec } from '../model/records.js';
import { writer } from './shared.js';
import { unzigzag64, WIRE_I64, WIRE_LEN, WIRE_VARINT, WireReader, zigzag64 } from './wire.js';

const keyView = (key: Uint8Array) => new DataView(key.buffer, key.byteOffset, KEY_BYTES);

/** `rec.keys` in id order, the first one's id `rec.firstId`. */
export function encodePublish(rec: PublishRec): Uint8Array {
  const queues: bigint[] = [];
  const queueAt = new Map<bigint, number>();
  const idDeltas: bigint[] = [];
  const queueIndex: bigint[] = [];
  const dueDeltas: bigint[] = [];
  let lastId = rec.firstId;
  let lastDue = 0n;
  for (const key of rec.keys) {
    const v = keyView(key);
    const hash = v.getBigUint64(0);
    const due = v.getBigUint64(8);
    const id = v.getBigUint64(16);
    let q = queueAt.get(hash);
    if (q === undefined) {
      q = queues.length;
      queues.push(hash);
      queueAt.set(hash, q);
    }
    if (id < lastId) throw new RangeError(`publish record of ${rec.firstId}: id ${id} out of order`);
    idDeltas.push(id - lastId);
    queueIndex.push(BigInt(q));
    dueDeltas.push(zigzag64(due - lastDue));
    lastId = id;
    lastDue = due;
  }
  const w = writer.reset();
  if (queues.length > 0) {
    w.tag(1, WIRE_LEN).varint(8 * queues.length);
    for (const h of queues) w.fixed64(h);
  }
  w.packed64(2, idDeltas).packed64(3, queueIndex).packed64(4, dueDeltas);
  if (rec.latestDueMs !== 0) w.tag(5, WIRE_VARINT).varint(rec.latestDueMs);
  return w.finish();
}

/** The record stored under `firstId`. */
export function decodePublish(firstId: bigint, bytes: Uint8Array): PublishRec {
  const r = new WireReader(bytes);
  const queues: bigint[] = [];
  const idDeltas: bigint[] = [];
  const queueIndex: bigint[] = [];
  const dueDeltas: bigint[] = [];
  let latestDueMs = 0;
  while (!r.done) {
    const tag = r.varint();
    const wt = tag & 7;
    switch (tag >>> 3) {
      case 1:
        if (wt === WIRE_LEN) {
          const p = r.sub();
          while (!p.done) queues.push(p.fixed64());
          continue;
        }
        if (wt !== WIRE_I64) break;
        queues.push(r.fixed64());
        continue;
      case 2:
        if (r.repeated64(wt, idDeltas)) continue;
        break;
      case 3:
        if (r.repeated64(wt, queueIndex)) continue;
        break;
      case 4:
        if (r.repeated64(wt, dueDeltas)) continue;
        break;
      case 5:
        if (wt !== WIRE_VARINT) break;
        latestDueMs = r.varint();
        continue;
    }
    r.skip(wt);
  }
  if (idDeltas.length !== queueIndex.length || idDeltas.length !== dueDeltas.length) {
    throw new RangeError(`publish record of ${firstId}: ${idDeltas.length} ids, ${queueIndex.length} queues`);
  }
  const keys: Uint8Array[] = [];
  let id = firstId;
  let due = 0n;
  for (let i = 0; i < idDeltas.length; i++) {
    id += idDeltas[i]!;
    due = BigInt.asUintN(64, due + unzigzag64(dueDeltas[i]!));
    const hash = queues[Number(queueIndex[i]!)];
    if (hash === undefined) throw new RangeError(`publish record of ${firstId}: no queue ${queueIndex[i]}`);
    keys.push(encodeKey(hash, due, id));
  }
  return { firstId, keys, latestDueMs };
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

/** The queue key `id` was published under, as the record lists it; undefined when it does not. */
export function publishedKey(rec: PublishRec, id: bigint): Uint8Array | undefined {
  for (const key of rec.keys) {
    const at = keyView(key).getBigUint64(16);
    if (at === id) return key;
    if (at > id) return undefined;
  }
  return undefined;
}
