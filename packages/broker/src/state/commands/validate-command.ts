// validateCommand: every rule of a command's shape and limits, by command kind, on
// the leader before the command takes a log entry and again at apply. The rules of
// each field live in validation.ts and, for schedules, validate-schedule.ts.

import { LimitError, ValidationError } from '../model/errors.js';
import type { Limits } from '../model/limits.js';
import { validateApplyLimits } from './apply-limits.js';
import type { Command, Target } from './commands.js';
import { validateScheduleOp } from './validate-schedule.js';
import {
  groupSettingsForCreate,
  resolveDue,
  settingsForCreate,
  validateDuration,
  validateEntryKey,
  validateGroupName,
  validateGroupUpdate,
  validateIdempotencyKey,
  validateLeaseAheadMs,
  validateLeaseMs,
  validateNackError,
  validatePublish,
  validatePublishSpans,
  validateTag,
  validateTopicName,
} from './validation.js';

const utf8Bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

/** Delivery tags (an ack), or entry keys (`keys`: a lease). */
function checkTagList(tags: readonly Uint8Array[], limits: Limits, keys = false): void {
  if (tags.length === 0) throw new ValidationError('tags', 'names no tag');
  if (tags.length > limits.maxTagsPerCommand) {
    throw new LimitError('maxTagsPerCommand', limits.maxTagsPerCommand, tags.length, 'tags');
  }
  tags.forEach((t, i) => {
    if (keys) validateEntryKey(t, `tags[${i}]`);
    else validateTag(t, `tags[${i}]`);
  });
}

/**
 * A lease of several runs: at least one run, each a lease's shape (fields
 * named `runs[i].*`), every run's tags together within maxTagsPerCommand, and
 * lease ids above the dead-letter ids and rising from run to run (each is
 * claimed as new, in order).
 */
function validateLeaseRuns(cmd: Extract<Command, { kind: 'lease-runs' }>, limits: Limits): void {
  if (cmd.runs.length === 0) throw new ValidationError('runs', 'names no run');
  validateLeaseAheadMs(cmd.aheadMs ?? 0, limits);
  let tags = 0;
  for (const r of cmd.runs) tags += r.tags.length;
  if (tags > limits.maxTagsPerCommand)
    throw new LimitError('maxTagsPerCommand', limits.maxTagsPerCommand, tags, 'runs');
  let after = cmd.firstId + BigInt(cmd.idCount) - 1n;
  cmd.runs.forEach((r, i) => {
    const at = `runs[${i}]`;
    validateTopicName(r.topic, limits, `${at}.topic`);
    validateGroupName(r.group || 'default', limits, `${at}.group`);
    validateLeaseMs(r.leaseMs, limits, `${at}.lease_ms`);
    if (r.tags.length === 0) throw new ValidationError(`${at}.tags`, 'names no tag');
    r.tags.forEach((t, j) => {
      validateEntryKey(t, `${at}.tags[${j}]`);
    });
    if (r.leaseId <= 0n || r.leaseId <= after)
      throw new ValidationError(`${at}.lease_id`, `must be above ${after}, got ${r.leaseId}`);
    after = r.leaseId;
  });
}

function checkTarget(t: Target, limits: Limits): void {
  if ('key' in t) {
    if (t.key === '') throw new ValidationError('key', 'is empty');
    const bytes = utf8Bytes(t.key);
    if (bytes > limits.maxKeyBytes) throw new LimitError('maxKeyBytes', limits.maxKeyBytes, bytes, 'key');
  } else if (t.id <= 0n) {
    throw new ValidationError('id', `must be > 0, got ${t.id}`);
  }
}

/**
 * Everything about any command that needs no stored state. The server calls it
 * before proposing (so a bad request is answered at once); apply calls it again
 * on the committed command with the applied time stamp.
 */
export function validateCommand(cmd: Command, nowMs: number, limits: Limits): void {
  switch (cmd.kind) {
    case 'publish':
      validatePublish(cmd.messages, nowMs, limits);
      validatePublishSpans(cmd.requests, cmd.messages.length, limits);
      return;
    case 'lease':
      validateTopicName(cmd.topic, limits);
      validateGroupName(cmd.group || 'default', limits);
      validateLeaseMs(cmd.leaseMs, limits);
      validateLeaseAheadMs(cmd.aheadMs ?? 0, limits);
      checkTagList(cmd.tags, limits, true);
      return;
    case 'lease-runs':
      validateLeaseRuns(cmd, limits);
      return;
    case 'ack':
      checkTagList(cmd.tags, limits);
      return;
    case 'nack':
      validateTag(cmd.tag);
      validateDuration(cmd.delayMs, 'delay_ms', 'maxDelayMs', limits.maxDelayMs);
      validateNackError(cmd.error ?? '');
      return;
    case 'redrive':
      validateTopicName(cmd.topic, limits);
      validateTopicName(cmd.sourceTopic, limits, 'source_topic');
      if (cmd.ids.length === 0) throw new ValidationError('ids', 'names no id');
      if (cmd.ids.length > limits.maxIdsPerCommand) {
        throw new LimitError('maxIdsPerCommand', limits.maxIdsPerCommand, cmd.ids.length, 'ids');
      }
      return;
    case 'extend':
      validateTag(cmd.tag);
      validateLeaseMs(cmd.leaseMs, limits);
      return;
    case 'cancel':
      validateTopicName(cmd.topic, limits);
      checkTarget(cmd.target, limits);
      return;
    case 'reschedule':
      validateTopicName(cmd.topic, limits);
      checkTarget(cmd.target, limits);
      resolveDue(cmd, nowMs, limits);
      return;
    case 'expire': {
      if (cmd.ids.length === 0) throw new ValidationError('ids', 'names no id');
      if (cmd.ids.length > limits.maxIdsPerCommand) {
        throw new LimitError('maxIdsPerCommand', limits.maxIdsPerCommand, cmd.ids.length, 'ids');
      }
      const keys = cmd.keys ?? [];
      if (keys.length > 0 && keys.length !== cmd.ids.length) {
        throw new ValidationError('keys', `names ${keys.length} keys for ${cmd.ids.length} ids`);
      }
      keys.forEach((k, i) => {
        if (k.length > 0) validateEntryKey(k, `keys[${i}]`);
      });
      const atMs = cmd.atMs ?? [];
      if (atMs.length > 0 && atMs.length !== cmd.ids.length) {
        throw new ValidationError('at_ms', `names ${atMs.length} times for ${cmd.ids.length} ids`);
      }
      atMs.forEach((t, i) => {
        if (!(Number.isSafeInteger(t) && t >= 0))
          throw new ValidationError(`at_ms[${i}]`, `must be >= 0, got ${t}`);
      });
      return;
    }
    case 'forget-publishes':
      if (cmd.firstIds.length === 0) throw new ValidationError('first_ids', 'names no id');
      if (cmd.firstIds.length > limits.maxIdsPerCommand) {
        throw new LimitError('maxIdsPerCommand', limits.maxIdsPerCommand, cmd.firstIds.length, 'first_ids');
      }
      cmd.firstIds.forEach((id, i) => {
        if (id <= 0n) throw new ValidationError(`first_ids[${i}]`, `must be > 0, got ${id}`);
      });
      return;
    case 'purge-keys': {
      const requests = cmd.requests ?? [];
      if (cmd.keys.length === 0 && requests.length === 0) throw new ValidationError('keys', 'names no key');
      if (cmd.keys.length > limits.maxIdsPerCommand) {
        throw new LimitError('maxIdsPerCommand', limits.maxIdsPerCommand, cmd.keys.length, 'keys');
      }
      if (requests.length > limits.maxIdsPerCommand) {
        throw new LimitError('maxIdsPerCommand', limits.maxIdsPerCommand, requests.length, 'requests');
      }
      cmd.keys.forEach((k, i) => {
        validateTopicName(k.topic, limits, `keys[${i}].topic`);
        if (k.key === '') throw new ValidationError(`keys[${i}].key`, 'is empty');
      });
      requests.forEach((k, i) => {
        if (k === '') throw new ValidationError(`requests[${i}]`, 'is empty');
        validateIdempotencyKey(k, limits, `requests[${i}]`);
      });
      return;
    }
    case 'create-topic':
      validateTopicName(cmd.name, limits, 'name');
      settingsForCreate(cmd.settings, limits);
      return;
    case 'update-topic':
    case 'delete-topic':
      validateTopicName(cmd.name, limits, 'name');
      return;
    case 'create-group':
      validateTopicName(cmd.topic, limits);
      validateGroupName(cmd.group, limits);
      groupSettingsForCreate(cmd.settings);
      return;
    case 'update-group':
      validateTopicName(cmd.topic, limits);
      validateGroupName(cmd.group, limits);
      validateGroupUpdate(cmd.settings, cmd.updateMask ?? []);
      return;
    case 'delete-group':
      validateTopicName(cmd.topic, limits);
      validateGroupName(cmd.group, limits);
      return;
    case 'purge':
      validateTopicName(cmd.topic, limits);
      if (cmd.group !== '') validateGroupName(cmd.group, limits);
      if (!(Number.isSafeInteger(cmd.maxRecords) && cmd.maxRecords >= 1)) {
        throw new ValidationError('max_records', `must be >= 1, got ${cmd.maxRecords}`);
      }
      if (cmd.maxRecords > limits.maxIdsPerCommand) {
        throw new LimitError('maxIdsPerCommand', limits.maxIdsPerCommand, cmd.maxRecords, 'max_records');
      }
      return;
    case 'schedule':
      validateScheduleOp(cmd.op, nowMs, limits);
      return;
    case 'apply-limits':
      validateApplyLimits(cmd.values);
      return;
  }
}
