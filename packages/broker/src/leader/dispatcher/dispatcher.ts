// The leader's dispatcher. Over 400 lines: one class whose parts (the queues coming due, the
// lease rounds, the consumers' credit and the push schedule) act on the same state under one
// epoch; each queue's round state is a QueueRound (queue-round.ts), when rounds start is
// round-cadence.ts, how a round's runs fill lease commands is run-packing.ts, where a leased
// delivery goes is lease-placement.ts, and the parts that hold no shared state are in
// due-queues.ts, consumer-registry.ts and push-schedule.ts.

import { type Clock, invariant, type TimerHandle } from '@fermata/base';
import type { pb } from '@fermata/protocol';
import { numberAsInt64 } from '@fermata/protocol';
import type { Logger } from 'pino';
import { inQueue, queueHashBytes, tagFromKey, tagKeyOf } from '../../keys.js';
import type { CommandResult, LeaseOutcome } from '../../state/commands/results.js';
import {
  type BodyRec,
  effectiveGroupSettings,
  groupDeleting,
  groupPaused,
  leaseStartMs,
  type TopicRec,
} from '../../state/model/records.js';
import { type BrokerReader, type EntryView, MAX_PASSED_PER_SCAN } from '../../state/read/reader.js';
import type { DeadLetterGate } from '../dead-letter-gate.js';
import type { LeaderMetrics } from '../metrics.js';
import type { Proposer } from '../proposer.js';
import type { Consumer, Push } from './consumer.js';
import { ConsumerRegistry } from './consumer-registry.js';
import { DueHeap } from './due-heap.js';
import { DueQueues } from './due-queues.js';
import { type LeasedDelivery, LeasePlacement } from './lease-placement.js';
import { DeliveryLimits, type GroupLimits } from './limits.js';
import { PushSchedule } from './push-schedule.js';
import { QueueRound } from './queue-round.js';
import { defaultLeaseRoundBudget, RoundBudget } from './round-budget.js';
import { RoundCadence } from './round-cadence.js';
import { packRuns } from './run-packing.js';

export interface DispatcherOptions {
  readonly reader: BrokerReader;
  readonly proposer: Proposer;
  readonly metrics: LeaderMetrics;
  readonly log: Logger;
  /** Wall time for due times and leases, monotonic time for round intervals, and the timers. */
  readonly clock: Clock;
  /** Most entries leased in one Raft command (over all its runs). */
  readonly maxLeaseBatch: number;
  /** How long before its due time an entry is leased (the consumer still gets its delivery at the due time). */
  readonly leaseAheadMs: number;
  /** Lease rounds of one queue awaiting apply at once. */
  readonly maxLeaseRoundsInFlight: number;
  /**
   * How long before its lease starts a delivery is sent; the consumer holds it
   * until then (`starts_at_ms`). At most `leaseAheadMs`.
   */
  readonly pushAheadMs: number;
  /**
   * Most entries in lease commands not yet applied, over every queue, shared
   * fairly between the queues with due entries (round-budget.ts). Default:
   * `maxLeaseBatch * maxLeaseRoundsInFlight`, what one queue alone may have in flight.
   */
  readonly leaseRoundBudget?: number;
  /**
   * Lease entries where they lie (the default); false: move each to a key at
   * its lease's end, as versions without the setting do (a rollout from one).
   */
  readonly leaseInPlace?: boolean;
  /**
   * Lease each round's entries as runs (the default): one lease record per
   * queue and consumer, the entries not written, tags of the lease and an
   * offset; and the runs of every queue a round leases for in one command
   * (`lease-runs`), as few as hold them within `maxLeaseBatch`. False: one
   * command per queue and consumer, each entry leased in place (or moved,
   * `leaseInPlace`), as versions without the setting do (a rollout from one).
   */
  readonly leaseRuns?: boolean;
  /** Whether a topic's dead letters may go to its configured dead-letter topic (default: yes). */
  readonly deadLetterAllowed?: DeadLetterGate;
  /**
   * The node's buffer for all consume streams (server/consume-buffer.ts):
   * deliveries loaded here and not yet written, and those written and not
   * yet sent, stay within `limitBytes` together; absent = no bound.
   */
  readonly buffer?: ConsumeBufferView;
  /** The largest payload (limits.maxPayloadBytes): the size assumed of a delivery before any was loaded. */
  readonly maxPayloadBytes?: number;
  /**
   * How long after becoming leader the leases the previous leader took are
   * kept for their consumers to take back (see `takeBack`); those that had not
   * started then and were not taken back are handed back uncounted. Default
   * DEFAULT_RECLAIM_WINDOW_MS.
   */
  readonly reclaimWindowMs?: number;
}

/** Most settles of tags no stream held that the dispatcher remembers (see `Dispatcher.settled`). */
export const MAX_UNOWNED_SETTLES = 10_000;

/** Default of `DispatcherOptions.reclaimWindowMs` (`dispatcher.reclaimWindowMs`). */
export const DEFAULT_RECLAIM_WINDOW_MS = 3_000;

/**
 * A lease the previous leader took, running when this node became leader:
 * nobody here holds it. Its consumer (`consumerId`) takes it back when it
 * subscribes again: as a delivery it still holds, or, never sent to it, pushed
 * to it now with the same tag and attempt.
 */
interface Orphan {
  readonly tagKey: string;
  readonly queue: bigint;
  readonly entry: EntryView;
  /**
   * Its lease had not started when this node became leader: no application
   * can have been given it (consumers hold deliveries sent ahead until their
   * start, and the SDK until it subscribes again), so if its consumer does
   * not take it back within the reclaim window it is handed back uncounted.
   */
  readonly unstarted: boolean;
}

/** What a subscribing consumer takes back (`Dispatcher.planTakeBack`), applied by `addConsumer`. */
export interface TakeBackPlan {
  /** Held tags whose leases run and no one else holds: carried over to the new stream. */
  readonly adopt: readonly EntryView[];
  /** Its leases it does not hold (never sent to it), with their bodies: pushed to it. */
  readonly push: ReadonlyArray<{ readonly orphan: Orphan; readonly body: BodyRec }>;
  /** The topic's maxAttempts, for the deliveries pushed. */
  readonly maxAttempts: number;
  /** Held tags not carried over. */
  readonly released: Uint8Array[];
}

/** What the dispatcher reads of the node's buffer for consume streams. */
export interface ConsumeBufferView {
  readonly limitBytes: number;
  /** Payload bytes written to streams and not yet sent. */
  readonly bytes: number;
  /** Asks to be woken (Dispatcher.roomFreed) at the next release. */
  waitForRoom(): void;
}

/** Payload sizes of recent deliveries whose largest is assumed of the next ones (a lease round's room in bytes). */
const RECENT_SIZES = 64;

/** Pause before a queue is tried again after a failed lease round. */
export const LEASE_RETRY_PAUSE_MS = 100;

/**
 * What the dispatcher did, counted from its construction (for benchmarks and
 * tests: the work of a round does not grow with the queues that have nothing
 * due, docs/design.md "Delivery").
 */
export interface DispatcherCounters {
  /** Dispatch rounds (passes of the pump). */
  rounds: number;
  /** Queues looked at by rounds and by the timer's arming. */
  queuesLooked: number;
  /** Consumers looked at (lapses, pushes, credit). */
  consumersLooked: number;
  /** Lease commands proposed, and the runs (queue and consumer shares) they carried. */
  leaseCommands: number;
  leaseRuns: number;
  /** Entries those commands named. */
  leaseEntries: number;
}

/** One consumer's share of a round's read of a queue: one run of a lease command. */
interface RunPart {
  readonly q: bigint;
  readonly round: QueueRound;
  readonly consumer: Consumer;
  readonly entries: readonly EntryView[];
  readonly deadLetterFallback: boolean;
  readonly maxAttempts: number;
  /** The read it came from: answered (QueueRound.answered) once all its parts are. */
  readonly read: { parts: number; readonly keys: readonly string[] };
}

/**
 * The leader's dispatcher (docs/design.md, "Delivery", and docs/architecture.md for
 * the look-ahead). It keeps the next due time of every queue in a heap rebuilt
 * from the store when this node becomes leader, and leases entries through
 * Raft (one Lease command per consumer share) `leaseAheadMs` before they fall
 * due, so that the lease is replicated by the time the message is due; each
 * leased delivery waits in the push schedule and is written to its consumer's
 * stream `pushAheadMs` before its lease starts, carrying `starts_at_ms`, and
 * the consumer hands it over at the due millisecond, never earlier (an entry
 * whose due time has passed is pushed as soon as its lease is applied). Several lease rounds of a
 * queue may await apply at once; a queue is read by one round at a time, and
 * tags already carried by a lease command are skipped. In-flight leases live
 * in the same time index (due = lease end), so a lapsed lease is just an entry
 * that is due again.
 */
export class Dispatcher {
  private readonly registry = new ConsumerRegistry<bigint, Consumer>();
  /** The next due time of every queue known to have one (parked while it has no consumer). */
  private readonly heap = new DueQueues((q) => this.registry.count(q) > 0);
  /** Consumers by the earliest time one of their sent deliveries' leases may lapse (a lower bound). */
  private readonly lapses = new DueHeap<Consumer>();
  /** Consumers with deliveries in `ready` (waiting for a slot, or held back): each round pushes them. */
  private readonly readyConsumers = new Set<Consumer>();
  /** When rounds start (one cadence for every queue). */
  private readonly cadence: RoundCadence;
  private readonly counts: DispatcherCounters = {
    rounds: 0,
    queuesLooked: 0,
    consumersLooked: 0,
    leaseCommands: 0,
    leaseRuns: 0,
    leaseEntries: 0,
  };
  /** Delivery tag (`tagKeyOf`) -> the consumer holding it (pushed, or waiting in the schedule). */
  private readonly owners = new Map<string, Consumer>();
  /** Per queue, its lease rounds' state (queue-round.ts); a queue with none kept has no entry. */
  private readonly rounds = new Map<bigint, QueueRound>();
  /** Leased deliveries waiting for their due millisecond. */
  private readonly schedule = new PushSchedule<Consumer, pb.Delivery.$Properties>();
  private readonly departed = new WeakSet<Consumer>();
  /** Where leased deliveries go (lease-placement.ts), over the owners, schedule and consumers above. */
  private readonly placement: LeasePlacement;
  /** Shares the lease rounds between queues (deficit round robin within a budget of entries in flight). */
  private readonly budget: RoundBudget<bigint>;
  /** The groups' rate and in-flight limits (limits.ts). */
  private readonly limits: DeliveryLimits;
  private active = false;
  private pumping = false;
  private again = false;
  private timer: TimerHandle | undefined;
  private timerAtMs = Number.POSITIVE_INFINITY;
  /** The part of the armed time that needs a full round (a lapse, a queue coming due); pushes need only a flush. */
  private roundAtMs = Number.POSITIVE_INFINITY;
  private epoch = 0;
  private nextConsumerId = 1;
  /** Payload bytes of deliveries loaded (leased, bodies read) and not yet written, by tag. */
  private readonly loaded = new Map<string, number>();
  private loadedBytes = 0;
  /** Sizes of the last RECENT_SIZES deliveries loaded (a ring). */
  private readonly recentSizes: number[] = [];
  private recentAt = 0;
  /** Lease rounds are held back for the node's buffer (counted once per time it fills). */
  private leasesHeld = false;
  /** The previous leader's running leases nobody here holds, by tag (`tagKeyOf`). */
  private readonly orphans = new Map<string, Orphan>();
  /** How many orphans are `unstarted`. */
  private unstartedOrphans = 0;
  /** Until when (leader's clock) orphans wait for their consumers before the unstarted ones are handed back. */
  private reclaimUntilMs = Number.POSITIVE_INFINITY;
  /** Tags handed back (nack uncounted) and not yet answered: no consumer may take them back. */
  private readonly releasing = new Set<string>();
  /**
   * Tags acked or nacked while no stream held them, most recent last: a stream
   * taking them back (its ack went out before it subscribed again) does not
   * count them against its window, or it would keep the slot until the lease
   * ran out. Kept from the moment this node leads (its server takes settles
   * before the dispatcher starts) until it stops leading: `start` takes none
   * of them as a lease to take back, since the lease read may predate the
   * settle's apply, and a consumer whose ack was answered holds it no more.
   */
  private readonly unownedSettles = new Set<string>();

  constructor(private readonly options: DispatcherOptions) {
    const { maxLeaseBatch, maxLeaseRoundsInFlight, leaseRoundBudget } = options;
    this.budget = new RoundBudget(
      leaseRoundBudget ?? defaultLeaseRoundBudget(maxLeaseBatch, maxLeaseRoundsInFlight),
      maxLeaseBatch,
    );
    this.cadence = new RoundCadence(options.clock);
    this.limits = new DeliveryLimits(options.leaseAheadMs);
    this.placement = new LeasePlacement({
      registry: this.registry,
      owners: this.owners,
      schedule: this.schedule,
      departed: this.departed,
      pushAheadMs: options.pushAheadMs,
      load: (tagKey, bytes) => this.load(tagKey, bytes),
      unload: (tagKey) => this.unload(tagKey),
      handBack: (tagKey) => this.release(tagKey),
    });
  }

  /** The queue's round state, made when first needed. */
  private roundOf(q: bigint): QueueRound {
    let round = this.rounds.get(q);
    if (!round) this.rounds.set(q, (round = new QueueRound()));
    return round;
  }

  /** Forgets the queue's round state once nothing of it is kept (an idle round is a new one). */
  private forgetIfIdle(q: bigint, round: QueueRound): void {
    if (round.idle && this.rounds.get(q) === round) this.rounds.delete(q);
  }

  get isActive(): boolean {
    return this.active;
  }

  /** What the dispatcher did so far (see DispatcherCounters). */
  get counters(): Readonly<DispatcherCounters> {
    return this.counts;
  }

  newConsumerId(): number {
    return this.nextConsumerId++;
  }

  /**
   * This node became leader: rebuild the heap from the store, find the
   * running leases the previous leader took (their consumers take them back,
   * `takeBack`), and start.
   */
  async start(): Promise<void> {
    const epoch = ++this.epoch;
    this.heap.clear();
    for (const [q, round] of this.rounds) {
      round.forgetPosition();
      this.forgetIfIdle(q, round);
    }
    this.clearOrphans();
    const { reader, proposer } = this.options;
    const queues = await reader.listQueues();
    const now = proposer.nowMs();
    this.limits.begin(now);
    const [dues, leases] = await Promise.all([
      Promise.all(queues.map((q) => reader.nextDueMs(q.queueHash, true))),
      Promise.all(queues.map((q) => reader.runningLeases(q.queueHash, now, q.inFlight, MAX_PASSED_PER_SCAN))),
    ]);
    if (epoch !== this.epoch) return;
    queues.forEach((q, i) => {
      const due = dues[i];
      if (due !== undefined) this.heap.set(q.queueHash, due);
      for (const entry of leases[i]!) {
        const tagKey = tagKeyOf(entry.tag);
        // Settled here since this node leads (`settled`): over, or being ended by a command
        // that applies after the read; its consumer may have let it go already.
        if (this.unownedSettles.has(tagKey)) continue;
        const unstarted = (leaseStartMs(entry) ?? now) > now;
        this.orphans.set(tagKey, {
          tagKey,
          queue: q.queueHash,
          entry,
          unstarted,
        });
        if (unstarted) this.unstartedOrphans++;
      }
    });
    this.reclaimUntilMs = now + (this.options.reclaimWindowMs ?? DEFAULT_RECLAIM_WINDOW_MS);
    // Streams kept from a leadership lost a moment ago (`halt`, before `stop`): their lapses are timed again.
    for (const q of this.registry.queues()) for (const c of this.registry.consumers(q)) this.watchLapse(c);
    this.active = true;
    this.options.log.info(
      { queues: queues.length, pending: this.heap.size, leasesToTakeBack: this.orphans.size },
      'dispatcher started',
    );
    this.wake();
  }

  /** Forgets the leases to take back (not the settles this node took since it leads: see `unownedSettles`). */
  private clearOrphans(): void {
    this.orphans.clear();
    this.unstartedOrphans = 0;
    this.reclaimUntilMs = Number.POSITIVE_INFINITY;
    this.releasing.clear();
  }

  /** Remembers a settle of a tag no stream held (see `settled`), for MAX_UNOWNED_SETTLES of them. */
  private noteUnownedSettle(tagKey: string): void {
    this.unownedSettles.add(tagKey);
    if (this.unownedSettles.size > MAX_UNOWNED_SETTLES) {
      const oldest = this.unownedSettles.values().next().value;
      if (oldest !== undefined) this.unownedSettles.delete(oldest);
    }
  }

  private dropOrphan(tagKey: string): Orphan | undefined {
    const o = this.orphans.get(tagKey);
    if (o === undefined) return undefined;
    this.orphans.delete(tagKey);
    if (o.unstarted) this.unstartedOrphans--;
    return o;
  }

  /**
   * What a consumer subscribing again takes back (reads only; `addConsumer`
   * applies it): of the tags it still holds (`held`, from an earlier stream),
   * those whose leases run and no other consumer holds are carried over to
   * it; the previous leader's leases taken for it (its `consumerId`) that it
   * does not hold were never sent to it and are pushed to it, same tag, same
   * attempt. Held tags of another consumer's lease, or of a lease that ended,
   * was settled or is being handed back, are released.
   */
  async planTakeBack(consumer: Consumer, held: readonly Uint8Array[]): Promise<TakeBackPlan> {
    const now = this.options.proposer.nowMs();
    const heldKeys = new Set<string>();
    const toRead: Uint8Array[] = [];
    const released: Uint8Array[] = [];
    for (const tag of held) {
      const key = tagKeyOf(tag);
      if (heldKeys.has(key)) continue;
      heldKeys.add(key);
      if (this.owners.has(key) || this.releasing.has(key) || !inQueue(tag, queueHashBytes(consumer.queue))) {
        released.push(tag);
        continue;
      }
      toRead.push(tag);
    }
    const pushing: Orphan[] = [];
    if (consumer.consumerId !== 0n) {
      for (const o of this.orphans.values()) {
        if (o.queue !== consumer.queue || o.entry.leaseConsumer !== consumer.consumerId) continue;
        if (!heldKeys.has(o.tagKey) && o.entry.leaseEndMs > now) pushing.push(o);
      }
    }
    const { reader } = this.options;
    // The leases to push are read again: `start` read them before applies that may have ended
    // them since (an expiry, whose withdrawal met no orphan yet), and their entries carry the bodies.
    const [entries, stillRunning, topic] = await Promise.all([
      Promise.all(toRead.map((tag) => reader.runningLease(tag, now))),
      Promise.all(pushing.map((o) => reader.runningLease(o.entry.tag, now))),
      pushing.length > 0 ? reader.getTopic(consumer.topic) : undefined,
    ]);
    const adopt: EntryView[] = [];
    entries.forEach((e, i) => {
      const mine = e !== undefined && (e.leaseConsumer === 0n || e.leaseConsumer === consumer.consumerId);
      if (mine) adopt.push(e);
      else released.push(toRead[i]!);
    });
    const running = pushing.flatMap((orphan, i) => {
      const entry = stillRunning[i];
      return entry ? [{ orphan, entry }] : [];
    });
    const bodies = await reader.bodiesOf(running.map((r) => r.entry));
    const push: Array<{ orphan: Orphan; body: BodyRec }> = [];
    running.forEach(({ orphan }, i) => {
      const body = bodies[i];
      if (body) push.push({ orphan, body });
    });
    return { adopt, push, released, maxAttempts: topic?.settings.maxAttempts ?? 0 };
  }

  /**
   * Stops dispatching at once (leadership lost) but keeps the consumer streams
   * open, so that `stop` can end them naming the new leader once it is known.
   * Deliveries waiting for their due time are dropped here: the next leader
   * finds their leases and hands them to their consumers when they subscribe
   * again (`start`, `planTakeBack`).
   */
  halt(): void {
    this.epoch++;
    this.active = false;
    if (this.timer) this.options.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.timerAtMs = Number.POSITIVE_INFINITY;
    this.roundAtMs = Number.POSITIVE_INFINITY;
    this.heap.clear();
    this.lapses.clear();
    this.readyConsumers.clear();
    this.rounds.clear();
    this.budget.reset();
    this.cadence.reset();
    this.limits.clear();
    this.clearOrphans();
    this.unownedSettles.clear();
    // What was promised and not pushed is forgotten with its leases (they run out on their own).
    for (const q of this.registry.queues()) {
      for (const c of this.registry.consumers(q)) {
        for (const item of c.ready.splice(0)) this.owners.delete(item.tagKey);
        c.reserved = 0;
        c.early.clear();
      }
    }
    for (const item of this.schedule.takeDue(Number.POSITIVE_INFINITY)) this.owners.delete(item.tagKey);
    this.loaded.clear();
    this.loadedBytes = 0;
  }

  /** Leadership lost or shutdown: stop dispatching and end every consumer stream with `reason`. */
  stop(reason: unknown): void {
    this.halt();
    for (const q of [...this.registry.queues()]) {
      for (const c of [...this.registry.consumers(q)]) {
        this.removeConsumer(c);
        c.sink.close(reason);
      }
    }
  }

  consumerCount(queueHash: bigint): number {
    return this.registry.count(queueHash);
  }

  /**
   * Adds a consumer stream, with what it takes back (`planTakeBack`), checked
   * again now: a lease settled, handed back, taken by another consumer or
   * ended meanwhile is not carried over. Returns the held tags released. The
   * deliveries pushed to it go out from the next dispatch round on, so the
   * caller answers the subscribe first. A consumer whose stream ended
   * meanwhile (`removeConsumer`) is not added.
   */
  addConsumer(consumer: Consumer, plan?: TakeBackPlan): Uint8Array[] {
    if (this.departed.has(consumer)) return [];
    const now = this.options.proposer.nowMs();
    consumer.settles.sinceMs = this.options.clock.nowMs();
    this.registry.add(consumer);
    this.heap.unpark(consumer.queue);
    if (!plan) {
      this.wake();
      return [];
    }
    const released = [...plan.released];
    for (const e of plan.adopt) {
      const key = tagKeyOf(e.tag);
      if (
        this.owners.has(key) ||
        this.releasing.has(key) ||
        this.unownedSettles.has(key) ||
        e.leaseEndMs <= now
      ) {
        released.push(e.tag);
        continue;
      }
      // An orphan's record may be older than the read: the read's lease end is the one to keep.
      this.dropOrphan(key);
      this.owners.set(key, consumer);
      ConsumerRegistry.delivered(consumer, key, e.leaseEndMs);
      this.watchLapse(consumer);
    }
    for (const { orphan, body } of plan.push) {
      // Settled, withdrawn, handed back or taken meanwhile: it left the orphans.
      if (this.orphans.get(orphan.tagKey) !== orphan || orphan.entry.leaseEndMs <= now) continue;
      this.dropOrphan(orphan.tagKey);
      const e = orphan.entry;
      const lease = {
        attempt: e.attempt,
        maxAttempts: plan.maxAttempts,
        leaseEndMs: e.leaseEndMs,
        startsAtMs: leaseStartMs(e) ?? now,
      };
      this.placement.promise(consumer, orphan.queue, e.tag, body, e, lease, now);
    }
    // Those ready now go out with the next round, which drains only the consumers listed so.
    if (consumer.ready.length > 0) this.readyConsumers.add(consumer);
    this.wake();
    return released;
  }

  /**
   * A consumer stream ended. Its deliveries stay leased, also the ones sent
   * ahead: the consumer may hand one over at its start before it learns that
   * the stream ended, so giving it to another consumer could deliver it twice
   * at once. A consumer that subscribes again takes them back (`planTakeBack`);
   * otherwise they come back when their leases run out (a subscription that
   * closes hands those back itself). The ones still waiting here go to another
   * consumer of the queue with a free slot, or back to the queue uncounted.
   */
  removeConsumer(consumer: Consumer): void {
    this.registry.remove(consumer);
    this.departed.add(consumer);
    consumer.early.clear();
    this.replaceWaiting(consumer);
    for (const tag of consumer.inFlight.keys()) this.owners.delete(tag);
    ConsumerRegistry.clear(consumer);
    this.lapses.delete(consumer);
    this.readyConsumers.delete(consumer);
    this.wake();
  }

  /**
   * The consumer refuses what it was promised (`Consumer.refusing`: a push
   * group's endpoint that is down or blocked): its deliveries leased and not
   * yet sent go to another consumer of the queue with a free slot, or back
   * to the queue uncounted, instead of waiting for it until their leases
   * run out (which would count an attempt no request was sent for).
   */
  handBackWaiting(consumer: Consumer): void {
    if (!this.active || this.departed.has(consumer)) return;
    this.replaceWaiting(consumer);
    if (consumer.ready.length === 0) this.readyConsumers.delete(consumer);
    this.wake();
  }

  /** The consumer's deliveries not yet sent go elsewhere (`LeasePlacement.replace`). */
  private replaceWaiting(consumer: Consumer): void {
    const now = this.options.clock.nowMs();
    const waiting = [...(this.schedule.heldFor(consumer) as Push[]), ...consumer.ready.splice(0)];
    consumer.reserved -= waiting.length;
    for (const c of this.placement.replace(waiting)) if (c !== consumer) this.drain(c, now);
  }

  /**
   * The queue became a push group's: every consumer's stream ends with
   * `reason`, as when it closes (`removeConsumer`: what waited for it goes
   * back uncounted). An endpoint made before is ended too; the pusher makes
   * the group's endpoint anew on its next pass.
   */
  endStreams(queue: bigint, reason: unknown): void {
    for (const c of [...this.registry.consumers(queue)]) {
      this.removeConsumer(c);
      c.sink.close(reason);
    }
  }

  /**
   * Hands a leased delivery nobody got back to the queue (a nack `uncounted`:
   * pending again at its own due time, its attempt not counted). No consumer
   * may take it back meanwhile. If the nack fails, the lease runs out.
   */
  private release(tagKey: string): void {
    if (!this.active) return;
    const tag = tagFromKey(tagKey);
    const epoch = this.epoch;
    this.releasing.add(tagKey);
    const done = (): void => {
      if (epoch === this.epoch) this.releasing.delete(tagKey);
    };
    void this.options.proposer.run({ kind: 'nack', tag, delayMs: 0, uncounted: true }).then(
      () => {
        if (epoch === this.epoch) this.limits.settled([tag]);
        done();
      },
      (error: unknown) => {
        done();
        this.options.log.debug(
          { err: String(error) },
          'releasing an undelivered lease failed; it will lapse',
        );
      },
    );
  }

  /**
   * The reclaim window ended: the previous leader's leases that had not
   * started when this node became leader and that no consumer took back are
   * handed back uncounted; those that had started wait for their consumers
   * until they run out (an application may be running them).
   */
  private handBackOrphans(now: number): void {
    this.reclaimUntilMs = Number.POSITIVE_INFINITY;
    let handedBack = 0;
    for (const o of [...this.orphans.values()]) {
      if (o.entry.leaseEndMs <= now) {
        this.dropOrphan(o.tagKey);
        continue;
      }
      if (!o.unstarted) continue;
      this.dropOrphan(o.tagKey);
      this.release(o.tagKey);
      handedBack++;
    }
    if (handedBack > 0)
      this.options.log.info(
        { handedBack, waiting: this.orphans.size },
        'handed back leases nobody took back',
      );
  }

  /**
   * A topic (`group` '') or a group was deleted: its consumers' streams end
   * with `reason`, and nothing leased for them and not yet pushed is pushed
   * (its leases run out; the entries are being removed anyway).
   */
  deleted(topic: string, group: string, reason: unknown): void {
    for (const q of [...this.registry.queues()]) {
      const consumers = [...this.registry.consumers(q)];
      const first = consumers[0];
      if (!first || first.topic !== topic || (group !== '' && first.group !== group)) continue;
      for (const c of consumers) {
        for (const item of this.schedule.heldFor(c)) {
          this.schedule.remove(item.tagKey);
          this.owners.delete(item.tagKey);
          this.unload(item.tagKey);
        }
        for (const item of c.ready.splice(0)) {
          this.owners.delete(item.tagKey);
          this.unload(item.tagKey);
        }
        c.reserved = 0;
        this.removeConsumer(c);
        c.sink.close(reason);
      }
      this.heap.delete(q);
      const round = this.rounds.get(q);
      if (round) {
        round.forgetPosition();
        this.forgetIfIdle(q, round);
      }
    }
  }

  /** A delivery's body is loaded and waits to be written: it counts against the node's buffer. */
  private load(tagKey: string, bytes: number): void {
    this.loaded.set(tagKey, bytes);
    this.loadedBytes += bytes;
    this.recentSizes[this.recentAt] = bytes;
    this.recentAt = (this.recentAt + 1) % RECENT_SIZES;
  }

  /** The delivery was written, or dropped: it no longer counts as loaded. */
  private unload(tagKey: string): void {
    const bytes = this.loaded.get(tagKey);
    if (bytes === undefined) return;
    this.loaded.delete(tagKey);
    this.loadedBytes -= bytes;
  }

  /**
   * How many more entries lease rounds may take now without the node's
   * buffer going past its limit: what is free of it (less what is loaded and
   * not yet written) divided by the largest recent payload (before any:
   * limits.maxPayloadBytes), less the entries of rounds still in flight.
   * Infinity without a buffer.
   */
  private leaseRoom(): number {
    const buffer = this.options.buffer;
    if (!buffer) return Number.POSITIVE_INFINITY;
    const free = buffer.limitBytes - buffer.bytes - this.loadedBytes;
    const size = Math.max(
      1,
      this.recentSizes.length > 0 ? Math.max(...this.recentSizes) : (this.options.maxPayloadBytes ?? 1),
    );
    const room = Math.floor(free / size) - this.budget.inFlight;
    // Nothing loaded nor written: one delivery may always go, whatever its size.
    if (room <= 0 && buffer.bytes + this.loadedBytes === 0 && this.budget.inFlight === 0) return 1;
    return room;
  }

  /** Payload bytes of deliveries loaded and not yet written (for metrics and tests). */
  get loadedPayloadBytes(): number {
    return this.loadedBytes;
  }

  /** The node's buffer for all streams has room again: consumers held back for it may push. */
  roomFreed(): void {
    for (const q of this.registry.queues()) {
      for (const c of this.registry.consumers(q)) c.bufferFull = false;
    }
    // Lease rounds held back for room may go too.
    this.wake();
  }

  /** Deliveries leased and waiting because the node's buffer for all streams was full. */
  heldForBuffer(): number {
    let n = 0;
    for (const q of this.registry.queues()) {
      for (const c of this.registry.consumers(q)) if (c.bufferFull) n += c.ready.length;
    }
    return n;
  }

  /** The consumer's stream drained its write buffer: pushing may go on. */
  drained(consumer: Consumer): void {
    if (!consumer.blocked) return;
    consumer.blocked = false;
    this.wake();
  }

  setWindow(consumer: Consumer, window: number): void {
    consumer.window = window;
    this.wake();
  }

  /**
   * An entry of `queueHash` became due at `dueMs` (publish, nack, reschedule),
   * or, `lapse`, a lease in place of it ends then (taken or extended).
   */
  noteDue(queueHash: bigint, dueMs: number, lapse = false): void {
    if (!this.active) return;
    if (lapse) {
      this.roundOf(queueHash).noteLapse(dueMs);
      this.heap.lower(queueHash, dueMs + this.aheadOf(queueHash));
      this.wake();
      return;
    }
    this.rounds.get(queueHash)?.noteDue(dueMs);
    this.heap.lower(queueHash, dueMs);
    // A due notice at 0 is a change of the group's settings (a resume, its limits): read them again.
    if (dueMs === 0) this.limits.changed(queueHash);
    this.wake();
  }

  /**
   * Entries of the queue from `dueMs` on lie behind its cursor and are pending
   * (a lease round took them and did not lease them): the next read starts
   * from the queue's start, and a read running now sets no cursor.
   */
  private rereadFrom(q: bigint, dueMs: number): void {
    this.heap.lower(q, dueMs);
    this.rounds.get(q)?.rereadFrom(dueMs);
  }

  /** A tag was acked or nacked (its slot frees), or extended (`next` replaces it). */
  settled(tag: Uint8Array, next?: { tag: Uint8Array; leaseEndMs: number }): void {
    if (next) this.limits.extended(tag, next.tag, next.leaseEndMs);
    const key = tagKeyOf(tag);
    // Settled by its consumer before it subscribed again: nothing left to take back (an
    // extended one it still holds, and takes back by its tag).
    this.dropOrphan(key);
    const owner = this.owners.get(key);
    if (!owner) {
      // Settled while no stream holds it (a consumer between two streams): a stream that takes
      // it back before the settle applies must not keep a slot for it.
      if (!next) this.noteUnownedSettle(key);
      return;
    }
    this.owners.delete(key);
    owner.early.remove(key);
    if (ConsumerRegistry.settled(owner, key) && !next) owner.settles.count++;
    if (next) {
      const nextKey = tagKeyOf(next.tag);
      ConsumerRegistry.delivered(owner, nextKey, next.leaseEndMs);
      this.watchLapse(owner);
      this.owners.set(nextKey, owner);
    }
    this.wake();
  }

  /**
   * Acks or nacks of these tags were applied (answered): their leases no
   * longer count against their group's in-flight limit. (`settled` frees the
   * consumer's slot earlier, when the settle arrives.)
   */
  settleApplied(tags: readonly Uint8Array[]): void {
    this.limits.settled(tags);
    this.wake();
  }

  /**
   * An extend of `tag` is being proposed: its lease counts against its
   * group's in-flight limit until the extend is answered (`settled` with the
   * next tag, and `extendAnswered`), whatever its old end.
   */
  extending(tag: Uint8Array): void {
    this.limits.pin(tag);
  }

  /** The extend of `tag` was answered: unless `settled` moved it to its next tag, its lease ends when it did. */
  extendAnswered(tag: Uint8Array): void {
    this.limits.unpin(tag);
    this.wake();
  }

  /** Deliveries of the queue leased after a rate or in-flight limit held them back, since this node leads. */
  throttled(queueHash: bigint): number {
    return this.limits.throttled(queueHash);
  }

  /**
   * Leases taken ahead that expired before they started: deliveries not yet
   * sent are dropped (one already sent is like any in-flight delivery of an
   * expired message: its ack answers lease expired).
   */
  withdrawn(tags: readonly Uint8Array[]): void {
    let any = false;
    for (const tag of tags) {
      const key = tagKeyOf(tag);
      this.dropOrphan(key);
      const owner = this.owners.get(key);
      if (!owner) continue;
      const scheduled = this.schedule.remove(key) !== undefined;
      const at = scheduled ? -1 : owner.ready.findIndex((item) => item.tagKey === key);
      if (at >= 0) owner.ready.splice(at, 1);
      if (!scheduled && at < 0) continue;
      any = true;
      this.owners.delete(key);
      this.unload(key);
      owner.reserved--;
    }
    if (any) this.wake();
  }

  /** Runs a dispatch round soon (coalesced). */
  wake(): void {
    if (!this.active) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    queueMicrotask(() => this.pump());
  }

  /**
   * One dispatch round: pushes what is due, lapses what ran out, then starts
   * lease rounds for the queues with entries due within the look-ahead and
   * free credit, in one command (`startRound`). It looks at the consumers
   * whose leases may have lapsed or who have deliveries waiting, and at the
   * queues due within the look-ahead: a queue with nothing due, and its
   * consumers, cost it nothing.
   */
  private pump(): void {
    const { maxLeaseBatch, leaseAheadMs } = this.options;
    try {
      do {
        this.again = false;
        if (!this.active) return;
        this.counts.rounds++;
        this.flushDue();
        const now = this.options.proposer.nowMs();
        if (now >= this.reclaimUntilMs) this.handBackOrphans(now);
        for (const c of this.lapses.dueBy(now)) this.lapse(c, now);
        for (const c of [...this.readyConsumers]) this.drain(c, now);
        const demands: Array<{ queue: bigint; want: number }> = [];
        // The node's buffer for consume streams: no more is leased than it can hold.
        let room = this.leaseRoom();
        if (room > 0) this.leasesHeld = false;
        const onCadence = this.cadence.open();
        for (const q of this.heap.dueBy(now + leaseAheadMs)) {
          this.counts.queuesLooked++;
          if (room <= 0) {
            this.options.buffer?.waitForRoom();
            if (!this.leasesHeld) this.options.metrics.consumeBufferFull?.inc();
            this.leasesHeld = true;
            break;
          }
          if (!this.roundMayStart(q)) continue;
          // Credit first: `arm` reads it for the queues that wait for the cadence.
          const credit = this.queueCredit(q, now);
          if (credit <= 0) continue;
          if (this.roundAllowedAtMs(q, now) > now) continue;
          // A group at its rate or in-flight limit: nothing is read (limits.ts).
          const allowed = this.limits.room(q, now, this.leasingOf(q), this.heap.get(q));
          if (allowed <= 0) continue;
          const want = Math.min(credit, maxLeaseBatch, room, allowed);
          room -= want;
          demands.push({ queue: q, want });
        }
        const grants = this.budget.plan(demands);
        if (grants.length > 0) {
          this.cadence.started(onCadence);
          this.startRound(grants, now);
        }
      } while (this.again);
    } finally {
      this.pumping = false;
    }
    this.arm();
  }

  /**
   * The queue's free credit now: its consumers' lapsed slots freed and
   * their look-ahead credit brought up to date first (a round does this for
   * the queues it may lease for only).
   */
  private queueCredit(q: bigint, now: number): number {
    for (const c of this.registry.consumers(q)) {
      this.counts.consumersLooked++;
      if (c.inFlight.size > 0) this.lapse(c, now);
      this.refreshAhead(c, now);
    }
    return this.registry.credit(q);
  }

  /** Frees the consumer's slots whose leases ran out (and notes a stream not read), and re-times its next lapse. */
  private lapse(c: Consumer, now: number): void {
    this.counts.consumersLooked++;
    ConsumerRegistry.lapse(c, now, this.forgetOwner);
    this.watchLapse(c);
  }

  /** Keeps the consumer in `lapses` at its earliest lease end (or out of it with none). */
  private watchLapse(c: Consumer): void {
    const at = ConsumerRegistry.nextLapse(c);
    if (at === undefined) this.lapses.delete(c);
    else if (this.lapses.get(c) !== at) this.lapses.set(c, at);
  }

  private readonly forgetOwner = (tag: string): void => {
    this.owners.delete(tag);
  };

  /** Pushes every scheduled delivery whose due time has come, one stream message per consumer. */
  private flushDue(): void {
    if (this.schedule.size === 0) return;
    const now = this.options.clock.nowMs();
    const due = this.schedule.takeDue(now) as Push[];
    if (due.length === 0) return;
    const touched = new Set<Consumer>();
    for (const item of due) {
      item.consumer.ready.push(item);
      touched.add(item.consumer);
    }
    for (const c of touched) this.drain(c, now);
  }

  /**
   * Pushes a consumer's ready deliveries, oldest first, while it has free
   * slots (one stream message). One whose lease ran out while it waited is
   * dropped: its entry is due again. One whose lease has not started carries
   * its start, for the consumer to hold it until then; those held do not
   * count against the window until they start (so they never keep a due one
   * out), and at most a window of them is out at once (`arm` wakes when the
   * first one left waiting starts). Nothing is written while the stream's
   * buffer is full, and deliveries whose write has not completed keep their
   * slots (see ConsumerRegistry): a client that stops reading is sent at most
   * its window. The consumer stays in `readyConsumers` while it has
   * deliveries left in `ready`.
   */
  private drain(c: Consumer, now: number): void {
    // Slots whose leases ran out free first; a stream not read is found stalled.
    if (c.inFlight.size > 0) this.lapse(c, now);
    this.push(c, now);
    if (c.ready.length > 0 && !this.departed.has(c)) this.readyConsumers.add(c);
    else this.readyConsumers.delete(c);
  }

  private push(c: Consumer, now: number): void {
    if (c.blocked || c.bufferFull || c.stalled) return;
    const out: pb.Delivery.$Properties[] = [];
    const keys: string[] = [];
    let taken = 0;
    let bytes = 0;
    c.early.takeDue(now);
    // Held deliveries sent ahead are exempt from the window once sent; unsent, they count like any.
    const held = c.early.size - unsentHeld(c);
    while (taken < c.ready.length && c.inFlight.size - held < c.window) {
      const item = c.ready[taken]!;
      if (item.startsAtMs > now && (!c.holdsAhead || c.early.size >= c.window)) break;
      taken++;
      c.reserved--;
      if (item.leaseEndMs <= now) {
        this.owners.delete(item.tagKey);
        this.unload(item.tagKey);
        continue;
      }
      // The node's buffer for all streams: what does not fit waits, leased, in `ready`.
      const size = item.delivery.payload?.length ?? 0;
      if (c.sink.accepts && !c.sink.accepts(bytes, size)) {
        taken--;
        c.reserved++;
        if (out.length === 0) {
          c.bufferFull = true;
          this.options.metrics.consumeBufferFull?.inc();
        }
        break;
      }
      bytes += size;
      // Written from here on: the stream counts it until HTTP/2 takes it.
      this.unload(item.tagKey);
      ConsumerRegistry.writing(c, item.tagKey, item.leaseEndMs);
      keys.push(item.tagKey);
      const early = item.startsAtMs > now;
      item.delivery.startsAtMs = early ? numberAsInt64(item.startsAtMs) : null;
      if (early) c.early.add(item);
      out.push(item.delivery);
      this.options.metrics.deliveryLatenessMs.observe(Math.max(0, now - item.lateFromMs));
    }
    if (taken > 0) c.ready.splice(0, taken);
    if (out.length === 0) return;
    this.options.metrics.deliveries.inc({ topic: c.topic }, out.length);
    const room = c.sink.deliver(out, () => {
      // Their leases may lapse from now on: lapse them now if overdue, else arm the timer for them.
      const overdue = ConsumerRegistry.sent(c, keys, this.options.proposer.nowMs());
      this.watchLapse(c);
      if (overdue) this.wake();
      else if (!this.pumping) this.arm();
    });
    if (!room) c.blocked = true;
  }

  /**
   * The consumer's look-ahead credit: as many deliveries as it settled in the
   * last look-ahead period (slots it can be expected to free by the time the
   * leases taken now fall due), at most what the lease rounds in flight
   * carry; nothing while the consumer has no window (paused). A slow consumer
   * settles little, so little is leased ahead for it, and one that never
   * settles holds no more than its window: nothing it cannot take is kept
   * from the group's other consumers. (A window's worth ahead for a consumer
   * that has not settled yet helped the first seconds of a run, but let a
   * stuck consumer hold twice its window.)
   */
  private refreshAhead(c: Consumer, now: number): void {
    const period = Math.max(1, this.options.leaseAheadMs);
    const s = c.settles;
    if (now - s.sinceMs >= period) {
      s.previous = now - s.sinceMs < 2 * period ? s.count : 0;
      s.count = 0;
      s.sinceMs = now;
    }
    const { leaseAheadMs, maxLeaseBatch, maxLeaseRoundsInFlight } = this.options;
    c.ahead =
      leaseAheadMs > 0 && c.window > 0 && c.leasesAhead !== false
        ? Math.min(maxLeaseBatch * maxLeaseRoundsInFlight, Math.max(s.previous, s.count))
        : 0;
  }

  /**
   * One timer, at the earliest moment something can be done: a scheduled push,
   * a lease lapsing (a slot frees), a delivery held back starting, or a queue
   * with free credit coming within the look-ahead of its due time. It looks
   * at the queues due within the look-ahead and the first one after it, and
   * at the consumers with deliveries waiting: nothing of an idle queue.
   */
  private arm(): void {
    if (!this.active) return;
    let round = this.unstartedOrphans > 0 ? this.reclaimUntilMs : Number.POSITIVE_INFINITY;
    const now = this.options.clock.nowMs();
    const lapse = this.lapses.peek()?.dueMs;
    if (lapse !== undefined && lapse < round) round = lapse;
    for (const c of this.readyConsumers) {
      // Held back from sending ahead (a window of them is out already, or the consumer does not hold): send it once it starts.
      const waiting = c.ready[0]?.startsAtMs;
      if (waiting !== undefined && waiting > now && waiting < round) round = waiting;
    }
    // A round held back for the node's buffer waits for room (roomFreed), not for a timer.
    if (this.budget.available > 0 && this.leaseRoom() > 0) {
      const { leaseAheadMs } = this.options;
      const horizon = now + leaseAheadMs;
      for (const q of this.heap.dueBy(horizon)) {
        this.counts.queuesLooked++;
        if (!this.roundMayStart(q) || this.registry.credit(q) === 0) continue;
        const at = Math.max(
          this.heap.get(q)! - this.aheadOf(q),
          this.roundAllowedAtMs(q, now),
          this.limits.readyAtMs(q, now, this.leasingOf(q)),
        );
        if (at < round) round = at;
      }
      // The first queue to come within the look-ahead: a round looks at it then (credit or not).
      const next = this.heap.firstAfter(horizon);
      if (next) {
        this.counts.queuesLooked++;
        const at = Math.max(next.dueMs - this.aheadOf(next.queue), this.roundAllowedAtMs(next.queue, now));
        if (at < round) round = at;
      }
    }
    this.roundAtMs = round;
    this.setTimer();
  }

  /** Whether a lease round of the queue may start now (QueueRound.mayStart; a queue without one is idle). */
  private roundMayStart(q: bigint): boolean {
    const max = this.limits.roundsInFlight(q, this.options.maxLeaseRoundsInFlight);
    return this.rounds.get(q)?.mayStart(max) ?? max > 0;
  }

  /** How far ahead of their due time the queue's entries are leased (less for a rate-limited group). */
  private aheadOf(q: bigint): number {
    return this.limits.leaseAheadMs(q, this.options.leaseAheadMs);
  }

  /** The queue's entries in lease commands not yet answered. */
  private leasingOf(q: bigint): number {
    return this.rounds.get(q)?.leasing.size ?? 0;
  }

  /** The earliest time the queue's next lease round may start (RoundCadence.allowedAtMs). */
  private roundAllowedAtMs(q: bigint, now: number): number {
    return this.cadence.allowedAtMs(now, this.heap.get(q), this.options.pushAheadMs);
  }

  private setTimer(): void {
    const at = Math.min(this.roundAtMs, this.schedule.nextAtMs() ?? Number.POSITIVE_INFINITY);
    if (at === this.timerAtMs && this.timer) return;
    if (this.timer) this.options.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.timerAtMs = at;
    if (at === Number.POSITIVE_INFINITY) return;
    const fire = (): void => {
      // Node timers run on a cached loop clock and can fire a little early: re-arm until due.
      const now = this.options.clock.nowMs();
      const left = this.timerAtMs - now;
      if (left > 0) {
        this.timer = this.options.clock.setTimer(fire, left);
        return;
      }
      this.timer = undefined;
      this.timerAtMs = Number.POSITIVE_INFINITY;
      if (now >= this.roundAtMs) {
        this.wake();
        return;
      }
      // Only pushes are due: no need to look at every queue and lease.
      this.flushDue();
      this.setTimer();
    };
    this.timer = this.options.clock.setTimer(fire, Math.max(0, at - this.options.clock.nowMs()));
  }

  /**
   * Starts the lease rounds the budget granted: reads every granted queue
   * (in parallel), then proposes their runs together (`proposeRuns`).
   */
  private startRound(grants: ReadonlyArray<{ queue: bigint; grant: number }>, now: number): void {
    const epoch = this.epoch;
    const reads = grants.map(({ queue: q, grant }) => {
      const round = this.roundOf(q);
      round.beginRead();
      return this.readRound(q, round, now, grant, epoch)
        .catch((error: unknown): RunPart[] => {
          if (epoch !== this.epoch) return [];
          round.endRead();
          this.forgetIfIdle(q, round);
          this.budget.release(grant);
          this.options.log.warn({ err: String(error) }, 'lease round read failed; retrying after a pause');
          this.options.clock.setTimer(() => this.wake(), LEASE_RETRY_PAUSE_MS);
          return [];
        })
        .then((parts) => this.proposeLimited(q, parts, epoch));
    });
    // One pass once every read is in (a pass per read would walk the round's due queues once each).
    void Promise.all(reads).then((parts) => {
      if (epoch !== this.epoch) return;
      this.proposeRuns(parts.flat(), epoch);
      this.wake();
    });
  }

  /**
   * A limited queue's runs are proposed at once, alone, in the tick `admit`
   * stamped them in (limits.ts: a token is taken at the lease's start); the
   * others wait for the round's other reads. Returns those.
   */
  private proposeLimited(q: bigint, parts: RunPart[], epoch: number): RunPart[] {
    if (parts.length === 0 || epoch !== this.epoch || !this.limits.limited(q)) return parts;
    this.proposeRuns(parts, epoch);
    return [];
  }

  /**
   * Reads the queue's due entries (at most `limit`) and shares them among its
   * consumers: one run per consumer share, its entries counted as leasing
   * from here on (`QueueRound.proposed`) until every command carrying them
   * is answered.
   */
  private async readRound(
    q: bigint,
    round: QueueRound,
    now: number,
    limit: number,
    epoch: number,
  ): Promise<RunPart[]> {
    const { reader } = this.options;
    const first = this.registry.consumers(q)[0];
    const found = first ? await reader.getTopic(first.topic) : undefined;
    if (epoch !== this.epoch) return []; // halt() reset the heap and the rounds
    // A topic or group being deleted is gone to its consumers; a paused one leases nothing.
    const topic =
      found && first && !groupDeleting(found, first.group) && !groupPaused(found, first.group)
        ? found
        : undefined;
    // The group's limits as its topic record says (limits.ts); its in-flight count, when it starts, from the store.
    if (
      first &&
      this.limits.configure(q, limitsOf(found, first.group), now) &&
      !(await this.seedInFlight(q, now, epoch))
    )
      return [];
    let entries: EntryView[] = [];
    let nextDueMs: number | undefined;
    if (!topic) {
      // No consumer (it left during this round: the queue stays due for the next one), or the
      // topic is gone or paused (parked until a resume notes it due again): nothing to lease.
      if (first) this.heap.delete(q);
    } else {
      const bucketMs = topic.settings.timeBucketMs;
      const from = round.readFrom(bucketMs, now);
      const ahead = this.aheadOf(q);
      const read = await reader.scanDue(q, bucketMs, now, now + ahead, limit, round.leasing, from);
      if (epoch !== this.epoch) return [];
      entries = read.entries;
      nextDueMs = read.nextDueMs;
      const next = round.afterRead(read, bucketMs, ahead);
      if (next === Number.POSITIVE_INFINITY) this.heap.delete(q);
      else this.heap.set(q, next);
    }
    if (epoch !== this.epoch) return [];
    round.endRead();
    if (entries.length > 0 && this.limits.limited(q)) entries = this.admitted(q, entries, nextDueMs);
    // The budget holds what the lease commands carry, from here until each is answered.
    this.budget.release(limit - Math.min(limit, entries.length));
    const parts: RunPart[] = [];
    if (entries.length > 0) {
      const shares = this.registry.assign(q, entries.length);
      const deadLetterFallback = topic !== undefined && this.options.deadLetterAllowed?.(topic) === false;
      const maxAttempts = topic?.settings.maxAttempts ?? 0;
      const taken = shares.reduce((n, share) => n + share.count, 0);
      const read = { parts: shares.length, keys: entries.slice(0, taken).map((e) => tagKeyOf(e.tag)) };
      let at = 0;
      for (const { consumer, count } of shares) {
        const part = entries.slice(at, at + count);
        at += count;
        consumer.reserved += count;
        parts.push({ q, round, consumer, entries: part, deadLetterFallback, maxAttempts, read });
      }
      if (parts.length > 0) round.proposed(read.keys);
      // Entries without a share (a consumer left during the read) stay due.
      const unassigned = entries.slice(at);
      this.budget.release(unassigned.length);
      if (unassigned.length > 0) this.rereadFrom(q, unassigned[0]!.dueAtMs);
    }
    this.forgetIfIdle(q, round);
    return parts;
  }

  /**
   * The group's in-flight count starts on this leader: its running leases,
   * from the store. Returns false when leadership changed meanwhile.
   */
  private async seedInFlight(q: bigint, now: number, epoch: number): Promise<boolean> {
    const { reader } = this.options;
    const inFlight = (await reader.getQueue(q))?.inFlight ?? 0;
    const leases = await reader.runningLeases(q, now, inFlight, Math.max(MAX_PASSED_PER_SCAN, inFlight));
    if (epoch !== this.epoch) return false;
    this.limits.seed(q, leases);
    return true;
  }

  /**
   * The first entries of a read that the group's limits admit in this tick,
   * the stamp of the command that carries them (limits.ts); the others stay
   * due and are read again once there is room.
   */
  private admitted(q: bigint, entries: EntryView[], nextDueMs: number | undefined): EntryView[] {
    const n = this.limits.admit(q, entries, this.options.proposer.nowMs(), this.leasingOf(q), nextDueMs);
    if (n === entries.length) return entries;
    this.rereadFrom(q, entries[n]!.dueAtMs);
    return entries.slice(0, n);
  }

  /**
   * Proposes a round's runs: with `leaseRuns`, the runs of every queue in as
   * few `lease-runs` commands as hold them within `maxLeaseBatch` entries (a
   * run split between two when it does not fit); without, one `lease`
   * command per run, as versions without the setting propose (a node of such
   * a version could not apply a command of runs).
   */
  private proposeRuns(parts: readonly RunPart[], epoch: number): void {
    if (parts.length === 0) return;
    const runs = this.options.leaseRuns !== false;
    const commands = runs
      ? packRuns(
          parts,
          this.options.maxLeaseBatch,
          (p) => p.entries.length,
          (p, n) => {
            p.read.parts++;
            return [
              { ...p, entries: p.entries.slice(0, n) },
              { ...p, entries: p.entries.slice(n) },
            ];
          },
        )
      : parts.map((p) => [p]);
    for (const command of commands) this.proposeLease(command, runs, epoch);
  }

  /** Proposes one lease command carrying `parts`, and ends each part once it is answered (or failed). */
  private proposeLease(parts: readonly RunPart[], runs: boolean, epoch: number): void {
    const done = (p: RunPart): void => {
      if (epoch !== this.epoch) return; // halt() reset every promise
      p.consumer.reserved -= p.entries.length;
      this.budget.release(p.entries.length);
      if (--p.read.parts === 0) p.round.answered(p.read.keys);
      this.forgetIfIdle(p.q, p.round);
    };
    this.counts.leaseCommands++;
    this.counts.leaseRuns += parts.length;
    for (const p of parts) this.counts.leaseEntries += p.entries.length;
    this.leaseParts(parts, runs, epoch).then(
      () => {
        for (const p of parts) done(p);
        this.wake();
      },
      (error: unknown) => {
        // Their entries lie behind the cursor, and reads skip them while the round's keys are
        // in `leasing`: read each queue from its start now and once they leave it.
        const earliest = parts.map((p) => Math.min(...p.entries.map((e) => e.dueAtMs)));
        if (epoch === this.epoch) {
          this.options.log.warn({ err: String(error) }, 'lease round failed; retrying after a pause');
          const until = this.options.clock.nowMs() + this.options.leaseAheadMs;
          parts.forEach((p, i) => {
            this.rereadFrom(p.q, earliest[i]!);
            // It may still apply: its leases count against the group's in-flight limit meanwhile.
            this.limits.unknownOutcome(p.q, p.entries.length, until + p.consumer.leaseMs);
          });
        }
        // A failed round (typically: leadership is being lost) must not retry in a
        // microtask loop, which would starve the Raft loop that reports the loss.
        this.options.clock.setTimer(() => {
          for (const p of parts) done(p);
          if (epoch === this.epoch)
            parts.forEach((p, i) => {
              this.rereadFrom(p.q, earliest[i]!);
            });
          this.wake();
        }, LEASE_RETRY_PAUSE_MS);
      },
    );
  }

  /** Proposes the lease command of `parts` and places what each run leased (lease-placement.ts). */
  private async leaseParts(parts: readonly RunPart[], runs: boolean, epoch: number): Promise<void> {
    const { proposer, leaseAheadMs } = this.options;
    const tags = parts.reduce((n, p) => n + p.entries.length, 0);
    // Ids for the dead letters the command may make, and after them a lease id per run.
    const firstId = proposer.reserveIds(tags + (runs ? parts.length : 0));
    const ahead = leaseAheadMs > 0 ? { aheadMs: leaseAheadMs } : {};
    let result: CommandResult;
    if (runs) {
      result = await proposer.run({
        kind: 'lease-runs',
        firstId,
        idCount: tags,
        ...ahead,
        runs: parts.map((p, i) => ({
          topic: p.consumer.topic,
          group: p.consumer.group,
          tags: p.entries.map((e) => e.tag),
          leaseMs: p.consumer.leaseMs,
          leaseId: firstId + BigInt(tags + i),
          ...(p.consumer.consumerId !== 0n ? { consumerId: p.consumer.consumerId } : {}),
          ...(p.deadLetterFallback ? { deadLetterFallback: true } : {}),
        })),
      });
    } else {
      invariant(parts.length === 1, () => `a lease command of ${parts.length} runs without leaseRuns`);
      const p = parts[0]!;
      result = await proposer.run({
        kind: 'lease',
        topic: p.consumer.topic,
        group: p.consumer.group,
        tags: p.entries.map((e) => e.tag),
        leaseMs: p.consumer.leaseMs,
        firstId,
        idCount: tags,
        ...ahead,
        ...(this.options.leaseInPlace !== false ? { inPlace: true } : {}),
        ...(p.deadLetterFallback ? { deadLetterFallback: true } : {}),
        ...(p.consumer.consumerId !== 0n ? { consumerId: p.consumer.consumerId } : {}),
      });
    }
    if (result.kind !== 'lease' || epoch !== this.epoch) return;
    invariant(
      result.outcomes.length === tags,
      () => `${result.outcomes.length} lease outcomes for ${tags} tags`,
    );
    let at = 0;
    await Promise.all(
      parts.map((p) => this.placeRun(p, result.outcomes.slice(at, (at += p.entries.length)), epoch)),
    );
  }

  /**
   * A limited group's leases count against its in-flight limit. Those a
   * limit held back are counted throttled, and so are the entries the lease
   * command ended at their deadline instead (dead-lettered or dropped): the
   * limit is why they were not leased in time.
   */
  private noteLimited(
    p: RunPart,
    outcomes: readonly LeaseOutcome[],
    byTag: ReadonlyMap<string, EntryView>,
  ): void {
    const { topic, group } = p.consumer;
    for (const o of outcomes) {
      if (o.status === 'leased') this.limits.leased(p.q, o.newTag!, o.leaseExpiresAtMs!);
      else if (!o.deadlineExceeded) continue;
      const entry = byTag.get(tagKeyOf(o.tag));
      const limit = entry && this.limits.throttledBy(entry);
      if (!limit) continue;
      this.limits.countThrottled(p.q);
      this.options.metrics.deliveryThrottled?.inc({ topic, group, limit });
    }
  }

  /** What one run leased goes to its consumer (lease-placement.ts); what it did not lease is read again. */
  private async placeRun(p: RunPart, outcomes: readonly LeaseOutcome[], epoch: number): Promise<void> {
    const { reader, metrics } = this.options;
    const { q, round, consumer } = p;
    const leased = outcomes.filter((o) => o.status === 'leased');
    let notDue = Number.POSITIVE_INFINITY;
    const byTag = new Map(p.entries.map((e) => [tagKeyOf(e.tag), e]));
    for (const o of outcomes) {
      if (o.status === 'dead-lettered' || o.status === 'dropped') {
        metrics.deadLetters.inc({ topic: consumer.topic });
        if (o.deadlineExceeded) {
          const action = o.status === 'dead-lettered' ? 'dead-letter' : 'drop';
          metrics.deadlineExceeded?.inc({ topic: consumer.topic, group: consumer.group, action });
        }
      }
      // Paused since the round read it: the next round finds it paused and parks it.
      if (o.status === 'not-due' || o.status === 'paused')
        notDue = Math.min(notDue, byTag.get(tagKeyOf(o.tag))?.dueAtMs ?? notDue);
    }
    if (notDue !== Number.POSITIVE_INFINITY) this.rereadFrom(q, notDue);
    if (this.limits.limited(q)) this.noteLimited(p, outcomes, byTag);
    if (leased.length === 0) return;
    // The leases stay where the entries lie, behind the cursor: when the first one ends, read from the start.
    let endMs = Number.POSITIVE_INFINITY;
    for (const o of leased) endMs = Math.min(endMs, o.leaseExpiresAtMs!);
    round.noteLapse(endMs);
    this.heap.lower(q, endMs + this.aheadOf(q));
    // The bodies the entries read for the lease carry, or the messages' body records.
    const bodies = await reader.bodiesOf(
      leased.map((o) => byTag.get(tagKeyOf(o.tag)) ?? { id: o.id!, body: undefined }),
    );
    if (epoch !== this.epoch) return;
    const now = this.options.clock.nowMs();
    const deliveries: LeasedDelivery[] = [];
    leased.forEach((o, i) => {
      const body = bodies[i];
      const entry = byTag.get(tagKeyOf(o.tag));
      if (!body || !entry || !o.newTag) return;
      const lease = {
        attempt: o.attempt ?? 1,
        maxAttempts: p.maxAttempts,
        leaseEndMs: o.leaseExpiresAtMs!,
        startsAtMs: o.startsAtMs ?? now,
        throttled: this.limits.throttledBy(entry) !== undefined,
      };
      deliveries.push({ tag: o.newTag, body, entry, lease });
    });
    for (const c of this.placement.placeLeased(consumer, q, deliveries, now)) this.drain(c, now);
    this.setTimer();
  }
}

/** A group's limits as its topic record says (none for a topic or group gone or being deleted). */
function limitsOf(topic: TopicRec | undefined, group: string): GroupLimits | undefined {
  return topic && !groupDeleting(topic, group) ? effectiveGroupSettings(topic, group) : undefined;
}

/** Deliveries sent ahead (held until their start) whose write has not completed. */
function unsentHeld(c: Consumer): number {
  if (c.early.size === 0 || c.unsent.size === 0) return 0;
  let n = 0;
  for (const tag of c.unsent) if (c.early.has(tag)) n++;
  return n;
}
