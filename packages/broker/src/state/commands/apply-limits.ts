import { InvariantError } from '@fermata/base';
/**
 * The limits apply validates against travel in the log, so every node applies
 * a committed command with the same limits whatever its own configuration
 * says (docs/design.md, "Limits are replicated"). A leader whose configured
 * apply limits differ from the replicated ones proposes an `apply-limits`
 * command; applying it records the values in the store (stores/meta.ts, so
 * snapshots carry them) and every later command in the log is validated
 * against them. A store without the record (written before the record
 * existed, or before the first leader proposed it) applies with the node's
 * configured limits, as before.
 */
import { ValidationError } from '../model/errors.js';
import type { Limits } from '../model/limits.js';

/** The limits apply reads; the others (list page size, snapshot chunk size) only shape local reads. */
export const APPLY_LIMIT_NAMES = [
  'maxPayloadBytes',
  'maxBatchPayloadBytes',
  'maxBatchMessages',
  'maxHeadersBytes',
  'maxHeaderCount',
  'maxKeyBytes',
  'maxTopicNameBytes',
  'maxGroupNameBytes',
  'maxGroupsPerTopic',
  'maxDelayMs',
  'maxTtlMs',
  'minLeaseMs',
  'maxLeaseMs',
  'maxLeaseAheadMs',
  'maxTagsPerCommand',
  'maxIdsPerCommand',
  'maxMaxAttempts',
  'maxTimeBucketMs',
  'maxDedupWindowMs',
  'publishDedupWindowMs',
  'maxSchedulesPerTopic',
  'maxSchedules',
  'minScheduleIntervalMs',
  'maxScheduleCatchUp',
  'defaultMisfireThresholdMs',
  'maxScheduleAheadMs',
  'maxScheduleJitterMs',
  'maxScheduleFiresPerCommand',
] as const satisfies readonly (keyof Limits)[];

export type ApplyLimitName = (typeof APPLY_LIMIT_NAMES)[number];
export type ApplyLimits = { readonly [K in ApplyLimitName]: number };

export function applyLimitsOf(limits: Limits): ApplyLimits {
  const out: Record<string, number> = {};
  for (const name of APPLY_LIMIT_NAMES) out[name] = limits[name];
  return out as ApplyLimits;
}

/** The names whose values differ, each with both values: `maxPayloadBytes 2097152 != 1048576`. */
export function applyLimitDifferences(mine: ApplyLimits, theirs: ApplyLimits): string[] {
  return APPLY_LIMIT_NAMES.filter((n) => mine[n] !== theirs[n]).map((n) => `${n} ${mine[n]} != ${theirs[n]}`);
}

/** Checks an apply-limits command's values: every name known and present, each a non-negative safe integer. */
export function validateApplyLimits(values: Readonly<Record<string, number>>): ApplyLimits {
  for (const name of Object.keys(values)) {
    if (!(APPLY_LIMIT_NAMES as readonly string[]).includes(name)) {
      throw new ValidationError(`apply_limits.${name}`, 'is not a limit apply uses');
    }
  }
  for (const name of APPLY_LIMIT_NAMES) {
    const v = values[name];
    if (v === undefined) throw new ValidationError(`apply_limits.${name}`, 'is missing');
    if (!Number.isSafeInteger(v) || v < 0) {
      throw new ValidationError(`apply_limits.${name}`, `must be a non-negative integer, got ${v}`);
    }
  }
  return values as ApplyLimits;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

export function encodeApplyLimits(values: ApplyLimits): Uint8Array {
  return enc.encode(JSON.stringify(applyLimitsOf(values as Limits)));
}

/** The record as stored; a record that does not parse is corruption, not something to apply around. */
export function decodeApplyLimits(raw: Uint8Array): ApplyLimits {
  let parsed: unknown;
  try {
    parsed = JSON.parse(dec.decode(raw));
  } catch (err) {
    throw new InvariantError('the stored apply-limits record is the JSON apply wrote', {
      error: (err as Error).message,
    });
  }
  return validateApplyLimits(parsed as Record<string, number>);
}
