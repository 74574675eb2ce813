/**
 * Every limit the state machine enforces: a name, a unit in the name, a default.
 * All nodes of a cluster must run with the same limits (they are part of the
 * deterministic apply: a committed command is re-validated against them).
 */
export interface Limits {
  /** Payload of one message. */
  readonly maxPayloadBytes: number;
  /** Sum of the payloads of one publish batch. */
  readonly maxBatchPayloadBytes: number;
  /** Messages in one publish batch. */
  readonly maxBatchMessages: number;
  /** Sum of the UTF-8 bytes of every header name and value of one message. */
  readonly maxHeadersBytes: number;
  readonly maxHeaderCount: number;
  /** A message key (dedup / cancel handle), UTF-8 bytes. */
  readonly maxKeyBytes: number;
  /** A topic name, UTF-8 bytes (names are [A-Za-z0-9._-]). */
  readonly maxTopicNameBytes: number;
  /** A group name, UTF-8 bytes (names are [A-Za-z0-9._-]). */
  readonly maxGroupNameBytes: number;
  /** Groups of one topic, `default` included. */
  readonly maxGroupsPerTopic: number;
  /** Largest `delay_ms`, and largest distance of `deliver_at_ms` into the future. */
  readonly maxDelayMs: number;
  readonly maxTtlMs: number;
  /** Lease length bounds (lease and extend). */
  readonly minLeaseMs: number;
  readonly maxLeaseMs: number;
  /** How far ahead of an entry's due time a lease may be taken (it starts at the due time). */
  readonly maxLeaseAheadMs: number;
  /** Tags of one lease or ack command. */
  readonly maxTagsPerCommand: number;
  /** Ids of one expire command, keys of one purge command. */
  readonly maxIdsPerCommand: number;
  /** Topic setting bounds. */
  readonly maxMaxAttempts: number;
  readonly maxTimeBucketMs: number;
  readonly maxDedupWindowMs: number;
  /** How long a publish request's idempotency key is remembered (a retry within it stores nothing). */
  readonly publishDedupWindowMs: number;
  /** Entries one list call returns. */
  readonly maxListLimit: number;
  /** Bytes of one snapshot chunk. */
  readonly snapshotChunkBytes: number;
  /** Recurring schedules (docs/schedules.md): per topic, in the cluster. */
  readonly maxSchedulesPerTopic: number;
  readonly maxSchedules: number;
  /** Smallest interval between two occurrences of a schedule (an `every` spec, 6-field cron). */
  readonly minScheduleIntervalMs: number;
  /** Missed occurrences `catch_up: all` fires after an outage (the latest ones); older ones are skipped. */
  readonly maxScheduleCatchUp: number;
  /** An occurrence later than this is missed, unless the schedule sets its own misfire_threshold_ms. */
  readonly defaultMisfireThresholdMs: number;
  /** How far ahead of its instant an occurrence may be materialised. */
  readonly maxScheduleAheadMs: number;
  /** Largest jitter_ms of a schedule. */
  readonly maxScheduleJitterMs: number;
  /** Occurrences of one fire command (over all its schedules). */
  readonly maxScheduleFiresPerCommand: number;
}

const DAY_MS = 86_400_000;

export const DEFAULT_LIMITS: Limits = {
  maxPayloadBytes: 1024 * 1024,
  maxBatchPayloadBytes: 4 * 1024 * 1024,
  maxBatchMessages: 1000,
  maxHeadersBytes: 16 * 1024,
  maxHeaderCount: 64,
  maxKeyBytes: 256,
  maxTopicNameBytes: 200,
  maxGroupNameBytes: 100,
  maxGroupsPerTopic: 16,
  maxDelayMs: 730 * DAY_MS,
  maxTtlMs: 730 * DAY_MS,
  minLeaseMs: 1,
  maxLeaseMs: DAY_MS,
  maxLeaseAheadMs: 10_000,
  maxTagsPerCommand: 1000,
  maxIdsPerCommand: 1000,
  maxMaxAttempts: 1000,
  maxTimeBucketMs: 3_600_000,
  maxDedupWindowMs: 30 * DAY_MS,
  publishDedupWindowMs: 600_000,
  maxListLimit: 1000,
  snapshotChunkBytes: 1024 * 1024,
  maxSchedulesPerTopic: 100_000,
  maxSchedules: 1_000_000,
  minScheduleIntervalMs: 1000,
  maxScheduleCatchUp: 1000,
  defaultMisfireThresholdMs: 60_000,
  maxScheduleAheadMs: 60_000,
  maxScheduleJitterMs: 3_600_000,
  maxScheduleFiresPerCommand: 1000,
};

/** Topic settings a topic gets when a field is left at zero on create (or on auto-create). */
export const DEFAULT_TOPIC_SETTINGS = {
  maxAttempts: 10,
  defaultLeaseMs: 30_000,
  /** Empty = `<topic>.dlq`. */
  deadLetterTopic: '',
  expiryAction: 'drop' as 'drop' | 'dead-letter',
  timeBucketMs: 0,
  dedupWindowMs: 300_000,
  ordering: 'none' as 'none' | 'key',
  orderingKeyFromKey: false,
  maxLatenessMs: 0,
  deadlineAction: 'dead-letter' as 'dead-letter' | 'drop',
  paused: false,
} as const;

/** Entries a list call returns when the caller names no limit. */
export const DEFAULT_LIST_LIMIT = 100;

export function resolveLimits(overrides: Partial<Limits> = {}): Limits {
  return { ...DEFAULT_LIMITS, ...overrides };
}
