/**
 * Bugs the broker simulation can inject (`--bug NAME`), each a test-only
 * subclass or hook handed to a simulated node, never reachable from the
 * server's configuration. Each must be caught by a general rule of the
 * checker (checker.ts), not by a check written for its mechanism.
 */

import type { Clock } from '@fermata/base';
import { decodeKey, KEY_BYTES, tagEntryKey, tagKeyOf } from '../keys.js';
import type { Consumer, Push } from '../leader/dispatcher/consumer.js';
import type { Dispatcher } from '../leader/dispatcher/dispatcher.js';
import type { DeliveryLimits, GroupLimits } from '../leader/dispatcher/limits.js';
import { TokenBucket } from '../leader/dispatcher/token-bucket.js';
import type { CommandBody } from '../leader/proposer.js';
import { Proposer } from '../leader/proposer.js';
import type { ApplyContext } from '../state/apply/context.js';
import { heldOf } from '../state/apply/held.js';
import type { CommandResult, SettleOutcome } from '../state/commands/results.js';
import {
  deadlineAtLease,
  type LeaseRun,
  maybeOrdered,
  offsetSettled,
  type QueueEntryRec,
  type RunHold,
  runKey,
  type TopicRec,
} from '../state/model/records.js';
import { OCCURRENCE_HEADER, SCHEDULE_HEADER } from '../state/model/schedules.js';
import type { FireOutcome } from '../state/schedule/ops.js';
import type { BrokerStateMachine } from '../state/state-machine.js';
import { readSchedule } from '../state/stores/schedules.js';

export const INJECTED_BUGS = [
  'early-push',
  'ack-in-memory',
  'reschedule-answer',
  'ack-lapsed-tag',
  'fire-as-publish',
  'late-round',
  'deleted-topic-pushes',
  'ack-wrong-lease',
  'delete-past-run',
  'lapse-ignores-settled',
  'lease-while-paused',
  'redelivery-past-deadline',
  'ordering-head-released-on-nack',
  'ordering-no-swap',
  'bucket-full-on-failover',
  'in-flight-per-consumer',
] as const;
export type InjectedBug = (typeof INJECTED_BUGS)[number];

export interface BrokerBugs {
  readonly proposer?: typeof Proposer;
  /** Changes a dispatcher after it is built. */
  readonly dispatcher?: (dispatcher: Dispatcher, clock: Clock) => void;
  /** Changes a state machine once open, before it applies anything (ApplyHooks: state/apply/context.ts). */
  readonly stateMachine?: (sm: BrokerStateMachine) => void;
}

/** How early the `early-push` dispatcher pushes. */
const EARLY_MS = 300;

/** The private parts of the dispatcher the `early-push` bug replaces. */
interface DispatcherInternals {
  schedule: { size: number; takeDue(nowMs: number): Push[] };
  drain(consumer: Consumer, nowMs: number): void;
  flushDue(): void;
}

/** Pushes scheduled deliveries EARLY_MS before their time (the shipped flushDue with a shifted `now`). */
function pushEarly(dispatcher: Dispatcher, clock: Clock): void {
  const d = dispatcher as unknown as DispatcherInternals;
  d.flushDue = function (this: DispatcherInternals) {
    if (this.schedule.size === 0) return;
    const now = clock.nowMs() + EARLY_MS;
    const touched = new Set<Consumer>();
    for (const item of this.schedule.takeDue(now)) {
      item.consumer.ready.push(item);
      touched.add(item.consumer);
    }
    for (const c of touched) this.drain(c, now);
  };
}

/** How late the `late-round` dispatcher starts a queue's lease round after its next entry is due. */
const LATE_MS = 1_500;

/** The private part of the dispatcher the `late-round` bug wraps. */
interface RoundTiming {
  heap: { get(q: bigint): number | undefined };
  roundAllowedAtMs(q: bigint, now: number): number;
}

/** Starts each queue's lease round LATE_MS after its next entry is due (a timer armed late). */
function roundLate(dispatcher: Dispatcher): void {
  const d = dispatcher as unknown as RoundTiming;
  const shipped = d.roundAllowedAtMs;
  d.roundAllowedAtMs = function (this: RoundTiming, q: bigint, now: number) {
    const due = this.heap.get(q);
    return Math.max(shipped.call(this, q, now), due === undefined ? now : due + LATE_MS);
  };
}

/**
 * A deleted topic's consumers keep their streams and the deliveries leased
 * for them before the deletion are still pushed (the dispatcher ignores it).
 */
function ignoreDeletions(dispatcher: Dispatcher): void {
  (dispatcher as unknown as { deleted(topic: string, group: string, reason: unknown): void }).deleted = () =>
    undefined;
}

/** The private parts of the dispatcher the limit bugs change. */
interface LimitInternals {
  limits: DeliveryLimits;
  registry: { count(q: bigint): number };
}

/**
 * A new leader's token buckets start full, at once (the bucket as if kept
 * across the failover, without what the previous leader took from it): a
 * burst passes on top of the previous leader's last deliveries.
 */
function bucketFullOnFailover(dispatcher: Dispatcher): void {
  const { limits } = dispatcher as unknown as LimitInternals;
  (limits as unknown as { newBucket(rate: number, burst: number, nowMs: number): TokenBucket }).newBucket = (
    rate,
    burst,
    nowMs,
  ) => new TokenBucket(rate, burst, nowMs - (burst * 1000) / rate);
}

/** max_in_flight counted per consumer: each of the group's consumers may hold that many. */
function inFlightPerConsumer(dispatcher: Dispatcher): void {
  const d = dispatcher as unknown as LimitInternals;
  const shipped = d.limits.configure.bind(d.limits);
  d.limits.configure = (q: bigint, limits: GroupLimits | undefined, nowMs: number) =>
    shipped(
      q,
      limits && { ...limits, maxInFlight: limits.maxInFlight * Math.max(1, d.registry.count(q)) },
      nowMs,
    );
}

/** An ack of a lapsed tag settles the message's current lease instead of answering LEASE_EXPIRED. */
class AckLapsedTagProposer extends Proposer {
  private readonly state: BrokerStateMachine;
  /** The entry key of each tag this leader's leases gave (a run's tag does not hold it). */
  private readonly keyOfTag = new Map<string, Uint8Array>();

  constructor(...args: ConstructorParameters<typeof Proposer>) {
    super(...args);
    this.state = args[1];
  }

  override async run(body: CommandBody, nowMs?: number): Promise<CommandResult> {
    const r = await super.run(body, nowMs);
    if (r.kind === 'lease') {
      for (const o of r.outcomes) if (o.newTag) this.keyOfTag.set(tagKeyOf(o.newTag), o.tag);
    }
    return r;
  }

  override async ack(tags: readonly Uint8Array[]): Promise<readonly SettleOutcome[]> {
    const current = await Promise.all(tags.map((t) => this.currentTag(t)));
    const outcomes = await super.ack(current);
    return outcomes.map((o, i) => ({ ...o, tag: tags[i]! }));
  }

  private async currentTag(tag: Uint8Array): Promise<Uint8Array> {
    const entryKey =
      this.keyOfTag.get(tagKeyOf(tag)) ?? (tag.length >= KEY_BYTES ? tagEntryKey(tag) : undefined);
    if (!entryKey) return tag;
    const key = decodeKey(entryKey);
    const queue = await this.state.reader.getQueue(key.queueHash);
    if (!queue) return tag;
    const page = await this.state.reader.listMessages(
      queue.topic,
      { group: queue.group, limit: 1000 },
      this.nowMs(),
    );
    const live = page.items.find((it) => it.entry.id === key.id && it.state === 'in-flight');
    return live ? live.tag : tag;
  }
}

/** The ack is answered from the leader's memory and never replicated. */
class AckInMemoryProposer extends Proposer {
  override ack(tags: readonly Uint8Array[]): Promise<readonly SettleOutcome[]> {
    return Promise.resolve(tags.map((tag) => ({ tag, status: 'ok' as const })));
  }
}

/** A reschedule answers a due time later than the one it stored. */
class RescheduleAnswerProposer extends Proposer {
  override async run(body: CommandBody, nowMs?: number): Promise<CommandResult> {
    const r = await super.run(body, nowMs);
    if (r.kind === 'reschedule' && r.result.status === 'rescheduled' && r.result.dueAtMs !== undefined) {
      return { ...r, result: { ...r.result, dueAtMs: r.result.dueAtMs + 5_000 } };
    }
    return r;
  }
}

/**
 * Occurrences are published as plain messages and the schedule's cursor is
 * kept in the leader's memory only (what a cron process bolted onto a queue
 * does): a new leader starts again from the replicated cursor, so occurrences
 * the old leader published become messages again.
 */
class FireAsPublishProposer extends Proposer {
  private readonly state: BrokerStateMachine;

  constructor(...args: ConstructorParameters<typeof Proposer>) {
    super(...args);
    this.state = args[1];
  }

  override async run(body: CommandBody, nowMs?: number): Promise<CommandResult> {
    if (body.kind !== 'schedule' || body.op.op !== 'fire') return super.run(body, nowMs);
    const outcomes: FireOutcome[] = [];
    for (const f of body.op.fires) {
      const rec = await readSchedule(this.state.store, f.topic, f.name);
      if (!rec) {
        outcomes.push({ status: 'gone' });
        continue;
      }
      const messages = f.occurrences.map((occ) => ({
        topic: f.topic,
        payload: rec.def.payload,
        headers: { [SCHEDULE_HEADER]: f.name, [OCCURRENCE_HEADER]: String(occ) },
        deliverAtMs: occ,
      }));
      if (messages.length > 0) await this.publish(messages);
      const last = f.occurrences[f.occurrences.length - 1] ?? f.skipToMs;
      outcomes.push({
        status: 'fired',
        fired: f.occurrences.length,
        skipped: f.skipped,
        rec: { ...rec, cursorMs: Math.max(rec.cursorMs, last), fired: rec.fired + f.occurrences.length },
      });
    }
    return { kind: 'schedule', result: { op: 'fire', outcomes } };
  }
}

/**
 * The live runs of `hold`'s queue other than its own, as the command being
 * applied sees them: the state machine's lease index (the batch's start)
 * under the runs this batch changed. The same on every replica, whatever
 * its batches.
 */
function otherRuns(ctx: ApplyContext, sm: BrokerStateMachine, hold: RunHold): LeaseRun[] {
  const ids = new Set<bigint>();
  for (const run of sm.leases.runsOf(hold.run.queueHash)) ids.add(run.leaseId);
  for (const run of ctx.leases.changes().values()) {
    if (run.queueHash === hold.run.queueHash) ids.add(run.leaseId);
  }
  ids.delete(hold.run.leaseId);
  const out: LeaseRun[] = [];
  for (const id of ids) {
    const run = ctx.leases.run(id);
    if (run && run.open > 0) out.push(run);
  }
  return out;
}

/**
 * A run tag names another live run of its queue: the one nearest in lease
 * id whose same offset is open (the tag's own when there is none). An ack
 * then settles that run's offset and ends the entry it holds, answered OK,
 * while the tag's own lease runs on (a nack or an extend acts there too).
 */
function ackWrongLease(sm: BrokerStateMachine): void {
  sm.applyHooks = {
    runTagHold: (ctx, named) => {
      let best: LeaseRun | undefined;
      const own = named.run.leaseId;
      const distance = (run: LeaseRun): bigint => (run.leaseId > own ? run.leaseId - own : own - run.leaseId);
      for (const run of otherRuns(ctx, sm, named)) {
        if (named.offset >= run.length || offsetSettled(run, named.offset)) continue;
        if (
          !best ||
          distance(run) < distance(best) ||
          (distance(run) === distance(best) && run.leaseId > own)
        )
          best = run;
      }
      return best ? { run: best, offset: named.offset } : named;
    },
  };
}

/**
 * The per-key deletes of a run that its acks settled reach one key past the
 * run's last key: when an ack settles the run's last open offset, the next
 * entry of the queue after that key (another run's, or a pending one) is
 * deleted as if acked.
 */
async function deletePastRun(ctx: ApplyContext, topic: TopicRec, hold: RunHold): Promise<void> {
  const run = ctx.leases.run(hold.run.leaseId);
  if (!run || run.open > 0 || run.length === 0) return;
  const [next] = await ctx.entries.scanQueue(run.queueHash, runKey(run, run.length - 1), 1);
  if (!next) return;
  const held = heldOf(ctx, next.tag, next.entry);
  const removing = ctx.entries.remove(topic, next.tag, held.view, 'done', held.runTag);
  if (removing) await removing;
}

/**
 * The lease index keeps a run as it first saw it: the settles of later
 * batches never reach it (its `merge` only adds new runs and drops ended
 * ones). A later batch then finds an offset settled since (handed back,
 * nacked, or lapsed and leased again) still open, and a lapse or a new lease
 * takes it again. What the index missed depends on how a replica's log was
 * cut into apply batches: replicas can disagree.
 */
function lapseIgnoresSettled(sm: BrokerStateMachine): void {
  const index = sm.leases as unknown as {
    runs: Map<bigint, LeaseRun>;
    add(run: LeaseRun): void;
    merge(changed: ReadonlyMap<bigint, LeaseRun>): void;
  };
  index.merge = function (this: typeof index, changed: ReadonlyMap<bigint, LeaseRun>) {
    for (const run of changed.values()) {
      const before = this.runs.get(run.leaseId);
      if (!before) this.add(run);
      else if (run.open === 0) this.runs.delete(run.leaseId);
    }
  };
}

/**
 * Apply leases whatever the pause: only the leader's dispatcher holds a paused
 * queue back, so a lease it proposed before the pause applied leases after it.
 */
function leaseWhilePaused(sm: BrokerStateMachine): void {
  sm.applyHooks = { paused: () => false };
}

/**
 * Apply checks a message's deadline at its first lease only: a redelivery (a
 * nacked or lapsed message leased again) past its deadline goes ahead.
 */
function redeliveryPastDeadline(sm: BrokerStateMachine): void {
  sm.applyHooks = {
    deadline: (entry, nowMs) => (entry.attempt > 0 ? undefined : deadlineAtLease(entry, nowMs)),
  };
}

/**
 * Per-key ordering lets a nacked head go: its nack moves the key's next
 * message up as the head's end would, while the head, pending again, stays
 * in the due order. The next lease round leases both.
 */
async function releaseHeadOnNack(ctx: ApplyContext, topic: TopicRec, entry: QueueEntryRec): Promise<void> {
  if (!maybeOrdered(entry)) return;
  const q = ctx.queues.hash(topic.name, entry.group);
  if ((await ctx.heads.front(q, entry.orderingKey)) !== entry.id) return;
  await ctx.entries.order.moveUp(topic, q, entry.orderingKey);
}

export function brokerBugs(bug: InjectedBug | undefined): BrokerBugs {
  switch (bug) {
    case undefined:
      return {};
    case 'early-push':
      return { dispatcher: pushEarly };
    case 'late-round':
      return { dispatcher: roundLate };
    case 'deleted-topic-pushes':
      return { dispatcher: ignoreDeletions };
    case 'ack-in-memory':
      return { proposer: AckInMemoryProposer };
    case 'reschedule-answer':
      return { proposer: RescheduleAnswerProposer };
    case 'ack-lapsed-tag':
      return { proposer: AckLapsedTagProposer };
    case 'fire-as-publish':
      return { proposer: FireAsPublishProposer };
    case 'ack-wrong-lease':
      return { stateMachine: ackWrongLease };
    case 'delete-past-run':
      return {
        stateMachine: (sm) => {
          sm.applyHooks = { acked: deletePastRun };
        },
      };
    case 'lapse-ignores-settled':
      return { stateMachine: lapseIgnoresSettled };
    case 'lease-while-paused':
      return { stateMachine: leaseWhilePaused };
    case 'redelivery-past-deadline':
      return { stateMachine: redeliveryPastDeadline };
    case 'ordering-head-released-on-nack':
      return {
        stateMachine: (sm) => {
          sm.applyHooks = { nacked: releaseHeadOnNack };
        },
      };
    case 'ordering-no-swap':
      return {
        stateMachine: (sm) => {
          sm.applyHooks = { keyFrontSwaps: false };
        },
      };
    case 'bucket-full-on-failover':
      return { dispatcher: bucketFullOnFailover };
    case 'in-flight-per-consumer':
      return { dispatcher: inFlightPerConsumer };
  }
}
