/**
 * The due-load forecast (docs/design.md, "Due-load forecast"): how many
 * pending messages of a topic's group fall due per bucket of a range, read
 * from the queue's histogram at one level (one record per non-empty bucket
 * of that level in the range, at most 59 per answer bucket, 60 at the day
 * level), and the next occurrences of the topic's schedules, counted apart.
 */
import type { ReadView } from '@fermata/storage';
import { DEFAULT_GROUP, type QueueHasher, queueName } from '../../keys.js';
import { forecastLayout, MAX_FORECAST_OCCURRENCES, MAX_FORECAST_SCHEDULES } from '../model/due-load.js';
import { NotFoundError } from '../model/errors.js';
import type { Limits } from '../model/limits.js';
import { occurrenceDueMs } from '../schedule/fire.js';
import { occurrencesAfter } from '../schedule/spec.js';
import { scanDueLoad } from '../stores/due-load.js';
import { readQueue } from '../stores/queues.js';
import { listSchedules } from '../stores/schedules.js';
import { readTopic } from '../stores/topics.js';

export interface ForecastBucketView {
  readonly startMs: number;
  readonly endMs: number;
  /** Pending messages due in [startMs, endMs). */
  count: number;
  /** Occurrences of the topic's schedules due in it: not messages yet. */
  scheduled: number;
}

export interface ForecastView {
  readonly buckets: ForecastBucketView[];
  /** The group's pending messages, in the range or not. */
  readonly pending: number;
  /** Its messages under a lease: in no bucket. */
  readonly inFlight: number;
  /** False: the queue keeps no histogram (an earlier version's, not empty since), and every `count` is 0. */
  readonly complete: boolean;
  /** True: more schedules or occurrences than one answer reads; `scheduled` is a lower bound. */
  readonly schedulesTruncated: boolean;
}

export interface ForecastQuery {
  readonly topic: string;
  /** '' = default. */
  readonly group: string;
  readonly fromMs: number;
  readonly toMs: number;
  readonly bucketMs: number;
}

export async function readForecast(
  view: ReadView,
  hasher: QueueHasher,
  limits: Limits,
  q: ForecastQuery,
): Promise<ForecastView> {
  const layout = forecastLayout(q.fromMs, q.toMs, q.bucketMs);
  const group = q.group || DEFAULT_GROUP;
  const topic = await readTopic(view, q.topic);
  if (!topic) throw new NotFoundError('topic', q.topic);
  if (!topic.groups.includes(group)) throw new NotFoundError('group', `${q.topic}/${group}`);
  const { startMs, bucketMs, count } = layout;
  const endMs = startMs + count * bucketMs;
  const buckets: ForecastBucketView[] = [];
  for (let i = 0; i < count; i++) {
    buckets.push({
      startMs: startMs + i * bucketMs,
      endMs: startMs + (i + 1) * bucketMs,
      count: 0,
      scheduled: 0,
    });
  }
  const hash = hasher(queueName(q.topic, group));
  const queue = await readQueue(view, hash);
  const complete = queue?.dueLoad === true;
  if (complete) {
    await scanDueLoad(view, hash, layout.level, startMs, endMs, (s, n) => {
      buckets[Math.floor((s - startMs) / bucketMs)]!.count += n;
    });
  }
  const schedulesTruncated = await countOccurrences(view, hasher, limits, q.topic, buckets, startMs, endMs);
  return {
    buckets,
    pending: queue?.pending ?? 0,
    inFlight: queue?.inFlight ?? 0,
    complete,
    schedulesTruncated,
  };
}

/**
 * Adds the topic's schedules' occurrences not yet fired (after each one's
 * cursor) that fall due in [startMs, endMs) to the buckets; paused ones fire
 * nothing. Reads at most MAX_FORECAST_SCHEDULES schedules and counts at most
 * MAX_FORECAST_OCCURRENCES occurrences; true when it stopped at either.
 */
async function countOccurrences(
  view: ReadView,
  hasher: QueueHasher,
  limits: Limits,
  topic: string,
  buckets: ForecastBucketView[],
  startMs: number,
  endMs: number,
): Promise<boolean> {
  const schedules = await listSchedules(view, topic, '', MAX_FORECAST_SCHEDULES + 1);
  let truncated = schedules.length > MAX_FORECAST_SCHEDULES;
  let left = MAX_FORECAST_OCCURRENCES;
  const bucketMs = buckets[0]!.endMs - buckets[0]!.startMs;
  for (const rec of schedules.slice(0, MAX_FORECAST_SCHEDULES)) {
    if (rec.paused) continue;
    const def = rec.def;
    // An occurrence before the range may fall due in it by its jitter.
    const afterMs = Math.max(rec.cursorMs, startMs - 1 - def.jitterMs);
    let instants: readonly number[];
    try {
      instants = occurrencesAfter(def, limits, afterMs, left + 1, endMs - 1);
    } catch {
      continue; // A broken schedule fires nothing (schedules.md).
    }
    if (instants.length > left) {
      truncated = true;
      instants = instants.slice(0, left);
    }
    left -= instants.length;
    for (const instant of instants) {
      const due = occurrenceDueMs(hasher, def, instant);
      if (due >= startMs && due < endMs) buckets[Math.floor((due - startMs) / bucketMs)]!.scheduled++;
    }
    if (left === 0) break;
  }
  return truncated;
}
