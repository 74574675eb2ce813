import { invariant } from '@fermata/base';
import { DEFAULT_GROUP, KEY_BYTES, leaseTag } from '../../keys.js';
import {
  type GroupSettings,
  groupSettingsUnset,
  NO_GROUP_SETTINGS,
  type Ordering,
} from './group-settings.js';

/**
 * The stored records (records.proto) as plain views, and the rules about them:
 * a queue entry's lease state, and the index a message of one group and no key
 * implies. Their codecs are in codec/, one per record kind. Ids are bigint;
 * times and counters are numbers (far below 2^53).
 */
export type ExpiryAction = 'drop' | 'dead-letter';
/** What a message past its deadline becomes: a dead letter (reason `deadline_exceeded`) or nothing. */
export type DeadlineAction = 'dead-letter' | 'drop';

/** Resolved topic settings: every field holds its effective value. */
export interface TopicSettings {
  readonly maxAttempts: number;
  readonly defaultLeaseMs: number;
  /** Empty = `<topic>.dlq`. */
  readonly deadLetterTopic: string;
  readonly expiryAction: ExpiryAction;
  readonly timeBucketMs: number;
  readonly dedupWindowMs: number;
  /**
   * The token that set `deadLetterTopic` ('' when none did: authentication
   * off, or the default target). While it may not publish there, dead letters
   * go to the topic's own `<topic>.dlq` (the leader decides, per command).
   */
  readonly deadLetterAuthorizedBy: string;
  /** The ordering of its groups that set none. */
  readonly ordering: Ordering;
  /** A message's dedup key is its ordering key when it names none. */
  readonly orderingKeyFromKey: boolean;
  /** A message's default deadline: its due time plus this, fixed at publish (0 = none). */
  readonly maxLatenessMs: number;
  readonly deadlineAction: DeadlineAction;
  /** Nothing new is leased for any group of the topic. */
  readonly paused: boolean;
}

/** One published message's answer, as a request record keeps it for a retry. */
export interface PublishResultItem {
  readonly id: bigint;
  readonly deduplicated: boolean;
  /** The due time the message was (or, deduplicated, had been) published with; 0 if it already ended. */
  readonly dueAtMs: number;
}

export interface TopicRec {
  readonly name: string;
  readonly settings: TopicSettings;
  /** `default` first, then in creation order; not those being deleted. */
  readonly groups: readonly string[];
  readonly createdAtMs: number;
  /** Deleted: its records are being removed (a PurgeRec says how far); it takes no publish, lease or settle. */
  readonly deleting?: boolean;
  /** Groups deleted whose entries are still being removed (a PurgeRec each). */
  readonly deletingGroups?: readonly string[];
  /** The settings of the groups that set any (`groupSettingsOf` for every group). */
  readonly groupSettings?: Readonly<Record<string, GroupSettings>>;
}

/** Whether `group` of `topic` takes no new lease or settle: the topic or the group is being deleted. */
export function groupDeleting(topic: TopicRec, group: string): boolean {
  return topic.deleting === true || (topic.deletingGroups?.includes(group) ?? false);
}

/** The group's own settings (all zero when it set none). */
export function groupSettingsOf(topic: TopicRec, group: string): GroupSettings {
  return (
    (topic.groupSettings !== undefined && Object.hasOwn(topic.groupSettings, group)
      ? topic.groupSettings[group]
      : undefined) ?? NO_GROUP_SETTINGS
  );
}

/** The group's settings as they take effect: ordering and burst resolved, paused by the topic or itself. */
export function effectiveGroupSettings(topic: TopicRec, group: string): GroupSettings {
  const own = groupSettingsOf(topic, group);
  const rate = own.maxDeliveriesPerSecond;
  return {
    maxDeliveriesPerSecond: rate,
    burst: rate === 0 ? 0 : own.burst || Math.max(1, rate),
    maxInFlight: own.maxInFlight,
    ordering: own.ordering ?? topic.settings.ordering,
    paused: topic.settings.paused || own.paused,
    ...(own.push ? { push: own.push } : {}),
  };
}

/** Whether nothing new may be leased for `group` of `topic`: the topic or the group is paused. */
export function groupPaused(topic: TopicRec, group: string): boolean {
  return topic.settings.paused || groupSettingsOf(topic, group).paused;
}

/** The topic record with `group`'s own settings replaced (an unset one leaves no entry). */
export function withGroupSettings(topic: TopicRec, group: string, settings: GroupSettings): TopicRec {
  const { [group]: _old, ...others } = topic.groupSettings ?? {};
  const groupSettings = groupSettingsUnset(settings) ? others : { ...others, [group]: settings };
  const { groupSettings: _all, ...rest } = topic;
  return Object.keys(groupSettings).length > 0 ? { ...rest, groupSettings } : rest;
}

export type PurgePhase = 'entries' | 'keys' | 'schedules';

/** A deletion under way (records.proto PurgeRecord): a topic (`group` '') or one group of it. */
export interface PurgeRec {
  readonly topic: string;
  readonly group: string;
  readonly startedAtMs: number;
  /** The queues to empty, in order. */
  readonly groups: readonly string[];
  readonly phase: PurgePhase;
  readonly groupIndex: number;
  /** The last key removed in this phase (the next step starts after it); empty = from the start. */
  readonly cursor: Uint8Array;
  readonly entriesAtStart: number;
  readonly removedEntries: number;
  readonly removedRecords: number;
}

export interface QueueRec {
  readonly topic: string;
  readonly group: string;
  pending: number;
  inFlight: number;
  deadLettered: number;
  /** The due-load histogram counts its pending entries (a queue registered by a version that keeps one). */
  readonly dueLoad?: boolean;
}

export interface QueueEntryRec {
  readonly id: bigint;
  readonly topic: string;
  readonly group: string;
  /**
   * Exact due time (the key's due field, or its bucket). For an entry leased
   * by the previous versions' lease (in flight, `leaseEndMs` 0) the end of
   * its lease, where that lease moved it.
   */
  readonly dueAtMs: number;
  readonly attempt: number;
  readonly inFlight: boolean;
  readonly deliveredAtMs: readonly number[];
  /** The message's expiry (0 = none). */
  readonly expireAtMs: number;
  /**
   * The message has this one group and no key: its index record is
   * `impliedIndex(entry, entry.group, tag)`, so moving or ending the entry
   * never reads it.
   * False on entries written before the field existed (their index is read).
   */
  readonly indexImplied: boolean;
  /**
   * In flight under a lease taken in place (the entry stays under its key):
   * when the lease ends. 0 otherwise: not in flight, or leased by the
   * previous versions' lease, whose end is `dueAtMs`.
   */
  readonly leaseEndMs: number;
  /**
   * With `indexImplied`: the entry never moved, so its message has no index
   * record to delete when it ends. False on entries written before the field
   * existed and once the entry moved.
   */
  readonly indexUnwritten: boolean;
  /**
   * How many leases in place the entry has had: each raises it, nothing
   * lowers it (a handed-back lease lowers the attempt, not this). The
   * current lease's tag names it (`leaseTag`).
   */
  readonly leaseSerial: number;
  /**
   * In flight: the consumer the lease was taken for (`Subscribe.consumer_id`),
   * so that a new leader can hand the delivery back to it; 0n = none, or
   * written before the field existed.
   */
  readonly leaseConsumer: bigint;
  /** Why its last delivery failed: the last nack's error ('' = none said). Kept until the entry ends. */
  readonly lastError: string;
  /** Per-key ordering: the key its message is ordered by ('' = none). */
  readonly orderingKey: string;
  /** Its message's deadline (0 = none): no lease is taken at or after it. */
  readonly deliverBeforeMs: number;
  /**
   * Placed by its key's order (per-key ordering): its end moves the key's next
   * message up. Entries written before the field carry no body instead
   * (`maybeOrdered`).
   */
  readonly ordered: boolean;
  /**
   * The message's body, when the entry carries it (its message has this one
   * entry and was written with `inline_bodies`): no body record exists then.
   * Undefined for an entry whose body is a record of its own.
   */
  readonly body: BodyRec | undefined;
}

/** When the entry's lease ends (in flight only): kept in the entry, or its due time for a moved lease. */
export function leaseEndOf(e: QueueEntryRec): number {
  return e.leaseEndMs > 0 ? e.leaseEndMs : e.dueAtMs;
}

/**
 * The delivery tag of the entry under `key`: the key and the attempt for a
 * lease taken in place, the key itself for a moved lease (and for an entry
 * not in flight, which no tag names).
 */
export function deliveryTagOf(key: Uint8Array, entry: QueueEntryRec): Uint8Array {
  return entry.inFlight && entry.leaseEndMs > 0 ? leaseTag(key, entry.leaseSerial) : key;
}

/** When the entry's latest lease starts (its due time when the lease was taken ahead); undefined if never leased. */
export function leaseStartMs(e: QueueEntryRec): number | undefined {
  return e.deliveredAtMs.length > 0 ? e.deliveredAtMs[e.deliveredAtMs.length - 1] : undefined;
}

/** A lease taken ahead of the entry's due time that has not started by `nowMs`: the message is still pending. */
export function leaseNotStarted(e: QueueEntryRec, nowMs: number): boolean {
  if (!e.inFlight) return false;
  const start = leaseStartMs(e);
  return start !== undefined && start > nowMs;
}

/**
 * The entry is leased and its lease has not run out: a consumer holds it, or
 * will at the lease's start (a lease taken ahead may already be on its way to
 * the consumer). Cancel and reschedule answer IN_FLIGHT for it.
 */
export function leaseHeld(e: QueueEntryRec, nowMs: number): boolean {
  return e.inFlight && leaseEndOf(e) > nowMs;
}

/** A consumer holds the entry under a lease that runs at `nowMs` (started: ack, nack and extend count). */
export function leaseRunning(e: QueueEntryRec, nowMs: number): boolean {
  return leaseHeld(e, nowMs) && !leaseNotStarted(e, nowMs);
}

/**
 * The entry as it was before its not-yet-started lease: pending at its due
 * time (where a lease in place left it; a moved lease's start), the attempt
 * not counted.
 */
export function withoutLease(e: QueueEntryRec): QueueEntryRec {
  return {
    ...e,
    dueAtMs: e.leaseEndMs > 0 ? e.dueAtMs : (leaseStartMs(e) ?? e.dueAtMs),
    inFlight: false,
    attempt: Math.max(0, e.attempt - 1),
    deliveredAtMs: e.deliveredAtMs.slice(0, -1),
    leaseEndMs: 0,
    leaseConsumer: 0n,
  };
}

/** The entry made pending at `dueAtMs` (a nack, a reschedule): no lease. */
export function pendingAt(e: QueueEntryRec, dueAtMs: number): QueueEntryRec {
  return { ...e, dueAtMs, inFlight: false, leaseEndMs: 0, leaseConsumer: 0n };
}

export type GroupOutcome = 'live' | 'done' | 'dead-lettered' | 'expired' | 'removed';

export interface GroupRef {
  readonly group: string;
  /** Current 24-byte queue key; empty once the group's entry ended. */
  readonly tag: Uint8Array;
  readonly outcome: GroupOutcome;
}

export interface MessageIndexRec {
  readonly topic: string;
  readonly key: string;
  readonly expireAtMs: number;
  readonly groups: readonly GroupRef[];
  /** The message ended; kept as a tombstone while its key is reserved. */
  readonly done: boolean;
  readonly endedAtMs: number;
}

export interface KeyRec {
  readonly id: bigint;
  /** 0 while the message lives. */
  readonly endedAtMs: number;
  readonly windowEndMs: number;
}

/** The answer to a publish request with an idempotency key, kept for its dedup window. */
export interface RequestRec {
  /** The first id the request's entry assigned to it (message i got firstId + i unless deduplicated by key). */
  readonly firstId: bigint;
  readonly appliedAtMs: number;
  /** What each message was answered, in order. */
  readonly results: readonly PublishResultItem[];
  readonly windowEndMs: number;
}

/** Why a message was dead-lettered (DeadLetterInfo.reason). */
export type DeadLetterReason = 'max_attempts' | 'expired' | 'deadline_exceeded';

export interface DeadLetterInfo {
  readonly sourceTopic: string;
  readonly sourceGroup: string;
  readonly sourceId: bigint;
  readonly sourceKey: string;
  readonly reason: DeadLetterReason;
  readonly attempts: number;
  readonly deliveredAtMs: readonly number[];
  readonly deadLetteredAtMs: number;
  /** Why the last delivery failed (the entry's `lastError`); '' = none said. */
  readonly lastError: string;
}

export interface BodyRec {
  readonly id: bigint;
  readonly topic: string;
  readonly payload: Uint8Array;
  readonly headers: Readonly<Record<string, string>>;
  readonly key: string;
  readonly enqueuedAtMs: number;
  readonly dueAtMs: number;
  readonly expireAtMs: number;
  readonly deadLetter?: DeadLetterInfo;
  /**
   * The message's entry has `indexImplied`, and no index record is written
   * until that entry first moves: until then `impliedIndex` of the `default`
   * group at `dueAtMs` is its index. Set by `addMessage`.
   */
  readonly indexImplied?: boolean;
  /** Per-key ordering: the key it is ordered by ('' = none). */
  readonly orderingKey: string;
  /** Its deadline (0 = none): no lease is taken at or after it. */
  readonly deliverBeforeMs: number;
}

/**
 * The index record of a live message of one group and no key (its entry has
 * `indexImplied`) whose entry is under `tag`. A lease and an ack write it (or
 * delete it) without reading it; before the entry first moves it is not
 * stored at all (`BodyRec.indexImplied`).
 */
export function impliedIndex(
  m: { readonly topic: string; readonly expireAtMs: number },
  group: string,
  tag: Uint8Array,
): MessageIndexRec {
  return {
    topic: m.topic,
    key: '',
    expireAtMs: m.expireAtMs,
    groups: [{ group, tag, outcome: 'live' }],
    done: false,
    endedAtMs: 0,
  };
}

/**
 * The index a moved-entry record (`movedIndexTag`) stands for, with the body
 * record that must imply it, or, for a message whose entry carries its body,
 * the entry under `tag`.
 */
export function movedIndex(
  id: bigint,
  implier: BodyRec | QueueEntryRec | undefined,
  tag: Uint8Array,
): MessageIndexRec {
  invariant(
    implier !== undefined &&
      ('indexUnwritten' in implier ? implier.indexImplied && implier.id === id : implier.indexImplied),
    () => `message ${id} has a moved-entry index but no implied index`,
  );
  return impliedIndex(implier, DEFAULT_GROUP, tag);
}

/**
 * A publish record (records.proto PublishRecord): the messages of one command
 * that carry their body in their entry and have no index record, each with
 * the queue key it was published under. Keyed by its first id.
 */
export interface PublishRec {
  readonly firstId: bigint;
  /** Their queue keys, 24 bytes each, one after another, in id order. */
  readonly keyBytes: Uint8Array;
  /** The latest due time (ms) among them. */
  readonly latestDueMs: number;
}

/**
 * A lease of a run of entries of one queue (records.proto LeaseRecord, with
 * its LeaseSettles): the entries are not written while it holds them.
 * Offset i is the lease of the entry under key i (`runKey`). Never changed
 * in place once stored: a command that settles or extends offsets works on
 * a copy (stores/leases.ts) that shares the parts no command changes.
 */
export interface LeaseRun {
  readonly leaseId: bigint;
  readonly topic: string;
  readonly group: string;
  readonly queueHash: bigint;
  /** The consumer it was taken for; 0n = none. */
  readonly consumer: bigint;
  /** The lease command's time stamp. */
  readonly nowMs: number;
  readonly leaseMs: number;
  /** How many offsets it has. */
  readonly length: number;
  /** The entries' 24-byte keys, offset by offset (`runKey`). */
  readonly keyBytes: Uint8Array;
  /** Per offset, when its lease starts minus `nowMs` (its entry's due time, when taken ahead). */
  readonly startOffsets: readonly number[];
  /**
   * Bit i set: the message of offset i has records besides its entry, so
   * what ends it reads the entry; clear: an ack deletes the entry unread
   * (`entryAlone`). May be shorter than the run (trailing zero bytes).
   */
  readonly sideRecords: Uint8Array;
  /** Bit i set: offset i is settled. */
  readonly settled: Uint8Array;
  /** Extended offsets: their lease's end. */
  readonly extendedEndMs: ReadonlyMap<number, number>;
  /** Offsets not settled. */
  readonly open: number;
}

/** Where a run lease holds an entry: the run and the entry's offset in it (an open one). */
export interface RunHold {
  readonly run: LeaseRun;
  readonly offset: number;
}

/** The key of offset `offset`'s entry: a view into the run's keys. */
export function runKey(run: LeaseRun, offset: number): Uint8Array {
  return run.keyBytes.subarray(offset * KEY_BYTES, (offset + 1) * KEY_BYTES);
}

/** Whether offset `offset`'s key is `key` (24 bytes), compared in place. */
export function runKeyIs(run: LeaseRun, offset: number, key: Uint8Array): boolean {
  const bytes = run.keyBytes;
  const at = offset * KEY_BYTES;
  for (let i = KEY_BYTES - 1; i >= 0; i--) if (bytes[at + i] !== key[i]) return false;
  return true;
}

export function offsetSettled(run: LeaseRun, offset: number): boolean {
  return (run.settled[offset >> 3]! & (1 << (offset & 7))) !== 0;
}

/**
 * Whether offset `offset`'s entry is all its message has (one group, no
 * key, no expiry, never moved, its body inline): ending it deletes the
 * entry and nothing else, without reading it.
 */
export function entryAlone(run: LeaseRun, offset: number): boolean {
  return ((run.sideRecords[offset >> 3] ?? 0) & (1 << (offset & 7))) === 0;
}

/** Whether the stored entry `e` is all its message has (`entryAlone`). */
export function aloneInStore(e: QueueEntryRec): boolean {
  return (
    !e.ordered &&
    e.indexImplied &&
    e.indexUnwritten &&
    e.body !== undefined &&
    e.expireAtMs === 0 &&
    e.deliverBeforeMs === 0
  );
}

/**
 * The largest payload an ordered message's entry carries (in a topic of one
 * group, with `inline_bodies`); a larger one has a body record. An ordered
 * entry moves when its key's next message moves up, and one ack command
 * moves up to a message per tag: carried payloads of this size keep that
 * within the command's bound (apply-bound.ts). Part of the layout every node
 * applies alike: not to be changed without a command field that says so.
 */
export const ORDERED_INLINE_PAYLOAD_BYTES = 1024;

/**
 * Whether the entry may be placed by its key's order (per-key ordering),
 * so that its end or move must ask its key's head: marked `ordered`, or
 * written before the mark with an ordering key and no body of its own
 * (every ordered entry had a body record then; so has an entry of a topic
 * of several groups, which the head then does not name).
 */
export function maybeOrdered(e: QueueEntryRec): boolean {
  return e.ordered || (e.orderingKey !== '' && e.body === undefined);
}

/** What a lease meets of its entry's deadline (`deadlineAtLease`). */
export type DeadlineAtLease = 'passed' | 'ahead' | undefined;

/**
 * What a lease of `e` at `nowMs` meets of its deadline: `passed` when the
 * deadline is at or before `nowMs` (the message is ended, never leased);
 * `ahead` when the lease, taken ahead, would start at or after it (it waits:
 * by its due time the deadline has passed); undefined when it has none or
 * the lease would start before it.
 */
export function deadlineAtLease(e: QueueEntryRec, nowMs: number): DeadlineAtLease {
  const deadline = e.deliverBeforeMs;
  if (deadline === 0) return undefined;
  if (nowMs >= deadline) return 'passed';
  const startMs = e.inFlight ? leaseEndOf(e) : e.dueAtMs;
  return startMs >= deadline ? 'ahead' : undefined;
}

/** When offset `offset` of `run` starts. */
export function runStartMs(run: LeaseRun, offset: number): number {
  return run.nowMs + run.startOffsets[offset]!;
}

/** When offset `offset` of `run` ends (its extension's end, if extended). */
export function runEndMs(run: LeaseRun, offset: number): number {
  if (run.extendedEndMs.size > 0) {
    const extended = run.extendedEndMs.get(offset);
    if (extended !== undefined) return extended;
  }
  return runStartMs(run, offset) + run.leaseMs;
}

/**
 * The entry `e` as the run lease `hold` holds it: in flight until the
 * offset's end, its attempt and history counting that lease, the run's
 * consumer. The stored entry counts only the leases that ended; every read
 * and every check of a held entry goes through this view (a lease in place
 * kept the same fields in the entry itself).
 */
export function heldView(e: QueueEntryRec, hold: RunHold): QueueEntryRec {
  return {
    id: e.id,
    topic: e.topic,
    group: e.group,
    dueAtMs: e.dueAtMs,
    attempt: e.attempt + 1,
    inFlight: true,
    deliveredAtMs: [...e.deliveredAtMs, runStartMs(hold.run, hold.offset)],
    expireAtMs: e.expireAtMs,
    indexImplied: e.indexImplied,
    leaseEndMs: runEndMs(hold.run, hold.offset),
    indexUnwritten: e.indexUnwritten,
    leaseSerial: e.leaseSerial,
    leaseConsumer: hold.run.consumer,
    lastError: e.lastError,
    orderingKey: e.orderingKey,
    deliverBeforeMs: e.deliverBeforeMs,
    ordered: e.ordered,
    body: e.body,
  };
}

/**
 * The entry a held view (`heldView`) stands for, as stored once the lease
 * ended counted (lapsed, nacked): attempt and history keep that lease, no
 * lease runs.
 */
export function countedLease(view: QueueEntryRec): QueueEntryRec {
  return { ...view, inFlight: false, leaseEndMs: 0, leaseConsumer: 0n };
}
