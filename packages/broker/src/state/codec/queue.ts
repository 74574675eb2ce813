// QueueRecord (records.proto) through protobufjs: written once per queue per batch.
import { toUint64, v1 } from '@fermata/protocol';
import type { QueueRec } from '../model/records.js';
import { n64 } from './shared.js';

export function encodeQueue(q: QueueRec): Uint8Array {
  return v1.QueueRecord.encode({
    topic: q.topic,
    group: q.group,
    pending: toUint64(BigInt(q.pending)),
    inFlight: toUint64(BigInt(q.inFlight)),
    deadLettered: toUint64(BigInt(q.deadLettered)),
    dueLoad: q.dueLoad === true,
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
    ...(m.dueLoad ? { dueLoad: true } : {}),
  };
}
