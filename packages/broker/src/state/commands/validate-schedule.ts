/** Stateless checks of schedule commands: run on the leader before proposing and again at apply. */
import { LimitError, underField, ValidationError } from '../model/errors.js';
import type { Limits } from '../model/limits.js';
import type { ScheduleDef } from '../model/schedules.js';
import { renderKey } from '../schedule/fire.js';
import type { ScheduleOp } from '../schedule/ops.js';
import { nextOccurrenceProblem, validateSpec } from '../schedule/spec.js';
import { validateDuration, validateMessage, validateTopicName } from './validation.js';

const NAME_RE = /^[A-Za-z0-9._-]+$/;
/** The latest instant a rendered key can name (13 digits of ms, a 24-character ISO date). */
const WIDEST_OCCURRENCE_MS = 9_999_999_999_999;
/**
 * The latest start_at_ms / end_at_ms: 9999-12-31T23:59:59.999Z. Time-zone
 * arithmetic (the platform's Intl data, a day either side) fails past
 * JavaScript's last date (8.64e15 ms); this leaves it far behind.
 */
export const MAX_SCHEDULE_INSTANT_MS = 253_402_300_799_999;

export function validateScheduleName(name: string, limits: Limits, field = 'name'): void {
  if (name.length === 0) throw new ValidationError(field, 'schedule name is empty');
  const bytes = Buffer.byteLength(name, 'utf8');
  if (bytes > limits.maxTopicNameBytes)
    throw new LimitError('maxTopicNameBytes', limits.maxTopicNameBytes, bytes, field);
  if (!NAME_RE.test(name))
    throw new ValidationError(field, `schedule name "${name}" may hold only A-Z a-z 0-9 . _ -`);
}

/** Everything about a definition that needs no stored state (fields named as in ScheduleDefinition). */
export function validateDefinition(d: ScheduleDef, nowMs: number, limits: Limits): void {
  validateTopicName(d.topic, limits, 'topic');
  validateScheduleName(d.name, limits);
  validateSpec(d, limits);
  for (const [v, f] of [
    [d.startAtMs, 'start_at_ms'],
    [d.endAtMs, 'end_at_ms'],
  ] as const) {
    if (!Number.isSafeInteger(v) || v < 0) throw new ValidationError(f, `must be >= 0, got ${v}`);
    if (v > MAX_SCHEDULE_INSTANT_MS) {
      throw new ValidationError(
        f,
        `must be at most ${MAX_SCHEDULE_INSTANT_MS} (9999-12-31T23:59:59.999Z), got ${v}`,
      );
    }
  }
  if (d.endAtMs > 0 && d.endAtMs <= d.startAtMs) {
    throw new ValidationError('end_at_ms', `must be after start_at_ms (${d.startAtMs}), got ${d.endAtMs}`);
  }
  validateDuration(d.jitterMs, 'jitter_ms', 'maxScheduleJitterMs', limits.maxScheduleJitterMs);
  // Every field in range, the first occurrence must be computable: a schedule is never stored broken.
  const problem = nextOccurrenceProblem(d, limits, Math.max(nowMs, d.startAtMs - 1));
  if (problem !== undefined)
    throw new ValidationError('spec', `its next occurrence cannot be computed: ${problem}`);
  validateDuration(d.misfireThresholdMs, 'misfire_threshold_ms', 'maxDelayMs', limits.maxDelayMs);
  // Payload, headers and the widest key the template can render, as a message of the topic.
  const key = renderKey(d.keyTemplate, d.name, WIDEST_OCCURRENCE_MS);
  try {
    validateMessage({ topic: d.topic, payload: d.payload, headers: d.headers, key }, nowMs, limits, '');
  } catch (err) {
    if (err instanceof LimitError && err.field === 'key') {
      throw new LimitError(err.limit, err.max, err.actual, 'key_template');
    }
    throw err;
  }
}

/**
 * A bulk upsert: bounded as a publish batch is (maxBatchMessages definitions,
 * maxBatchPayloadBytes of payload), each definition checked with its fields
 * under `schedules[i].`, and no (topic, name) twice.
 */
export function validateDefinitions(defs: readonly ScheduleDef[], nowMs: number, limits: Limits): void {
  if (defs.length === 0) throw new ValidationError('schedules', 'names no schedule');
  if (defs.length > limits.maxBatchMessages)
    throw new LimitError('maxBatchMessages', limits.maxBatchMessages, defs.length, 'schedules');
  let payloadBytes = 0;
  const seen = new Map<string, number>();
  for (const [i, d] of defs.entries()) {
    try {
      validateDefinition(d, nowMs, limits);
    } catch (err) {
      throw underField(`schedules[${i}].`, err);
    }
    const key = `${d.topic}\u0000${d.name}`;
    const first = seen.get(key);
    if (first !== undefined) {
      throw new ValidationError(
        `schedules[${i}].name`,
        `schedule "${d.topic}/${d.name}" is also schedules[${first}]: name each schedule once per request`,
      );
    }
    seen.set(key, i);
    payloadBytes += d.payload.length;
  }
  if (payloadBytes > limits.maxBatchPayloadBytes)
    throw new LimitError('maxBatchPayloadBytes', limits.maxBatchPayloadBytes, payloadBytes, 'schedules');
}

export function validateScheduleOp(op: ScheduleOp, nowMs: number, limits: Limits): void {
  switch (op.op) {
    case 'upsert':
      validateDefinition(op.def, nowMs, limits);
      return;
    case 'upsert-many':
      validateDefinitions(op.defs, nowMs, limits);
      return;
    case 'delete':
    case 'pause':
    case 'resume':
    case 'trigger':
      validateTopicName(op.topic, limits, 'topic');
      validateScheduleName(op.name, limits);
      return;
    case 'fire': {
      let n = 0;
      for (const [i, f] of op.fires.entries()) {
        validateTopicName(f.topic, limits, `fires[${i}].topic`);
        validateScheduleName(f.name, limits, `fires[${i}].name`);
        n += f.occurrences.length;
      }
      if (op.fires.length === 0) throw new ValidationError('fires', 'names no schedule');
      if (n > limits.maxScheduleFiresPerCommand) {
        throw new LimitError('maxScheduleFiresPerCommand', limits.maxScheduleFiresPerCommand, n, 'fires');
      }
    }
  }
}
