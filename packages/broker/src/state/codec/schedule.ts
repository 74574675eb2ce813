// ScheduleRecord (schedules.proto) through protobufjs: read per fire, not per message. Its
// definition is mapped by model/schedules.ts (the API and the schedule command carry it too).
import { v1 } from '@fermata/protocol';
import { defFromProto, defToProto, type ScheduleRec } from '../model/schedules.js';
import { i64, n64 } from './shared.js';

export function encodeSchedule(r: ScheduleRec): Uint8Array {
  return v1.ScheduleRecord.encode({
    definition: defToProto(r.def),
    paused: r.paused,
    cursorMs: i64(r.cursorMs),
    generation: i64(r.generation),
    createdAtMs: i64(r.createdAtMs),
    updatedAtMs: i64(r.updatedAtMs),
    fired: i64(r.fired),
    skipped: i64(r.skipped),
    lastFiredMs: i64(r.lastFiredMs),
    owner: r.owner ?? '',
  }).finish();
}

export function decodeSchedule(bytes: Uint8Array): ScheduleRec {
  const m = v1.ScheduleRecord.decode(bytes);
  return {
    def: defFromProto(m.definition),
    paused: m.paused,
    cursorMs: n64(m.cursorMs),
    generation: n64(m.generation),
    createdAtMs: n64(m.createdAtMs),
    updatedAtMs: n64(m.updatedAtMs),
    fired: n64(m.fired),
    skipped: n64(m.skipped),
    lastFiredMs: n64(m.lastFiredMs),
    ...(m.owner ? { owner: m.owner } : {}),
  };
}
