/**
 * LeaseRecord and LeaseSettles (records.proto), written and read by hand
 * (wire.ts): a lease writes the run's record once; each command that
 * settles or extends offsets of it rewrites its settles, a few bytes. The
 * bytes equal protobufjs's (state-record-codec.test.ts).
 */
import { KEY_BYTES } from '../../keys.js';
import type { LeaseRun } from '../model/records.js';
import { writer } from './shared.js';
import { WIRE_I64, WIRE_LEN, WIRE_VARINT, WireReader } from './wire.js';

/** `bytes` without its trailing zero bytes (a bitmap as stored). */
function trimmed(bytes: Uint8Array): Uint8Array {
  let n = bytes.length;
  while (n > 0 && bytes[n - 1] === 0) n--;
  return n === bytes.length ? bytes : bytes.subarray(0, n);
}

/** The run's record (its lease id is the key, not in the value): what no settle changes. */
export function encodeLease(run: LeaseRun): Uint8Array {
  const w = writer.reset();
  if (run.topic !== '') w.tag(1, WIRE_LEN).string(run.topic);
  if (run.group !== '') w.tag(2, WIRE_LEN).string(run.group);
  if (run.queueHash !== 0n) w.tag(3, WIRE_I64).fixed64(run.queueHash);
  if (run.consumer !== 0n) w.tag(4, WIRE_VARINT).varint64(run.consumer);
  if (run.nowMs !== 0) w.tag(5, WIRE_VARINT).varint(run.nowMs);
  if (run.leaseMs !== 0) w.tag(6, WIRE_VARINT).varint(run.leaseMs);
  if (run.length > 0) w.tag(7, WIRE_LEN).bytes(run.keyBytes.subarray(0, run.length * KEY_BYTES));
  w.packed(8, run.startOffsets);
  const side = trimmed(run.sideRecords);
  if (side.length > 0) w.tag(9, WIRE_LEN).bytes(side);
  return w.finish();
}

/** The run's settles record: its settled bitmap and extensions. */
export function encodeLeaseSettles(run: LeaseRun): Uint8Array {
  const w = writer.reset();
  const settled = trimmed(run.settled);
  if (settled.length > 0) w.tag(1, WIRE_LEN).bytes(settled);
  if (run.extendedEndMs.size > 0) {
    const extended = [...run.extendedEndMs.keys()].sort((a, b) => a - b);
    w.packed(2, extended).packed(
      3,
      extended.map((o) => run.extendedEndMs.get(o)!),
    );
  }
  return w.finish();
}

const NO_EXTENSIONS: ReadonlyMap<number, number> = new Map();

/**
 * The run stored under `leaseId`: its record, and its settles record if one
 * is stored (none: no offset settled or extended yet).
 */
export function decodeLease(leaseId: bigint, bytes: Uint8Array, settles?: Uint8Array): LeaseRun {
  const r = new WireReader(bytes);
  let topic = '';
  let group = '';
  let queueHash = 0n;
  let consumer = 0n;
  let nowMs = 0;
  let leaseMs = 0;
  let keys: Uint8Array = new Uint8Array(0);
  const startOffsets: number[] = [];
  let side: Uint8Array = new Uint8Array(0);
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
        if (wt !== WIRE_LEN) break;
        keys = r.bytes();
        continue;
      case 8:
        if (r.repeated(wt, startOffsets)) continue;
        break;
      case 9:
        if (wt !== WIRE_LEN) break;
        side = r.bytes();
        continue;
    }
    r.skip(wt);
  }
  const n = startOffsets.length;
  if (keys.length !== n * KEY_BYTES) {
    throw new RangeError(`lease record ${leaseId}: ${keys.length} bytes of keys for ${n} starts`);
  }
  // Bitmaps as long as the run; trailing bytes with no bit set are not stored.
  const bitmapBytes = (n + 7) >> 3;
  const sideRecords = new Uint8Array(bitmapBytes);
  sideRecords.set(side.subarray(0, bitmapBytes));
  const settled = new Uint8Array(bitmapBytes);
  let extendedEndMs = NO_EXTENSIONS;
  if (settles) {
    const s = decodeSettles(leaseId, settles);
    settled.set(s.settled.subarray(0, bitmapBytes));
    if (s.extended.length > 0) {
      const ends = new Map<number, number>();
      s.extended.forEach((o, i) => {
        ends.set(o, s.extendedEnds[i]!);
      });
      extendedEndMs = ends;
    }
  }
  let open = n;
  for (let i = 0; i < n; i++) if ((settled[i >> 3]! & (1 << (i & 7))) !== 0) open--;
  return {
    leaseId,
    topic,
    group,
    queueHash,
    consumer,
    nowMs,
    leaseMs,
    length: n,
    // Memory of its own: the record's bytes may be a view into a larger buffer.
    keyBytes: keys.slice(),
    startOffsets,
    sideRecords,
    settled,
    extendedEndMs,
    open,
  };
}

function decodeSettles(
  leaseId: bigint,
  bytes: Uint8Array,
): { settled: Uint8Array; extended: number[]; extendedEnds: number[] } {
  const r = new WireReader(bytes);
  let settled: Uint8Array = new Uint8Array(0);
  const extended: number[] = [];
  const extendedEnds: number[] = [];
  while (!r.done) {
    const tag = r.varint();
    const wt = tag & 7;
    switch (tag >>> 3) {
      case 1:
        if (wt !== WIRE_LEN) break;
        settled = r.bytes();
        continue;
      case 2:
        if (r.repeated(wt, extended)) continue;
        break;
      case 3:
        if (r.repeated(wt, extendedEnds)) continue;
        break;
    }
    r.skip(wt);
  }
  if (extended.length !== extendedEnds.length) {
    throw new RangeError(
      `lease settles ${leaseId}: ${extended.length} extended offsets, ${extendedEnds.length} ends`,
    );
  }
  return { settled, extended, extendedEnds };
}
