// ScheduleRecord and ScheduleDefinition (schedules.proto) through protobufjs: read per fire, not per message.
import { type pb, v1 } from '@fermata/protocol';
import type { CatchUpPolicy, DstPolicy, ScheduleDef, ScheduleRec } from '../model/schedules.js';
import { i64, n64 } from './shared.js';

const CATCH_UP: Record<CatchUpPolicy, number> = {
  none: v1.CatchUp.CATCH_UP_NONE,
  latest: v1.CatchUp.CATCH_UP_LATEST,
  all: v1.CatchUp.CATCH_UP_ALL,
};

export function catchUpFromProto(v: number | null | undefined): CatchUpPolicy {
  return v === v1.CatchUp.CATCH_UP_LATEST ? 'latest' : v === v1.CatchUp.CATCH_UP_ALL ? 'all' : 'none';
}

export function dstFromProto(v: number | null | undefined): DstPolicy {
  return v === v1.DstPolicy.DST_POLICY_BOTH ? 'both' : 'once';
}

export function defToProto(d: ScheduleDef): pb.ScheduleDefinition.$Properties {
  return {
    topic: d.topic,
    name: d.name,
    spec: d.spec,
    timeZone: d.timeZone,
    payload: d.payload,
    headers: { ...d.headers },
    keyTemplate: d.keyTemplate,
    startAtMs: i64(d.startAtMs),
    endAtMs: i64(d.endAtMs),
    jitterMs: i64(d.jitterMs),
    catchUp: CATCH_UP[d.catchUp],
    dstPolicy: d.dstPolicy === 'both' ? v1.DstPolicy.DST_POLICY_BOTH : v1.DstPolicy.DST_POLICY_ONCE,
    misfireThresholdMs: i64(d.misfireThresholdMs),
    paused: d.paused,
  };
}

/** `field` prefixes the name of an out-of-range time (a client's request: 'schedule.'). */
export function defFromProto(d: pb.ScheduleDefinition.$Properties | null | undefined): ScheduleDef {
  return {
    topic: d?.topic ?? '',
    name: d?.name ?? '',
    spec: d?.spec ?? '',
    timeZone: d?.timeZone ?? '',
    payload: d?.payload ?? new Uint8Array(0),
    headers: { ...(d?.headers ?? {}) },
    keyTemplate: d?.keyTemplate ?? '',
    startAtMs: n64(d?.startAtMs),
    endAtMs: n64(d?.endAtMs),
    jitterMs: n64(d?.jitterMs),
    catchUp: catchUpFromProto(d?.catchUp),
    dstPolicy: dstFromProto(d?.dstPolicy),
    misfireThresholdMs: n64(d?.misfireThresholdMs),
    paused: d?.paused ?? false,
  };
}

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
