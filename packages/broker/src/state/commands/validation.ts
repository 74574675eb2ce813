// The rules that refuse a command for its shape or its limits, field by field, checked on the
// leader before a command takes a log entry and again at apply (validate-command.ts calls them
// by command kind), so that the leader's check and apply's check cannot drift apart.

import { KEY_BYTES, RUN_TAG_BYTES, TAG_BYTES } from '../../keys.js';
import { LimitError, ValidationError } from '../model/errors.js';
import { type GroupSettings, NO_GROUP_SETTINGS } from '../model/group-settings.js';
import { DEFAULT_TOPIC_SETTINGS, type Limits } from '../model/limits.js';
import type { TopicSettings } from '../model/records.js';
import type { GroupSettingsInput, PublishInput, PublishSpan, TopicSettingsInput } from './commands.js';
import { checkPushSettings, PUSH_MASK_FIELDS, pushForCreate, pushForUpdate } from './validate-push.js';

/**
 * Stateless validation. The server calls these before proposing (to answer a
 * bad request at once); apply calls them again on the committed command, so a
 * bad command in the log changes nothing wherever it is applied.
 */
const NAME_RE = /^[A-Za-z0-9._-]+$/;
const utf8Bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

function checkName(name: string, field: string, what: string, limit: string, max: number): void {
  if (name.length === 0) throw new ValidationError(field, `${what} name is empty`);
  const bytes = utf8Bytes(name);
  if (bytes > max) throw new LimitError(limit, max, bytes, field);
  if (!NAME_RE.test(name))
    throw new ValidationError(field, `${what} name "${name}" may hold only A-Z a-z 0-9 . _ -`);
}

export function validateTopicName(name: string, limits: Limits, field = 'topic'): void {
  checkName(name, field, 'topic', 'maxTopicNameBytes', limits.maxTopicNameBytes);
}

export function validateGroupName(name: string, limits: Limits, field = 'group'): void {
  checkName(name, field, 'group', 'maxGroupNameBytes', limits.maxGroupNameBytes);
}

/** A lease names an entry by its 24-byte queue key. */
export function validateEntryKey(key: Uint8Array, field: string): void {
  if (key.length !== KEY_BYTES)
    throw new ValidationError(field, `an entry key is ${KEY_BYTES} bytes, got ${key.length}`);
}

/**
 * A delivery tag: a run lease's queue, lease id and offset (20 bytes), or,
 * from leases of earlier versions, an entry's key and a lease number (28
 * bytes) or a moved lease's key (24).
 */
export function validateTag(tag: Uint8Array, field = 'tag'): void {
  if (tag.length !== RUN_TAG_BYTES && tag.length !== TAG_BYTES && tag.length !== KEY_BYTES) {
    throw new ValidationError(
      field,
      `a delivery tag is ${RUN_TAG_BYTES} bytes (${TAG_BYTES} or ${KEY_BYTES} from earlier versions), got ${tag.length}`,
    );
  }
}

/**
 * Most UTF-8 bytes of a nack's error text (`maxNackErrorBytes`): a handler's
 * error message travels with the message and into its dead letter, not its
 * stack. The SDK cuts longer ones to fit.
 */
export const MAX_NACK_ERROR_BYTES = 1024;

export function validateNackError(error: string, field = 'error'): void {
  const n = Buffer.byteLength(error, 'utf8');
  if (n > MAX_NACK_ERROR_BYTES) throw new LimitError('maxNackErrorBytes', MAX_NACK_ERROR_BYTES, n, field);
}

function checkInt(value: number, field: string): void {
  if (!Number.isSafeInteger(value)) throw new ValidationError(field, `must be an integer, got ${value}`);
}

/** A duration: integer, >= 0, at most `max` (the limit named `limit`). */
export function validateDuration(value: number, field: string, limit: string, max: number): void {
  checkInt(value, field);
  if (value < 0) throw new ValidationError(field, `must be >= 0, got ${value}`);
  if (value > max) throw new LimitError(limit, max, value, field);
}

export function validateLeaseAheadMs(value: number, limits: Limits, field = 'ahead_ms'): void {
  checkInt(value, field);
  if (value < 0) throw new ValidationError(field, `must be >= 0, got ${value}`);
  if (value > limits.maxLeaseAheadMs)
    throw new LimitError('maxLeaseAheadMs', limits.maxLeaseAheadMs, value, field);
}

export function validateLeaseMs(value: number, limits: Limits, field = 'lease_ms'): void {
  checkInt(value, field);
  if (value < limits.minLeaseMs)
    throw new ValidationError(field, `must be >= ${limits.minLeaseMs}, got ${value}`);
  if (value > limits.maxLeaseMs) throw new LimitError('maxLeaseMs', limits.maxLeaseMs, value, field);
}

/**
 * The due time of a schedule: `delayMs` from now, or `deliverAtMs` (a past
 * time means now). Validates both.
 */
export function resolveDue(
  s: { readonly delayMs?: number | undefined; readonly deliverAtMs?: number | undefined },
  nowMs: number,
  limits: Limits,
  prefix = '',
): number {
  // The usual case, without building a field name.
  if (s.deliverAtMs === undefined && s.delayMs !== undefined && durationOk(s.delayMs, limits.maxDelayMs)) {
    return nowMs + s.delayMs;
  }
  if (s.delayMs !== undefined && s.deliverAtMs !== undefined) {
    throw new ValidationError(`${prefix}schedule`, 'set delay_ms or deliver_at_ms, not both');
  }
  if (s.delayMs !== undefined) {
    validateDuration(s.delayMs, `${prefix}delay_ms`, 'maxDelayMs', limits.maxDelayMs);
    return nowMs + s.delayMs;
  }
  if (s.deliverAtMs !== undefined) {
    checkInt(s.deliverAtMs, `${prefix}deliver_at_ms`);
    if (s.deliverAtMs < 0)
      throw new ValidationError(`${prefix}deliver_at_ms`, `must be >= 0, got ${s.deliverAtMs}`);
    const ahead = s.deliverAtMs - nowMs;
    if (ahead > limits.maxDelayMs)
      throw new LimitError('maxDelayMs', limits.maxDelayMs, ahead, `${prefix}deliver_at_ms`);
    return Math.max(nowMs, s.deliverAtMs);
  }
  return nowMs;
}

function durationOk(value: number, max: number): boolean {
  return Number.isSafeInteger(value) && value >= 0 && value <= max;
}

/** The last topic name `messageValid` found valid, and the limits it was checked against. */
let validTopic: { name: string; limits: Limits } | undefined;

/**
 * True when `validateMessage` would accept the message; false when it might
 * not (it then says why). Builds no field names: the per-message fast path.
 */
export function messageValid(m: PublishInput, nowMs: number, limits: Limits): boolean {
  if (validTopic?.name !== m.topic || validTopic.limits !== limits) {
    if (m.topic.length === 0 || utf8Bytes(m.topic) > limits.maxTopicNameBytes || !NAME_RE.test(m.topic)) {
      return false;
    }
    validTopic = { name: m.topic, limits };
  }
  if (!(m.payload instanceof Uint8Array) || m.payload.length > limits.maxPayloadBytes) return false;
  if (m.headers) {
    // for-in, not Object.keys: no array per message (headers are plain objects).
    let count = 0;
    let headerBytes = 0;
    for (const name in m.headers) {
      if (name.length === 0) return false;
      count++;
      headerBytes += utf8Bytes(name) + utf8Bytes(m.headers[name] ?? '');
    }
    if (count > limits.maxHeaderCount || headerBytes > limits.maxHeadersBytes) return false;
  }
  if (m.key !== undefined && m.key.length > 0 && utf8Bytes(m.key) > limits.maxKeyBytes) return false;
  if (
    m.orderingKey !== undefined &&
    m.orderingKey.length > 0 &&
    utf8Bytes(m.orderingKey) > limits.maxKeyBytes
  ) {
    return false;
  }
  let dueAtMs = nowMs;
  if (m.delayMs !== undefined) {
    if (m.deliverAtMs !== undefined || !durationOk(m.delayMs, limits.maxDelayMs)) return false;
    dueAtMs = nowMs + m.delayMs;
  } else if (m.deliverAtMs !== undefined) {
    if (!Number.isSafeInteger(m.deliverAtMs) || m.deliverAtMs < 0) return false;
    if (m.deliverAtMs - nowMs > limits.maxDelayMs) return false;
    dueAtMs = Math.max(nowMs, m.deliverAtMs);
  }
  const before = m.deliverBeforeMs;
  if (before !== undefined && before !== 0) {
    if (!Number.isSafeInteger(before) || before < dueAtMs || before - dueAtMs > limits.maxTtlMs) return false;
  }
  return m.ttlMs === undefined || durationOk(m.ttlMs, limits.maxTtlMs);
}

/** Validates one message; returns its payload size. */
export function validateMessage(m: PublishInput, nowMs: number, limits: Limits, prefix: string): number {
  validateTopicName(m.topic, limits, `${prefix}topic`);
  if (!(m.payload instanceof Uint8Array)) throw new ValidationError(`${prefix}payload`, 'must be bytes');
  if (m.payload.length > limits.maxPayloadBytes) {
    throw new LimitError('maxPayloadBytes', limits.maxPayloadBytes, m.payload.length, `${prefix}payload`);
  }
  const headers = m.headers ?? {};
  const names = Object.keys(headers);
  if (names.length > limits.maxHeaderCount) {
    throw new LimitError('maxHeaderCount', limits.maxHeaderCount, names.length, `${prefix}headers`);
  }
  let headerBytes = 0;
  for (const name of names) {
    if (name.length === 0) throw new ValidationError(`${prefix}headers`, 'a header name is empty');
    headerBytes += utf8Bytes(name) + utf8Bytes(headers[name] ?? '');
  }
  if (headerBytes > limits.maxHeadersBytes) {
    throw new LimitError('maxHeadersBytes', limits.maxHeadersBytes, headerBytes, `${prefix}headers`);
  }
  const key = m.key ?? '';
  if (utf8Bytes(key) > limits.maxKeyBytes) {
    throw new LimitError('maxKeyBytes', limits.maxKeyBytes, utf8Bytes(key), `${prefix}key`);
  }
  const orderingKey = m.orderingKey ?? '';
  if (utf8Bytes(orderingKey) > limits.maxKeyBytes) {
    throw new LimitError('maxKeyBytes', limits.maxKeyBytes, utf8Bytes(orderingKey), `${prefix}ordering_key`);
  }
  const dueAtMs = resolveDue(m, nowMs, limits, prefix);
  validateDuration(m.ttlMs ?? 0, `${prefix}ttl_ms`, 'maxTtlMs', limits.maxTtlMs);
  validateDeadline(m.deliverBeforeMs ?? 0, dueAtMs, limits, `${prefix}deliver_before_ms`);
  return m.payload.length;
}

/**
 * A message's own deadline: 0 (none), or at or after its due time and at
 * most limits.maxTtlMs past it (a deadline is how long a due message may
 * wait, as a TTL is how long any may live).
 */
export function validateDeadline(
  deliverBeforeMs: number,
  dueAtMs: number,
  limits: Limits,
  field: string,
): void {
  checkInt(deliverBeforeMs, field);
  if (deliverBeforeMs === 0) return;
  if (deliverBeforeMs < dueAtMs) {
    throw new ValidationError(field, `${deliverBeforeMs} is before the message's due time ${dueAtMs}`);
  }
  if (deliverBeforeMs - dueAtMs > limits.maxTtlMs) {
    throw new LimitError('maxTtlMs', limits.maxTtlMs, deliverBeforeMs - dueAtMs, field);
  }
}

/**
 * Everything about a publish batch that needs no stored state: batch size,
 * names, payload and header sizes, key length, schedule, ttl. Throws
 * ValidationError{field} or LimitError{limit}. `nowMs` is the leader's time
 * (it bounds `deliver_at_ms`).
 */
export function validatePublish(messages: readonly PublishInput[], nowMs: number, limits: Limits): void {
  if (messages.length === 0) throw new ValidationError('messages', 'a publish holds at least one message');
  if (messages.length > limits.maxBatchMessages) {
    throw new LimitError('maxBatchMessages', limits.maxBatchMessages, messages.length, 'messages');
  }
  let total = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    total += messageValid(m, nowMs, limits)
      ? m.payload.length
      : validateMessage(m, nowMs, limits, `messages[${i}].`);
  }
  if (total > limits.maxBatchPayloadBytes) {
    throw new LimitError('maxBatchPayloadBytes', limits.maxBatchPayloadBytes, total, 'messages');
  }
}

/** A publish request's idempotency key: empty (none) or at most maxKeyBytes of UTF-8. */
export function validateIdempotencyKey(key: string, limits: Limits, field = 'idempotency_key'): void {
  const bytes = utf8Bytes(key);
  if (bytes > limits.maxKeyBytes) throw new LimitError('maxKeyBytes', limits.maxKeyBytes, bytes, field);
}

/** The request spans of a publish entry: counts >= 1 that sum to the entry's messages. */
export function validatePublishSpans(
  spans: readonly PublishSpan[] | undefined,
  messageCount: number,
  limits: Limits,
): void {
  if (spans === undefined || spans.length === 0) return;
  let total = 0;
  spans.forEach((r, i) => {
    if (!(Number.isInteger(r.count) && r.count >= 1)) {
      throw new ValidationError(`requests[${i}].count`, `must be >= 1, got ${r.count}`);
    }
    validateIdempotencyKey(r.idempotencyKey, limits, `requests[${i}].idempotency_key`);
    total += r.count;
  });
  if (total !== messageCount) {
    throw new ValidationError('requests', `counts sum to ${total}, the entry holds ${messageCount} messages`);
  }
}

const MASK_FIELDS = [
  'max_attempts',
  'default_lease_ms',
  'dead_letter_topic',
  'expiry_action',
  'time_bucket_ms',
  'dedup_window_ms',
  'ordering',
  'ordering_key_from_key',
  'max_lateness_ms',
  'deadline_action',
  'paused',
] as const;
type MaskField = (typeof MASK_FIELDS)[number];

function checkSettings(s: TopicSettings, limits: Limits): void {
  checkInt(s.maxAttempts, 'settings.max_attempts');
  if (s.maxAttempts < 1)
    throw new ValidationError('settings.max_attempts', `must be >= 1, got ${s.maxAttempts}`);
  if (s.maxAttempts > limits.maxMaxAttempts) {
    throw new LimitError('maxMaxAttempts', limits.maxMaxAttempts, s.maxAttempts, 'settings.max_attempts');
  }
  validateLeaseMs(s.defaultLeaseMs, limits, 'settings.default_lease_ms');
  if (s.deadLetterTopic !== '') validateTopicName(s.deadLetterTopic, limits, 'settings.dead_letter_topic');
  validateDuration(s.timeBucketMs, 'settings.time_bucket_ms', 'maxTimeBucketMs', limits.maxTimeBucketMs);
  validateDuration(s.dedupWindowMs, 'settings.dedup_window_ms', 'maxDedupWindowMs', limits.maxDedupWindowMs);
  validateDuration(s.maxLatenessMs, 'settings.max_lateness_ms', 'maxTtlMs', limits.maxTtlMs);
}

/** Settings of a new topic: every absent or zero field takes its default. */
export function settingsForCreate(input: TopicSettingsInput | undefined, limits: Limits): TopicSettings {
  const d = DEFAULT_TOPIC_SETTINGS;
  const s: TopicSettings = {
    maxAttempts: input?.maxAttempts || d.maxAttempts,
    defaultLeaseMs: input?.defaultLeaseMs || d.defaultLeaseMs,
    deadLetterTopic: input?.deadLetterTopic || d.deadLetterTopic,
    expiryAction: input?.expiryAction ?? d.expiryAction,
    timeBucketMs: input?.timeBucketMs || d.timeBucketMs,
    dedupWindowMs: input?.dedupWindowMs || d.dedupWindowMs,
    deadLetterAuthorizedBy: input?.deadLetterTopic ? (input.deadLetterAuthorizedBy ?? '') : '',
    ordering: input?.ordering ?? d.ordering,
    orderingKeyFromKey: input?.orderingKeyFromKey ?? d.orderingKeyFromKey,
    maxLatenessMs: input?.maxLatenessMs || d.maxLatenessMs,
    deadlineAction: input?.deadlineAction ?? d.deadlineAction,
    paused: input?.paused ?? d.paused,
  };
  checkSettings(s, limits);
  return s;
}

/**
 * Settings after an update: the fields named in `mask` (snake_case) take the
 * input's value, zero included; with an empty mask every non-zero field does.
 */
export function settingsForUpdate(
  current: TopicSettings,
  input: TopicSettingsInput,
  mask: readonly string[],
  limits: Limits,
): TopicSettings {
  for (const f of mask) {
    if (!(MASK_FIELDS as readonly string[]).includes(f)) {
      throw new ValidationError('update_mask', `unknown field "${f}" (${MASK_FIELDS.join(', ')})`);
    }
  }
  const take = (f: MaskField, present: boolean): boolean => (mask.length > 0 ? mask.includes(f) : present);
  const s: TopicSettings = {
    maxAttempts: take('max_attempts', !!input.maxAttempts) ? (input.maxAttempts ?? 0) : current.maxAttempts,
    defaultLeaseMs: take('default_lease_ms', !!input.defaultLeaseMs)
      ? (input.defaultLeaseMs ?? 0)
      : current.defaultLeaseMs,
    deadLetterTopic: take('dead_letter_topic', !!input.deadLetterTopic)
      ? (input.deadLetterTopic ?? '')
      : current.deadLetterTopic,
    expiryAction: take('expiry_action', input.expiryAction !== undefined)
      ? (input.expiryAction ?? DEFAULT_TOPIC_SETTINGS.expiryAction)
      : current.expiryAction,
    timeBucketMs: take('time_bucket_ms', !!input.timeBucketMs)
      ? (input.timeBucketMs ?? 0)
      : current.timeBucketMs,
    dedupWindowMs: take('dedup_window_ms', !!input.dedupWindowMs)
      ? (input.dedupWindowMs ?? 0)
      : current.dedupWindowMs,
    // Whoever sets the dead-letter topic is who authorized it; an unchanged one keeps its authority.
    deadLetterAuthorizedBy: take('dead_letter_topic', !!input.deadLetterTopic)
      ? input.deadLetterTopic
        ? (input.deadLetterAuthorizedBy ?? '')
        : ''
      : current.deadLetterAuthorizedBy,
    ordering: take('ordering', input.ordering !== undefined)
      ? (input.ordering ?? DEFAULT_TOPIC_SETTINGS.ordering)
      : current.ordering,
    orderingKeyFromKey: take('ordering_key_from_key', !!input.orderingKeyFromKey)
      ? input.orderingKeyFromKey === true
      : current.orderingKeyFromKey,
    maxLatenessMs: take('max_lateness_ms', !!input.maxLatenessMs)
      ? (input.maxLatenessMs ?? 0)
      : current.maxLatenessMs,
    deadlineAction: take('deadline_action', input.deadlineAction !== undefined)
      ? (input.deadlineAction ?? DEFAULT_TOPIC_SETTINGS.deadlineAction)
      : current.deadlineAction,
    paused: take('paused', !!input.paused) ? input.paused === true : current.paused,
  };
  checkSettings(s, limits);
  return s;
}

/** Most deliveries a second a group may be limited to (`max_deliveries_per_second`). */
export const MAX_DELIVERIES_PER_SECOND = 100_000;
/** Largest token bucket of a group's rate limit (`burst`). */
export const MAX_BURST = 1_000_000;
/** Largest in-flight limit of a group (`max_in_flight`). */
export const MAX_MAX_IN_FLIGHT = 1_000_000;

const GROUP_MASK_FIELDS = [
  'max_deliveries_per_second',
  'burst',
  'max_in_flight',
  'ordering',
  'paused',
] as const;
type GroupMaskField = (typeof GROUP_MASK_FIELDS)[number];

function checkCount(value: number, field: string, limit: string, max: number): void {
  checkInt(value, field);
  if (value < 0) throw new ValidationError(field, `must be >= 0, got ${value}`);
  if (value > max) throw new LimitError(limit, max, value, field);
}

/** Each count within its bounds (the rule between burst and rate is `checkGroupSettings`'s). */
function checkGroupBounds(s: GroupSettings): void {
  checkCount(
    s.maxDeliveriesPerSecond,
    'settings.max_deliveries_per_second',
    'maxDeliveriesPerSecond',
    MAX_DELIVERIES_PER_SECOND,
  );
  checkCount(s.burst, 'settings.burst', 'maxBurst', MAX_BURST);
  checkCount(s.maxInFlight, 'settings.max_in_flight', 'maxMaxInFlight', MAX_MAX_IN_FLIGHT);
}

function checkGroupSettings(s: GroupSettings): void {
  checkGroupBounds(s);
  if (s.push) checkPushSettings(s.push);
  if (s.burst > 0 && s.maxDeliveriesPerSecond === 0) {
    throw new ValidationError(
      'settings.burst',
      'a burst needs max_deliveries_per_second (a rate to refill it)',
    );
  }
}

/** A new group's settings: absent fields are zero (no limit, the topic's ordering, not paused). */
export function groupSettingsForCreate(input: GroupSettingsInput | undefined): GroupSettings {
  const s: GroupSettings = {
    maxDeliveriesPerSecond: input?.maxDeliveriesPerSecond ?? 0,
    burst: input?.burst ?? 0,
    maxInFlight: input?.maxInFlight ?? 0,
    ordering: input?.ordering,
    paused: input?.paused === true,
  };
  const push = pushForCreate(input?.push);
  const settings = push ? { ...s, push } : s;
  checkGroupSettings(settings);
  return settings;
}

/**
 * A group's settings after an update, as `settingsForUpdate` does a topic's:
 * the fields named in `mask` (snake_case) take the input's value, zero
 * included; with an empty mask every non-zero field does.
 */
export function groupSettingsForUpdate(
  current: GroupSettings,
  input: GroupSettingsInput,
  mask: readonly string[],
): GroupSettings {
  const s = groupSettingsMasked(current, input, mask);
  checkGroupSettings(s);
  return s;
}

/**
 * What can be checked of a group update without the group's settings (on
 * the leader before proposing): the mask's names and each value's bounds.
 * Whether a burst is left without a rate depends on the group: apply checks it.
 */
export function validateGroupUpdate(input: GroupSettingsInput, mask: readonly string[]): void {
  const s = groupSettingsMasked(NO_GROUP_SETTINGS, input, mask);
  checkGroupBounds(s);
  // Push settings named whole (or new) are checked here; a change of some of their fields at apply.
  if (s.push && (mask.length === 0 ? !!input.push?.endpoint : mask.includes('push')))
    checkPushSettings(s.push);
}

function groupSettingsMasked(
  current: GroupSettings,
  input: GroupSettingsInput,
  mask: readonly string[],
): GroupSettings {
  for (const f of mask) {
    if (!(GROUP_MASK_FIELDS as readonly string[]).includes(f) && !PUSH_MASK_FIELDS.includes(f)) {
      throw new ValidationError(
        'update_mask',
        `unknown field "${f}" (${[...GROUP_MASK_FIELDS, ...PUSH_MASK_FIELDS].join(', ')})`,
      );
    }
  }
  const take = (f: GroupMaskField, present: boolean): boolean =>
    mask.length > 0 ? mask.includes(f) : present;
  const push = pushForUpdate(current.push, input.push, mask);
  return {
    ...(push ? { push } : {}),
    maxDeliveriesPerSecond: take('max_deliveries_per_second', !!input.maxDeliveriesPerSecond)
      ? (input.maxDeliveriesPerSecond ?? 0)
      : current.maxDeliveriesPerSecond,
    burst: take('burst', !!input.burst) ? (input.burst ?? 0) : current.burst,
    maxInFlight: take('max_in_flight', !!input.maxInFlight) ? (input.maxInFlight ?? 0) : current.maxInFlight,
    ordering: take('ordering', input.ordering !== undefined) ? input.ordering : current.ordering,
    paused: take('paused', !!input.paused) ? input.paused === true : current.paused,
  };
}

/** The dead-letter topic of a topic: its setting, or `<topic>.dlq` (also when `fallback`: see TopicSettings). */
export function deadLetterTopicOf(topic: string, settings: TopicSettings, fallback = false): string {
  return (!fallback && settings.deadLetterTopic) || `${topic}.dlq`;
}

/**
 * Ids the leader reserves for dead-letter copies: one per tag of a lease, one
 * per group per message of an expire (a topic has at most maxGroupsPerTopic groups).
 */
export function deadLetterIdCount(
  cmd:
    | { readonly kind: 'lease'; readonly tags: readonly unknown[] }
    | { readonly kind: 'expire'; readonly ids: readonly unknown[] },
  limits: Limits,
): number {
  return cmd.kind === 'lease' ? cmd.tags.length : cmd.ids.length * limits.maxGroupsPerTopic;
}
