/**
 * What one applied entry batch shares: the time stamp of the command being
 * applied, the write set (every change goes through the Txn, so a failing
 * command rolls back completely) and the stores apply reads and writes
 * through. The stores own the storage keys and codecs; apply files never
 * touch either.
 */
import type { QueueHasher } from '../../keys.js';
import { ConflictError } from '../model/errors.js';
import type { Limits } from '../model/limits.js';
import type { DeadlineAtLease, QueueEntryRec, RunHold, TopicRec } from '../model/records.js';
import { DeadLetterStore } from '../stores/dead-letters.js';
import { EntryStore } from '../stores/entries.js';
import type { EventRepository } from '../stores/event-repository.js';
import { KeyHeadStore } from '../stores/key-heads.js';
import type { LeaseIndex } from '../stores/lease-index.js';
import { LeaseStore } from '../stores/leases.js';
import { MessageStore } from '../stores/messages.js';
import { PublishStore } from '../stores/publishes.js';
import { PurgeStore } from '../stores/purges.js';
import { QueueStore } from '../stores/queues.js';
import type { RequestFilter } from '../stores/request-filter.js';
import { RequestStore } from '../stores/requests.js';
import { ScheduleStore } from '../stores/schedules.js';
import type { CommandTime } from '../stores/time.js';
import { TopicStore } from '../stores/topics.js';
import type { Txn } from '../stores/txn.js';
import { applyBound, itemWork } from './apply-bound.js';

/**
 * Points of apply where the broker simulation injects bugs (`--bug`, the
 * broker's sim/injected-bugs.ts), as a test-only subclass does elsewhere.
 * The server never sets them (`BrokerStateMachine.applyHooks` stays
 * undefined), so apply pays one undefined check at each point. A hook must
 * be a function of the replicated state alone, as apply is: every replica
 * runs it.
 */
export interface ApplyHooks {
  /** The open offset a run tag names, given the one it names (shipped: that one). */
  readonly runTagHold?: (ctx: ApplyContext, named: RunHold) => RunHold;
  /** An ack removed the entry `hold` held and settled its offset. */
  readonly acked?: (ctx: ApplyContext, topic: TopicRec, hold: RunHold) => Promise<void> | undefined;
  /** Whether a lease finds the queue paused (shipped: records.ts `groupPaused`). */
  readonly paused?: (topic: TopicRec, group: string) => boolean;
  /** What a lease of the entry meets of its deadline (shipped: records.ts `deadlineAtLease`). */
  readonly deadline?: (entry: QueueEntryRec, nowMs: number) => DeadlineAtLease;
  /** A running lease of `entry` (its view as leased) was nacked. */
  readonly nacked?: (ctx: ApplyContext, topic: TopicRec, entry: QueueEntryRec) => Promise<void> | undefined;
  /** Per-key ordering: whether a new message due before a front never leased takes its place (shipped: yes). */
  readonly keyFrontSwaps?: boolean;
}

/** Longest stretch of apply work before the event loop gets a turn. */
export const APPLY_SLICE_MS = 2;

export class ApplyContext {
  private readonly time: CommandTime = { nowMs: 0, inlineBodies: false };
  readonly queues: QueueStore;
  readonly topics: TopicStore;
  readonly messages: MessageStore;
  readonly entries: EntryStore;
  readonly requests: RequestStore;
  readonly deadLetters: DeadLetterStore;
  readonly schedules: ScheduleStore;
  readonly purges: PurgeStore;
  readonly publishes: PublishStore;
  readonly leases: LeaseStore;
  /** Per-key ordering's head and wait records (the rules over them: `entries.order`). */
  readonly heads: KeyHeadStore;

  /** When apply last let the event loop run (performance.now()). */
  private sliceStartMs = performance.now();

  constructor(
    readonly txn: Txn,
    readonly limits: Limits,
    readonly hasher: QueueHasher,
    readonly ids: EventRepository,
    requestFilter: RequestFilter,
    leaseIndex: LeaseIndex,
    /** The simulation's injected bugs (ApplyHooks); undefined outside it. */
    readonly hooks?: ApplyHooks,
  ) {
    this.queues = new QueueStore(txn, hasher);
    this.topics = new TopicStore(txn, limits, this.queues, this.time);
    this.publishes = new PublishStore(txn);
    this.leases = new LeaseStore(txn, leaseIndex);
    this.messages = new MessageStore(txn, this.topics, this.queues, this.time, this.publishes);
    this.heads = new KeyHeadStore(txn);
    this.entries = new EntryStore(
      txn,
      this.queues,
      this.messages,
      this.time,
      this.publishes,
      this.heads,
      this.leases,
      hooks?.keyFrontSwaps !== false,
    );
    this.requests = new RequestStore(txn, requestFilter);
    this.deadLetters = new DeadLetterStore(txn, limits, this.topics, this.entries, this.messages, this.time);
    this.schedules = new ScheduleStore(txn);
    this.purges = new PurgeStore(txn);
  }

  /** The time stamp of the command being applied (its `now_ms`, never the local clock). */
  get nowMs(): number {
    return this.time.nowMs;
  }

  /**
   * A command begins: its time stamp (`now_ms`, never the local clock) and
   * whether the messages it makes carry their body inline (`inline_bodies`).
   */
  beginCommand(nowMs: number, inlineBodies: boolean): void {
    this.time.nowMs = nowMs;
    this.time.inlineBodies = inlineBodies;
    this.publishes.beginCommand();
    this.leases.beginCommand();
  }

  /** The command applied: what the stores keep per command is written (its publish record, its runs). */
  endCommand(): void {
    this.publishes.endCommand();
    this.leases.endCommand();
  }

  /** Checks and observes a block of leader-assigned ids: they must all be new. */
  claimIds(firstId: bigint, count: number, field: string): void {
    if (count === 0) return;
    if (firstId <= this.ids.lastId) {
      throw new ConflictError(
        'id-reuse',
        `${field}: id ${firstId} is not above the last id ${this.ids.lastId}`,
      );
    }
    this.ids.observeId(firstId + BigInt(count) - 1n);
  }

  /**
   * Whether `items` more items (apply-bound.ts), writing `payloadBytes` of
   * payload besides, fit in what is left of this command's bound. Commands
   * whose items copy payloads they did not bring (dead letters, a schedule's
   * occurrences) stop when the next one does not, and leave it for later.
   */
  fits(items: number, payloadBytes: number): boolean {
    const done = this.txn.work;
    const item = itemWork(this.limits);
    const bound = applyBound(this.limits);
    return (
      done.records + items * item.records <= bound.records &&
      done.bytes + items * item.bytes + payloadBytes <= bound.bytes
    );
  }

  /** Reads these storage keys (named by the stores' `*reads` methods) in one parallel round. */
  prefetch(keys: readonly Uint8Array[]): Promise<void> {
    return this.txn.prefetch(keys);
  }

  /**
   * Lets the event loop run (timers: the dispatcher's pushes at their due
   * millisecond) when apply has held it for APPLY_SLICE_MS. Changes nothing in
   * the outcome: the batch is written at the end, and applies run one at a time.
   */
  /** A running lease of `entry` (its view as leased) was nacked, by a run tag or an entry's: the hook runs. */
  async nacked(topic: TopicRec, entry: QueueEntryRec): Promise<void> {
    const hooked = this.hooks?.nacked?.(this, topic, entry);
    if (hooked) await hooked;
  }

  async yieldSometimes(): Promise<void> {
    const now = performance.now();
    if (now - this.sliceStartMs < APPLY_SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStartMs = performance.now();
  }
}
