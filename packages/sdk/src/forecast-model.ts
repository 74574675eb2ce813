import { type pb, toInt64, toSafeNumber } from '@fermata/protocol';
import { InvalidArgumentError } from './errors.js';

/** The range and buckets of {@link FermataClient.dueForecast}. */
export interface DueForecastOptions {
  /** Default `default`. */
  group?: string;
  /** Start of the range (epoch ms or a Date); default now. Buckets start at it rounded down to a multiple of `bucketMs`. */
  from?: number | Date;
  /** End of the range, exclusive (epoch ms or a Date); default `from` + 60 buckets. */
  to?: number | Date;
  /**
   * Width of a bucket in ms, default 60,000: whole seconds below a minute,
   * whole minutes below an hour, whole hours below a day, or whole days (at
   * most 60). At most 1,440 buckets per call.
   */
  bucketMs?: number;
}

/** One bucket of a {@link DueForecast}. */
export interface ForecastBucket {
  startMs: number;
  endMs: number;
  /** Pending messages (not under a lease) due in [startMs, endMs). */
  count: number;
  /** Occurrences of the topic's schedules due in it: not messages yet; each becomes one when it fires. */
  scheduled: number;
}

/** What falls due when in a topic's group: {@link FermataClient.dueForecast}. */
export interface DueForecast {
  buckets: ForecastBucket[];
  /** Every pending message of the group, in the range or not (overdue, or due after it). */
  pending: number;
  /** Messages under a lease now, in no bucket: nacked or taken again after a lapse, they count again. */
  inFlight: number;
  /**
   * False: the group's queue was created by a server version that kept no
   * histogram and has not drained since; every `count` is 0 (`pending`
   * and `inFlight` are exact).
   */
  complete: boolean;
  /** True: the topic had more schedules or occurrences than one answer reads; `scheduled` is a lower bound. */
  schedulesTruncated: boolean;
}

function epochMs(value: number | Date, field: string): number {
  const ms = value instanceof Date ? value.getTime() : value;
  if (!(Number.isSafeInteger(ms) && ms >= 0)) {
    throw new InvalidArgumentError(`${field}: must be epoch ms >= 0 or a Date, got ${String(value)}`, field);
  }
  return ms;
}

export function forecastRequest(
  topic: string,
  options: DueForecastOptions,
  nowMs: number,
): pb.GetDueForecastRequest.$Properties {
  const bucketMs = options.bucketMs ?? 60_000;
  if (!(Number.isSafeInteger(bucketMs) && bucketMs > 0)) {
    throw new InvalidArgumentError(`bucketMs: must be a whole number of ms > 0, got ${bucketMs}`, 'bucketMs');
  }
  const fromMs = options.from === undefined ? nowMs : epochMs(options.from, 'from');
  const toMs = options.to === undefined ? fromMs + 60 * bucketMs : epochMs(options.to, 'to');
  return {
    topic,
    group: options.group ?? '',
    fromMs: toInt64(BigInt(fromMs)),
    toMs: toInt64(BigInt(toMs)),
    bucketMs: toInt64(BigInt(bucketMs)),
  };
}

export function forecastFromWire(res: pb.GetDueForecastResponse): DueForecast {
  return {
    buckets: res.buckets.map((b) => ({
      startMs: toSafeNumber(b.startMs, 'start_ms'),
      endMs: toSafeNumber(b.endMs, 'end_ms'),
      count: toSafeNumber(b.count, 'count'),
      scheduled: toSafeNumber(b.scheduled, 'scheduled'),
    })),
    pending: toSafeNumber(res.pending, 'pending'),
    inFlight: toSafeNumber(res.inFlight, 'in_flight'),
    complete: res.complete,
    schedulesTruncated: res.schedulesTruncated,
  };
}
