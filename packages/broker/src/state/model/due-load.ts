/**
 * The due-load histogram's layout and the forecast's rules (docs/design.md,
 * "Due-load forecast"): per queue, the pending entries counted by due time
 * in fixed-width buckets at four levels (a second, a minute, an hour, a
 * day), each bucket an exact count. Every pending entry is counted once at
 * each level, so a range whose edges lie on a level's boundaries is read
 * at that level alone: the forecast's buckets are chosen so they do.
 */
import { ValidationError } from './errors.js';

/** The width of each level's buckets, finest first; each divides the next. */
export const DUE_LOAD_LEVEL_MS = [1_000, 60_000, 3_600_000, 86_400_000] as const;

/**
 * The widest range one forecast answers, in buckets: (to - from) at most this
 * many bucket widths. The answer holds one more when `from` is not on a
 * bucket's start (its buckets start at multiples of their width).
 */
export const MAX_FORECAST_BUCKETS = 1_440;

/** The widest bucket a forecast takes: 60 days. */
export const MAX_FORECAST_BUCKET_MS = 60 * 86_400_000;

/**
 * The most schedules of the topic one forecast reads, and the most
 * occurrences it counts over all of them; past either the answer says its
 * schedule counts are a lower bound.
 */
export const MAX_FORECAST_SCHEDULES = 1_000;
export const MAX_FORECAST_OCCURRENCES = 100_000;

/** Where `dueAtMs` is counted at `level`: the start of its bucket there. */
export function levelBucketMs(level: number, dueAtMs: number): number {
  const width = DUE_LOAD_LEVEL_MS[level]!;
  return Math.floor(dueAtMs / width) * width;
}

/**
 * The level a forecast with buckets of `bucketMs` reads: the coarsest whose
 * width divides it. A bucket must be a whole number of the widest level
 * below it (seconds under a minute, minutes under an hour, hours under a
 * day, days above), so a bucket is at most 59 records of its level (60 days
 * at the day level) and any range reads at most that many per bucket.
 */
export function forecastLevel(bucketMs: number): number {
  if (!Number.isSafeInteger(bucketMs) || bucketMs <= 0) {
    throw new ValidationError('bucket_ms', `must be a positive number of ms, got ${bucketMs}`);
  }
  if (bucketMs > MAX_FORECAST_BUCKET_MS) {
    throw new ValidationError(
      'bucket_ms',
      `must be at most ${MAX_FORECAST_BUCKET_MS} (60 days), got ${bucketMs}`,
    );
  }
  let level = 0;
  while (level + 1 < DUE_LOAD_LEVEL_MS.length && bucketMs >= DUE_LOAD_LEVEL_MS[level + 1]!) level++;
  const width = DUE_LOAD_LEVEL_MS[level]!;
  if (bucketMs % width !== 0) {
    const unit = ['second', 'minute', 'hour', 'day'][level]!;
    throw new ValidationError(
      'bucket_ms',
      `${bucketMs} is not a whole number of ${unit}s (${width} ms): a bucket is whole seconds below a minute, whole minutes below an hour, whole hours below a day, or whole days`,
    );
  }
  return level;
}

/** A forecast's buckets: `count` of `bucketMs` from `startMs`, read at `level`. */
export interface ForecastLayout {
  readonly startMs: number;
  readonly bucketMs: number;
  readonly count: number;
  readonly level: number;
}

/**
 * The buckets answering [fromMs, toMs) with buckets of `bucketMs`: from
 * `fromMs` rounded down to a multiple of `bucketMs` to the first multiple at
 * or after `toMs`. A precise error names the field out of bounds.
 */
export function forecastLayout(fromMs: number, toMs: number, bucketMs: number): ForecastLayout {
  if (!Number.isSafeInteger(fromMs) || fromMs < 0) {
    throw new ValidationError('from_ms', `must be an epoch time in ms >= 0, got ${fromMs}`);
  }
  if (!Number.isSafeInteger(toMs) || toMs <= fromMs) {
    throw new ValidationError('to_ms', `must be after from_ms (${fromMs}), got ${toMs}`);
  }
  const level = forecastLevel(bucketMs);
  const widths = Math.ceil((toMs - fromMs) / bucketMs);
  if (widths > MAX_FORECAST_BUCKETS) {
    throw new ValidationError(
      'to_ms',
      `the range is ${widths} buckets of ${bucketMs} ms wide; at most ${MAX_FORECAST_BUCKETS} per answer (a shorter range or a wider bucket)`,
    );
  }
  const startMs = Math.floor(fromMs / bucketMs) * bucketMs;
  const count = Math.ceil((toMs - startMs) / bucketMs);
  return { startMs, bucketMs, count, level };
}
