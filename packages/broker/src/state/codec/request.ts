// RequestRecord (records.proto) through protobufjs: one per publish request with an idempotency key.
import { toBigInt, toUint64, v1 } from '@fermata/protocol';
import type { RequestRec } from '../model/records.js';
import { i64, n64 } from './shared.js';

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
