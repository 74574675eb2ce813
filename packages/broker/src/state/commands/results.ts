import type { StateError } from '../model/errors.js';
import type { PublishResultItem, TopicRec } from '../model/records.js';
import type { ScheduleResult } from '../schedule/ops.js';

export type { PublishResultItem };

export type LeaseStatus =
  /** Leased: deliver it under `newTag` until `leaseExpiresAtMs`. */
  | 'leased'
  /** Past maxAttempts: moved to the dead-letter topic as message `deadLetterId`. */
  | 'dead-lettered'
  /** Past maxAttempts and could not be dead-lettered (already a dead letter, no id reserved, bad DLQ name): removed. */
  | 'dropped'
  /** Not yet due (or leased by someone else and the lease still runs). */
  | 'not-due'
  /** The topic or the group is paused: nothing is leased (the entry stays as it is). */
  | 'paused'
  /** The tag names no entry of this queue (acked, moved, or never existed). */
  | 'gone';

export interface LeaseOutcome {
  readonly tag: Uint8Array;
  readonly status: LeaseStatus;
  readonly id?: bigint;
  readonly newTag?: Uint8Array;
  /** 1 on the first delivery. */
  readonly attempt?: number;
  readonly leaseExpiresAtMs?: number;
  /** When the lease starts: the command's time, or the entry's due time for a lease taken ahead. */
  readonly startsAtMs?: number;
  readonly deadLetterId?: bigint;
  /** Dead-lettered or dropped because its deadline passed (not for its attempts). */
  readonly deadlineExceeded?: boolean;
}

/**
 * `deferred`: not looked at, past the command's bound on one apply; the
 * leader proposes it again (it never reaches a client).
 */
export type RedriveStatus =
  | 'redriven'
  | 'not-found'
  | 'not-a-dead-letter'
  | 'in-flight'
  | 'group-gone'
  | 'deferred';

export interface RedriveOutcome {
  /** The dead letter's id. */
  readonly id: bigint;
  readonly status: RedriveStatus;
  /** Redriven: the new message's id in the source topic. */
  readonly newId?: bigint;
}

export type SettleStatus = 'ok' | 'lease-expired';

export interface SettleOutcome {
  readonly tag: Uint8Array;
  readonly status: SettleStatus;
  /** Extend: the entry's new tag. */
  readonly newTag?: Uint8Array;
  /** Nack: the new due time; extend: the new lease end. */
  readonly dueAtMs?: number;
}

export type CancelStatus = 'cancelled' | 'not-found' | 'in-flight' | 'already-done';
export type RescheduleStatus = 'rescheduled' | 'not-found' | 'in-flight' | 'already-done';

export interface GroupChange {
  readonly group: string;
  /** The group's entry was pending (changed), in flight (blocked the command), or had already ended. */
  readonly state: 'pending' | 'in-flight' | 'ended';
}

export interface CancelResult {
  readonly status: CancelStatus;
  readonly id?: bigint;
  readonly groups: readonly GroupChange[];
}

export interface RescheduleResult {
  readonly status: RescheduleStatus;
  readonly id?: bigint;
  readonly dueAtMs?: number;
  readonly groups: readonly GroupChange[];
}

export type ExpireStatus = 'expired' | 'dead-lettered' | 'not-due' | 'gone';

export interface ExpireOutcome {
  readonly id: bigint;
  readonly status: ExpireStatus;
  /**
   * Ended because its deadline passed (not its TTL): per group, how (`dead-lettered`
   * or `dropped`). A group whose lease still runs is not ended: the message waits for it.
   */
  readonly deadline?: { readonly topic: string; readonly groups: readonly DeadlineEnd[] };
}

/** One group's entry ended at its deadline. */
export interface DeadlineEnd {
  readonly group: string;
  readonly action: 'dead-letter' | 'drop';
}

/** What applying one command returned (one per Raft entry; `undefined` for no-ops and conf changes). */
export type CommandResult =
  | {
      readonly kind: 'publish';
      /** In message order, leaving out the messages of refused requests. */
      readonly results: readonly PublishResultItem[];
      /** Requests of the entry (index into the command's `requests`) refused alone; nothing of them was stored. */
      readonly refused?: readonly { readonly request: number; readonly error: StateError }[];
    }
  | { readonly kind: 'lease'; readonly outcomes: readonly LeaseOutcome[] }
  | { readonly kind: 'ack'; readonly outcomes: readonly SettleOutcome[] }
  | { readonly kind: 'nack'; readonly outcome: SettleOutcome }
  | { readonly kind: 'extend'; readonly outcome: SettleOutcome }
  | { readonly kind: 'cancel'; readonly result: CancelResult }
  | { readonly kind: 'redrive'; readonly outcomes: readonly RedriveOutcome[] }
  | { readonly kind: 'reschedule'; readonly result: RescheduleResult }
  | { readonly kind: 'expire'; readonly outcomes: readonly ExpireOutcome[] }
  | { readonly kind: 'purge-keys'; readonly purged: number }
  /** Publish records named and deleted (unread: a first id of a record already gone counts too). */
  | { readonly kind: 'forget-publishes'; readonly forgotten: number }
  | { readonly kind: 'create-topic'; readonly topic: TopicRec }
  | { readonly kind: 'update-topic'; readonly topic: TopicRec }
  | { readonly kind: 'create-group'; readonly topic: TopicRec }
  | { readonly kind: 'update-group'; readonly topic: TopicRec }
  | { readonly kind: 'delete-topic'; readonly removedMessages: number }
  | { readonly kind: 'delete-group'; readonly removedMessages: number }
  | {
      readonly kind: 'purge';
      /** Queue entries and other records (keys, schedules) this step removed. */
      readonly removedEntries: number;
      readonly removedRecords: number;
      /** The deletion is complete (also: there was none). */
      readonly done: boolean;
    }
  | { readonly kind: 'schedule'; readonly result: ScheduleResult }
  | { readonly kind: 'apply-limits'; readonly changed: readonly string[] }
  /** The command was refused: it changed nothing (the applied index still advanced). */
  | { readonly kind: 'error'; readonly error: StateError };

/** One result per applied entry; `undefined` for the leader's no-op and conf-change entries. */
export type ApplyResult = CommandResult | undefined;
