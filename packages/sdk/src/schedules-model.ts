import { int64FromSafe, type pb, toBigInt, toSafeNumber, v1 } from '@fermata/protocol';
import { type Payload, toBytes } from './payload.js';

/** After an outage, what happens to occurrences missed by more than the misfire threshold. */
export type CatchUp = 'none' | 'latest' | 'all';
/** A local time that occurs twice (fall-back) fires at its first instant (`once`) or at both. */
export type DstPolicy = 'once' | 'both';

/** A recurring schedule as a client defines it (docs/schedules.md). */
export interface ScheduleDefinition {
  /** 5- or 6-field cron (`0 9 * * 1-5`, seconds first when 6) or an interval (`every 15m`). */
  spec: string;
  /** IANA time zone of a cron spec (default UTC). */
  timeZone?: string;
  /** The payload of each occurrence's message. */
  payload?: Payload;
  headers?: Record<string, string>;
  /** Key of each occurrence's message: `{schedule}`, `{occurrence_ms}`, `{occurrence}` are replaced. */
  keyTemplate?: string;
  /** No occurrence before / after (epoch ms or Date). */
  startAt?: number | Date;
  endAt?: number | Date;
  /** Each message is due up to this many ms after its occurrence, the same every time for one occurrence. */
  jitterMs?: number;
  catchUp?: CatchUp;
  dstPolicy?: DstPolicy;
  /** An occurrence later than this is missed; 0 = the server's default (60 s). */
  misfireThresholdMs?: number;
  /** Create paused. */
  paused?: boolean;
}

/** A schedule as the cluster holds it. */
export interface RecurringSchedule {
  topic: string;
  name: string;
  spec: string;
  timeZone: string;
  payload: Uint8Array;
  headers: Record<string, string>;
  keyTemplate: string;
  startAtMs: number;
  endAtMs: number;
  jitterMs: number;
  catchUp: CatchUp;
  dstPolicy: DstPolicy;
  misfireThresholdMs: number;
  paused: boolean;
  createdAtMs: number;
  updatedAtMs: number;
  /** Occurrences turned into messages so far. */
  fired: bigint;
  /** Occurrences skipped after an outage (catch_up). */
  skipped: bigint;
  /** Instant of the last occurrence fired (0 = none). */
  lastFiredMs: number;
  /** The next occurrences after now, epoch ms (before jitter); empty when paused, ended or broken. */
  nextFireMs: number[];
  /** Why the next occurrence cannot be computed (the schedule fires nothing until changed); '' = it can. */
  broken: string;
}

/** The answer of pause, resume and delete: `unchanged` when it was already so. */
export type ScheduleStatus = 'done' | 'not-found' | 'unchanged';

const time = (v: number | Date | undefined): number => (v instanceof Date ? v.getTime() : (v ?? 0));

export function definitionToWire(
  topic: string,
  name: string,
  d: ScheduleDefinition,
): pb.ScheduleDefinition.$Properties {
  return {
    topic,
    name,
    spec: d.spec,
    timeZone: d.timeZone ?? '',
    payload: d.payload === undefined ? new Uint8Array(0) : toBytes(d.payload),
    headers: { ...(d.headers ?? {}) },
    keyTemplate: d.keyTemplate ?? '',
    startAtMs: int64FromSafe(time(d.startAt)),
    endAtMs: int64FromSafe(time(d.endAt)),
    jitterMs: int64FromSafe(d.jitterMs ?? 0),
    catchUp:
      d.catchUp === 'latest'
        ? v1.CatchUp.CATCH_UP_LATEST
        : d.catchUp === 'all'
          ? v1.CatchUp.CATCH_UP_ALL
          : v1.CatchUp.CATCH_UP_NONE,
    dstPolicy: d.dstPolicy === 'both' ? v1.DstPolicy.DST_POLICY_BOTH : v1.DstPolicy.DST_POLICY_ONCE,
    misfireThresholdMs: int64FromSafe(d.misfireThresholdMs ?? 0),
    paused: d.paused ?? false,
  };
}

export function scheduleFromWire(s: pb.Schedule.$Properties | null | undefined): RecurringSchedule {
  const d = s?.definition;
  const n = (v: Parameters<typeof toSafeNumber>[0], f: string) => toSafeNumber(v, f);
  return {
    topic: d?.topic ?? '',
    name: d?.name ?? '',
    spec: d?.spec ?? '',
    timeZone: d?.timeZone || 'UTC',
    payload: d?.payload ?? new Uint8Array(0),
    headers: { ...(d?.headers ?? {}) },
    keyTemplate: d?.keyTemplate ?? '',
    startAtMs: n(d?.startAtMs, 'start_at_ms'),
    endAtMs: n(d?.endAtMs, 'end_at_ms'),
    jitterMs: n(d?.jitterMs, 'jitter_ms'),
    catchUp:
      d?.catchUp === v1.CatchUp.CATCH_UP_LATEST
        ? 'latest'
        : d?.catchUp === v1.CatchUp.CATCH_UP_ALL
          ? 'all'
          : 'none',
    dstPolicy: d?.dstPolicy === v1.DstPolicy.DST_POLICY_BOTH ? 'both' : 'once',
    misfireThresholdMs: n(d?.misfireThresholdMs, 'misfire_threshold_ms'),
    paused: s?.paused ?? false,
    createdAtMs: n(s?.createdAtMs, 'created_at_ms'),
    updatedAtMs: n(s?.updatedAtMs, 'updated_at_ms'),
    fired: toBigInt(s?.fired),
    skipped: toBigInt(s?.skipped),
    lastFiredMs: n(s?.lastFiredMs, 'last_fired_ms'),
    nextFireMs: (s?.nextFireMs ?? []).map((t) => n(t, 'next_fire_ms')),
    broken: s?.broken ?? '',
  };
}

export function scheduleStatusFromWire(v: number | null | undefined): ScheduleStatus {
  return v === v1.ScheduleStatus.SCHEDULE_STATUS_NOT_FOUND
    ? 'not-found'
    : v === v1.ScheduleStatus.SCHEDULE_STATUS_UNCHANGED
      ? 'unchanged'
      : 'done';
}
