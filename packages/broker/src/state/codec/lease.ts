/**
 * LeaseRecord (records.proto), written and read by hand (wire.ts): one per
 * lease round of a consumer, rewritten by the acks that settle it. The bytes
 * equal protobufjs's (state-record-codec.test.ts).
 */
import { encodeKey, KEY_BYTES } from '../../keys.js';
import type { LeaseRun } from '../model/records.js';
import { writer } from './shared.js';
import { unzigzag64, WIRE_I64, WIRE_LEN, WIRE_VARINT, WireReader, zigzag64 } from './wire.js';

const U64 = (1n << 64n) - 1n;

/** The run's record (its lease id is the key, not in the value). Trailing zero bytes of `settled` are left out. */
export function encodeLease(run: LeaseRun): Uint8Array {
  const dueDeltas: bigint[] = [];
  const idDeltas: bigint[] = [];
  let lastDue = 0n;
  let lastId = 0n;
  for (const key of run.keys) {
    const v = new DataView(key.buffer, key.byteOffset, KEY_BYTES);
    const due = v.getBigUint64(8);
    const id = v.getBigUint64(16);
    dueDeltas.push(zigzag64(due - lastDue));
    idDeltas.push(zigzag64(id - lastId));
    lastDue = due;
    lastId = id;
  }
  let settledBytes = run.settled.length;
  while (settledBytes > 0 && run.settled[settledBytes - 1] === 0) settledBytes--;
  const extended = [...run.extendedEndMs.keys()].sort((a, b) => a - b);
  const w = writer.reset();
  if (run.topic !== '') w.tag(1, WIRE_LEN).string(run.topic);
  if (run.group !== '') w.tag(2, WIRE_LEN).string(run.group);
  if (run.queueHash !== 0n) w.tag(3, WIRE_I64).fixed64(run.queueHash);
  if (run.consumer !== 0n) w.tag(4, WIRE_VARINT).varint64(run.consumer);
  if (run.nowMs !== 0) w.tag(5, WIRE_VARINT).varint(run.nowMs);
  if (run.leaseMs !== 0) w.tag(6, WIRE_VARINT).varint(run.leaseMs);
  w.packed64(7, dueDeltas).packed64(8, idDeltas).packed(9, run.startOffsets);
  if (settledBytes > 0) w.tag(10, WIRE_LEN).bytes(run.settled.subarray(0, settledBytes));
  w.packed(11, extended).packed(
    12,
    extended.map((o) => run.extendedEndMs.get(o)!),
  );
  return w.finish();
}

/** The record stored under `leaseId`. */
export function decodeLease(leaseId: bigint, bytes: Uint8Array): LeaseRun {
  const r = new WireReader(bytes);
  let topic = '';
  let group = '';
  let queueHash = 0n;
  let consumer = 0n;
  let nowMs = 0;
  let leaseMs = 0;
  const dueDeltas: bigint[] = [];
  const idDeltas: bigint[] = [];
  const startOffsets: number[] = [];
  let settledBytes: Uint8Array = new Uint8Array(0);
  const extended: number[] = [];
  const extendedEnds: number[] = [];
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
        group = r.string();
        continue;
      case 3:
        if (wt !== WIRE_I64) break;
        queueHash = r.fixed64();
        continue;
      case 4:
        if (wt !== WIRE_VARINT) break;
        consumer = r.varint64();
        continue;
      case 5:
        if (wt !== WIRE_VARINT) break;
        nowMs = r.varint();
        continue;
      case 6:
        if (wt !== WIRE_VARINT) break;
        leaseMs = r.varint();
        continue;
      case 7:
        if (r.repeated64(wt, dueDeltas)) continue;
        break;
      case 8:
        if (r.repeated64(wt, idDeltas)) continue;
        break;
      case 9:
        if (r.repeated(wt, startOffsets)) continue;
        break;
      case 10:
        if (wt !== WIRE_LEN) break;
        settledBytes = r.bytes();
        continue;
      case 11:
        if (r.repeated(wt, extended)) continue;
        break;
      case 12:
        if (r.repeated(wt, extendedEnds)) continue;
        break;
    }
    r.skip(wt);
  }
  const n = dueDeltas.length;
  if (idDeltas.length !== n || startOffsets.length !== n || extended.length !== extendedEnds.length) {
    throw new RangeError(
      `lease record ${leaseId}: ${n} keys, ${idDeltas.length} ids, ${startOffsets.length} starts`,
    );
  }
  const keys: Uint8Array[] = [];
  let due = 0n;
  let id = 0n;
  for (let i = 0; i < n; i++) {
    due = (due + unzigzag64(dueDeltas[i]!)) & U64;
    id = (id + unzigzag64(idDeltas[i]!)) & U64;
    keys.push(encodeKey(queueHash, due, id));
  }
  // The bitmap is as long as the run; trailing bytes with no bit set are not stored.
  const settled = new Uint8Array((n + 7) >> 3);
  settled.set(settledBytes.subarray(0, settled.length));
  let open = n;
  for (let i = 0; i < n; i++) if ((settled[i >> 3]! & (1 << (i & 7))) !== 0) open--;
  const extendedEndMs = new Map<number, number>();
  extended.forEach((o, i) => {
    extendedEndMs.set(o, extendedEnds[i]!);
  });
  return {
    leaseId,
    topic,
    group,
    queueHash,
    consumer,
    nowMs,
    leaseMs,
    keys,
    startOffsets,
    settled,
    extendedEndMs,
    open,
  };
}
