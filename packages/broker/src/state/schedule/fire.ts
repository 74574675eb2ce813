/**
 * Materialising occurrences: what the leader proposes for a schedule at a
 * moment (`planFire`), and what apply accepts (`checkFire`). Both are pure:
 * the moment is the command's time stamp. Apply accepts a fire only for the
 * schedule generation and cursor it was computed from (so a re-proposed or
 * stale fire stores nothing), only occurrences that are the spec's next ones
 * after the cursor, and skips only occurrences missed by more than the
 * misfire threshold.
 */
import { ConflictError, LimitError, ValidationError } from '../model/errors.js';
import type { Limits } from '../model/limits.js';
import type { ScheduleDef, ScheduleFire, ScheduleRec } from '../model/schedules.js';
import { isOccurrence, occurrencesAfter } from './spec.js';

/** Occurrences one plan looks at: a longer backlog is skipped over several commands. */
export const MAX_PLAN_SCAN = 10_000;

export function misfireThresholdMs(rec: ScheduleRec, limits: Limits): number {
  return rec.def.misfireThresholdMs > 0 ? rec.def.misfireThresholdMs : limits.defaultMisfireThresholdMs;
}

/**
 * The fire for `rec` at `nowMs`: occurrences up to nowMs + aheadMs (at most
 * `maxOccurrences`), with those whose due time (`dueMs`: the occurrence plus
 * its jitter) was missed by more than the misfire threshold skipped, fired
 * once (`latest`) or fired (`all`, the latest limits.maxScheduleCatchUp).
 * Undefined when there is nothing to do. Missed is judged by due time so
 * that a schedule whose jitter exceeds the threshold is not skipped for
 * being stored close to its due time; apply (checkFire) accepts that, as
 * an occurrence's due time is never before it.
 */
export function planFire(
  rec: ScheduleRec,
  limits: Limits,
  nowMs: number,
  aheadMs: number,
  maxOccurrences: number,
  dueMs: (occurrenceMs: number) => number = (o) => o,
): ScheduleFire | undefined {
  if (rec.paused || maxOccurrences <= 0) return undefined;
  const missedBefore = nowMs - misfireThresholdMs(rec, limits);
  const all = occurrencesAfter(rec.def, limits, rec.cursorMs, MAX_PLAN_SCAN, nowMs + aheadMs);
  if (all.length === 0) return undefined;
  let missed = 0;
  while (missed < all.length && dueMs(all[missed]!) < missedBefore) missed++;
  let skip: number;
  if (missed === all.length && all.length === MAX_PLAN_SCAN) {
    // A backlog longer than one scan: skip it (all but what `all` would fire, decided next round).
    const keep = rec.def.catchUp === 'all' ? limits.maxScheduleCatchUp : rec.def.catchUp === 'latest' ? 1 : 0;
    skip = Math.max(0, missed - keep);
  } else if (rec.def.catchUp === 'latest') skip = Math.max(0, missed - 1);
  else if (rec.def.catchUp === 'all') skip = Math.max(0, missed - limits.maxScheduleCatchUp);
  else skip = missed;
  const occurrences = all.slice(skip, skip + maxOccurrences);
  if (skip === 0 && occurrences.length === 0) return undefined;
  return {
    topic: rec.def.topic,
    name: rec.def.name,
    generation: rec.generation,
    afterMs: rec.cursorMs,
    skipToMs: skip > 0 ? all[skip - 1]! : 0,
    skipped: skip,
    occurrences,
  };
}

export type FireCheck = 'ok' | 'stale';

/**
 * Whether apply accepts `fire` for `rec` at `nowMs`: 'stale' (stores nothing,
 * not an error) when the schedule moved on since the fire was computed;
 * throws when the fire is not the spec's (a leader bug or a corrupt entry).
 */
export function checkFire(rec: ScheduleRec, fire: ScheduleFire, limits: Limits, nowMs: number): FireCheck {
  if (rec.generation !== fire.generation || rec.cursorMs !== fire.afterMs || rec.paused) return 'stale';
  let cursor = rec.cursorMs;
  if (fire.skipToMs > 0) {
    const missedBefore = nowMs - misfireThresholdMs(rec, limits);
    if (fire.skipToMs <= cursor || fire.skipToMs >= missedBefore) {
      throw new ConflictError(
        'schedule-skip',
        `schedule "${fire.topic}/${fire.name}": skip_to_ms ${fire.skipToMs} is not missed (cursor ${cursor}, misfire before ${missedBefore})`,
      );
    }
    if (!isOccurrence(rec.def, limits, fire.skipToMs)) {
      throw new ValidationError('skip_to_ms', `${fire.skipToMs} is not an occurrence of "${rec.def.spec}"`);
    }
    cursor = fire.skipToMs;
  } else if (fire.skipped !== 0) {
    throw new ValidationError('skipped', `${fire.skipped} skipped without skip_to_ms`);
  }
  const n = fire.occurrences.length;
  if (n > limits.maxScheduleFiresPerCommand) {
    throw new LimitError('maxScheduleFiresPerCommand', limits.maxScheduleFiresPerCommand, n, 'occurrences');
  }
  if (n === 0) return 'ok';
  const last = fire.occurrences[n - 1]!;
  if (last > nowMs + limits.maxScheduleAheadMs) {
    throw new LimitError('maxScheduleAheadMs', limits.maxScheduleAheadMs, last - nowMs, 'occurrences');
  }
  const expected = occurrencesAfter(rec.def, limits, cursor, n, last);
  for (let i = 0; i < n; i++) {
    if (expected[i] !== fire.occurrences[i]) {
      throw new ValidationError(
        `occurrences[${i}]`,
        `${fire.occurrences[i]} is not the next occurrence of "${rec.def.spec}" in ${rec.def.timeZone || 'UTC'} after ${i === 0 ? cursor : fire.occurrences[i - 1]} (expected ${expected[i] ?? 'none'})`,
      );
    }
  }
  return 'ok';
}

const U64 = (1n << 64n) - 1n;

/** The occurrence's jitter: the same on every node, in [0, jitterMs]. */
export function jitterMs(
  hash: (s: string) => bigint,
  topic: string,
  name: string,
  occurrenceMs: number,
  maxJitterMs: number,
): number {
  if (maxJitterMs <= 0) return 0;
  return Number((hash(`${topic}\u0000${name}\u0000${occurrenceMs}`) & U64) % BigInt(maxJitterMs + 1));
}

/** When an occurrence's message falls due: its instant plus its jitter. */
export function occurrenceDueMs(
  hash: (s: string) => bigint,
  def: Pick<ScheduleDef, 'topic' | 'name' | 'jitterMs'>,
  occurrenceMs: number,
): number {
  return occurrenceMs + jitterMs(hash, def.topic, def.name, occurrenceMs, def.jitterMs);
}

/** The key of an occurrence's message ('' = none). */
export function renderKey(template: string, name: string, occurrenceMs: number): string {
  if (template === '') return '';
  return template
    .replaceAll('{schedule}', name)
    .replaceAll('{occurrence_ms}', String(occurrenceMs))
    .replaceAll('{occurrence}', new Date(occurrenceMs).toISOString());
}
