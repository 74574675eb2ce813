/**
 * A recurring schedule as plain data (schedules.proto's ScheduleDefinition and
 * ScheduleRecord), and its definition as the protocol carries it (the API,
 * the schedule command and the stored record alike).
 */
import { int64FromSafe, type pb, toSafeNumber, v1 } from '@fermata/protocol';

export type CatchUpPolicy = 'none' | 'latest' | 'all';
export type DstPolicy = 'once' | 'both';

export interface ScheduleDef {
  readonly topic: string;
  readonly name: string;
  readonly spec: string;
  /** IANA name; '' = UTC. */
  readonly timeZone: string;
  readonly payload: Uint8Array;
  readonly headers: Readonly<Record<string, string>>;
  /** '' = no key. */
  readonly keyTemplate: string;
  /** 0 = unbounded. */
  readonly startAtMs: number;
  readonly endAtMs: number;
  readonly jitterMs: number;
  readonly catchUp: CatchUpPolicy;
  readonly dstPolicy: DstPolicy;
  /** 0 = limits.defaultMisfireThresholdMs. */
  readonly misfireThresholdMs: number;
  /** As the client asked on create (the record's `paused` is the state). */
  readonly paused: boolean;
}

export interface ScheduleRec {
  readonly def: ScheduleDef;
  readonly paused: boolean;
  /** Occurrences up to this instant are materialised or skipped. */
  readonly cursorMs: number;
  readonly generation: number;
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
  readonly fired: number;
  readonly skipped: number;
  readonly lastFiredMs: number;
  /** The token that created it ('' = none); its schedules count against its limit. */
  readonly owner?: string;
}

/** One schedule's share of a fire command (schedules.proto ScheduleFire). */
export interface ScheduleFire {
  readonly topic: string;
  readonly name: string;
  readonly generation: number;
  readonly afterMs: number;
  /** 0 = none skipped. */
  readonly skipToMs: number;
  readonly skipped: number;
  readonly occurrences: readonly number[];
}

/** Headers every occurrence's message carries. */
export const SCHEDULE_HEADER = 'fermata-schedule';
export const OCCURRENCE_HEADER = 'fermata-occurrence-ms';

const storedTime = (v: Parameters<typeof toSafeNumber>[0]): number => toSafeNumber(v, 'stored time');

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
    startAtMs: int64FromSafe(d.startAtMs),
    endAtMs: int64FromSafe(d.endAtMs),
    jitterMs: int64FromSafe(d.jitterMs),
    catchUp: CATCH_UP[d.catchUp],
    dstPolicy: d.dstPolicy === 'both' ? v1.DstPolicy.DST_POLICY_BOTH : v1.DstPolicy.DST_POLICY_ONCE,
    misfireThresholdMs: int64FromSafe(d.misfireThresholdMs),
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
    startAtMs: storedTime(d?.startAtMs),
    endAtMs: storedTime(d?.endAtMs),
    jitterMs: storedTime(d?.jitterMs),
    catchUp: catchUpFromProto(d?.catchUp),
    dstPolicy: dstFromProto(d?.dstPolicy),
    misfireThresholdMs: storedTime(d?.misfireThresholdMs),
    paused: d?.paused ?? false,
  };
}
