// KeyRecord (records.proto) through protobufjs: only messages published with a key have one.
import { toBigInt, toUint64, v1 } from '@fermata/protocol';
import type { KeyRec } from '../model/records.js';
import { i64, n64 } from './shared.js';

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
