import { type Clock, invariant, systemClock, type TimerHandle } from '@fermata/base';
import type { RaftNode } from '@fermata/raft';
import { DiskFullError } from '@fermata/raft';
import { validateClientMessages } from '../state/commands/client-headers.js';
import { type Command, encodeCommand, makesMessages, type PublishInput } from '../state/commands/commands.js';
import type { CommandResult, PublishResultItem, SettleOutcome } from '../state/commands/results.js';
import { validateCommand } from '../state/commands/validate-command.js';
import { validateIdempotencyKey, validatePublish } from '../state/commands/validation.js';
import { LeaderNotReadyError, LimitError, topicDeleting } from '../state/model/errors.js';
import type { BrokerStateMachine } from '../state/state-machine.js';

/**
 * Publish entries in flight at once; requests arriving meanwhile are coalesced
 * into the next entry. Lease commands queue behind them in the log, so more
 * makes deliveries late under load without raising the publish rate.
 */
export const MAX_PUBLISH_ENTRIES_IN_FLIGHT = 2;
/**
 * Ack entries in flight at once; acks arriving meanwhile (from every consumer)
 * share the next entry. An ack frees its consumer's window slot when it
 * arrives, so joining an entry delays only the ack's answer (and the time
 * stamp it is applied with: a lease that ends meanwhile answers "lease
 * expired"), while each entry saved is a log append, a replication round and
 * an apply on every node. Two, so that one round's wait is the most an ack
 * queues for.
 */
export const MAX_ACK_ENTRIES_IN_FLIGHT = 2;
/**
 * Tags of acks waiting for an entry on the leader; beyond it an ack is refused
 * (RESOURCE_EXHAUSTED, limit `maxQueuedAckTags`): a client pipelining acks
 * faster than entries commit cannot grow the leader's memory without bound.
 * The delivery comes back when its lease ends, and clients retry.
 */
export const MAX_QUEUED_ACK_TAGS = 100_000;
/**
 * Payload bytes of publishes waiting for an entry on the leader; beyond it a
 * publish is refused (RESOURCE_EXHAUSTED, limit `maxQueuedPublishBytes`) so a
 * flood cannot grow the leader's memory without bound. Clients retry.
 */
export const MAX_QUEUED_PUBLISH_BYTES = 256 * 1024 * 1024;

type Unstamped<C> = C extends unknown ? Omit<C, 'nowMs'> : never;
export type CommandBody = Unstamped<Command>;

interface Queued<R> {
  resolve(results: R): void;
  reject(error: unknown): void;
}

interface QueuedPublish extends Queued<readonly PublishResultItem[]> {
  readonly messages: readonly PublishInput[];
  /** '' = none. */
  readonly idempotencyKey: string;
  readonly payloadBytes: number;
}

interface QueuedAck extends Queued<readonly SettleOutcome[]> {
  readonly tags: readonly Uint8Array[];
}

/** What a queue may hold: the sum of its requests' `charge`, refused beyond `max` as `limit`. */
interface QueueBudget<T> {
  readonly limit: string;
  readonly field: string;
  readonly max: number;
  charge(item: T): number;
}

/**
 * Requests that share Raft entries: at most `maxInFlight` entries at once, and
 * what arrives meanwhile joins the next one, as many requests from the front
 * of the queue as fit (each request's `sizes` summed stay within `caps()`; a
 * request is never split, and one alone always goes). Requests waiting or in
 * flight are charged to `budget` until `propose` has answered them.
 */
class Coalescer<T extends { reject(error: unknown): void }> {
  private readonly queue: T[] = [];
  private inFlight = 0;
  private charged = 0;
  /** When the last group was proposed (monotonic clock), and how many requests it carried (see `lingerMs`). */
  private lastProposedAtMs = Number.NEGATIVE_INFINITY;
  private lastGroupSize = 0;
  private lingerTimer: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly maxInFlight: number,
    private readonly sizes: (item: T) => readonly number[],
    private readonly caps: () => readonly number[],
    private readonly budget: QueueBudget<T>,
    /** Answers every request of the group (resolve or reject) before it settles. */
    private readonly propose: (group: readonly T[]) => Promise<void>,
    /**
     * While requests arrive concurrently (the last group carried several), a
     * group is proposed at most once per this many ms unless it fills `caps()`:
     * each group saved is a Raft round on every node. A request that arrives
     * after a group of one (a client awaiting each answer), or when none was
     * proposed for as long, goes at once. 0 = as soon as an entry is free.
     */
    private readonly lingerMs: () => number = () => 0,
  ) {}

  /** Queues `item`; throws a LimitError (nothing queued) when it does not fit the budget. */
  push(item: T): void {
    const { limit, field, max, charge } = this.budget;
    const total = this.charged + charge(item);
    if (total > max) throw new LimitError(limit, max, total, field);
    this.charged = total;
    this.queue.push(item);
    this.pump();
  }

  /** True when the next group should wait (a timer pumps again when the linger ends). */
  private linger(): boolean {
    const lingerMs = this.lingerMs();
    if (lingerMs <= 0 || this.lastGroupSize < 2) return false;
    const wait = this.lastProposedAtMs + lingerMs - this.clock.monotonicMs();
    if (wait <= 0) return false;
    this.lingerTimer ??= this.clock.setTimer(() => {
      this.lingerTimer = undefined;
      this.pump();
    }, wait);
    return true;
  }

  failAll(error: unknown): void {
    const failed = this.queue.splice(0);
    this.release(failed);
    for (const q of failed) q.reject(error);
  }

  private release(items: readonly T[]): void {
    for (const q of items) this.charged -= this.budget.charge(q);
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const caps = this.caps();
      const used = caps.map(() => 0);
      let take = 0;
      for (; take < this.queue.length; take++) {
        const size = this.sizes(this.queue[take]!);
        if (take > 0 && size.some((n, d) => used[d]! + n > caps[d]!)) break;
        size.forEach((n, d) => {
          used[d]! += n;
        });
      }
      // Full: a request was left out, or the group reaches a cap.
      const full = take < this.queue.length || used.some((n, d) => n >= caps[d]!);
      if (!full && this.linger()) return;
      const group = this.queue.splice(0, take);
      this.lastProposedAtMs = this.clock.monotonicMs();
      this.lastGroupSize = group.length;
      this.inFlight++;
      void this.propose(group).finally(() => {
        this.inFlight--;
        this.release(group);
        this.pump();
      });
    }
  }
}

/** Raised when a leader is asked for ids before it has applied an entry of its term. */
export function leaderNotReady(): LeaderNotReadyError {
  return new LeaderNotReadyError();
}

/** What the proposer needs of the Raft node. */
export type ProposeTarget = Pick<RaftNode, 'propose'> & Partial<Pick<RaftNode, 'diskFull'>>;

export interface ProposerOptions {
  /**
   * `false` proposes no request spans, so idempotency keys are ignored: for a
   * rollout from a version whose nodes would not apply them.
   */
  readonly publishIdempotency: boolean;
  /** See `Coalescer.lingerMs` (acks only). */
  readonly ackLingerMs: number;
  /**
   * Commands that make messages say `inlineBodies` (a message of one entry
   * carries its body there): storage.inlineBodies. Default true; false only
   * for a rollout from a version whose nodes would not apply it.
   */
  readonly inlineBodies?: boolean;
  /** Default `systemClock`. */
  readonly clock?: Clock;
}

/**
 * Turns client requests into Raft proposals on the leader: stamps each command
 * with the leader's time (never going backwards across leaders), assigns event
 * ids, and coalesces publishes from many clients into few entries (each
 * request stays atomic: it is validated alone before it joins an entry, and an
 * entry is refused at apply only for a reason that concerns it as a whole).
 */
export class Proposer {
  private lastStampMs = 0;
  private readonly clock: Clock;
  private readonly publishes: Coalescer<QueuedPublish>;
  private readonly acks: Coalescer<QueuedAck>;

  constructor(
    private readonly node: ProposeTarget,
    private readonly sm: BrokerStateMachine,
    private readonly options: ProposerOptions = { publishIdempotency: true, ackLingerMs: 0 },
  ) {
    this.clock = options.clock ?? systemClock;
    this.publishes = new Coalescer<QueuedPublish>(
      this.clock,
      MAX_PUBLISH_ENTRIES_IN_FLIGHT,
      (q) => [q.messages.length, q.payloadBytes],
      () => [sm.limits.maxBatchMessages, sm.limits.maxBatchPayloadBytes],
      {
        limit: 'maxQueuedPublishBytes',
        field: 'messages',
        max: MAX_QUEUED_PUBLISH_BYTES,
        // Message headers and bookkeeping count too: at least 64 bytes a message.
        charge: (q) => q.payloadBytes + 64 * q.messages.length,
      },
      (group) => this.proposePublishes(group),
    );
    this.acks = new Coalescer<QueuedAck>(
      this.clock,
      MAX_ACK_ENTRIES_IN_FLIGHT,
      (q) => [q.tags.length],
      () => [sm.limits.maxTagsPerCommand],
      { limit: 'maxQueuedAckTags', field: 'tags', max: MAX_QUEUED_ACK_TAGS, charge: (q) => q.tags.length },
      (group) => this.proposeAcks(group),
      () => options.ackLingerMs,
    );
  }

  /** The leader's time: max(local clock, last applied stamp, last stamp given). */
  nowMs(): number {
    const now = Math.max(this.clock.nowMs(), this.sm.lastNowMs(), this.lastStampMs);
    this.lastStampMs = now;
    return now;
  }

  /** Proposes one command and resolves with its result; a refused command rejects with its typed error. */
  async run(body: CommandBody, nowMs = this.nowMs()): Promise<CommandResult> {
    const inline = this.options.inlineBodies !== false && makesMessages(body.kind);
    const cmd = (inline ? { ...body, nowMs, inlineBodies: true } : { ...body, nowMs }) as Command;
    // A command apply would refuse for its shape is refused here, before it takes a log entry.
    // (Publishes and acks were validated request by request in `publish` and `ack`, and a
    // coalesced entry stays within the command's limits.)
    if (cmd.kind !== 'publish' && cmd.kind !== 'ack') validateCommand(cmd, nowMs, this.sm.limits);
    const result = (await this.node.propose(encodeCommand(cmd))) as CommandResult | undefined;
    invariant(result, () => `command ${cmd.kind} applied without a result`);
    if (result.kind === 'error') throw result.error;
    return result;
  }

  /** Ids for `n` new records; UNAVAILABLE until this leader has applied an entry of its term. */
  reserveIds(n: number): bigint {
    if (!this.sm.ids.canAssign()) throw leaderNotReady();
    return this.sm.ids.nextIds(n);
  }

  /**
   * Publishes one atomic batch. Validated here first (precise errors, nothing
   * proposed), then queued to share a Raft entry with other requests. A
   * request with an idempotency key applied in the last
   * limits.publishDedupWindowMs answers that request's results again.
   */
  publish(messages: readonly PublishInput[], idempotencyKey = ''): Promise<readonly PublishResultItem[]> {
    validatePublish(messages, this.nowMs(), this.sm.limits);
    validateClientMessages(messages);
    validateIdempotencyKey(idempotencyKey, this.sm.limits);
    if (this.sm.deleting.size > 0) {
      for (const m of messages) if (this.sm.deleting.topic(m.topic)) throw topicDeleting(m.topic);
    }
    if (!this.sm.ids.canAssign()) return Promise.reject(leaderNotReady());
    const full = this.node.diskFull?.();
    if (full) return Promise.reject(new DiskFullError(full));
    let payloadBytes = 0;
    for (const m of messages) payloadBytes += m.payload.length;
    return new Promise((resolve, reject) => {
      this.publishes.push({ messages, idempotencyKey, payloadBytes, resolve, reject });
    });
  }

  /**
   * Acks deliveries by tag: validated here, then queued to share a Raft entry
   * with other acks. Resolves with one outcome per tag, in order.
   */
  ack(tags: readonly Uint8Array[]): Promise<readonly SettleOutcome[]> {
    validateCommand({ kind: 'ack', tags, nowMs: 0 }, 0, this.sm.limits);
    const full = this.node.diskFull?.();
    if (full) return Promise.reject(new DiskFullError(full));
    return new Promise((resolve, reject) => {
      this.acks.push({ tags, resolve, reject });
    });
  }

  /** Fails every queued publish and ack (leadership lost, shutdown). */
  failQueued(error: unknown): void {
    this.publishes.failAll(error);
    this.acks.failAll(error);
  }

  private async proposePublishes(group: readonly QueuedPublish[]): Promise<void> {
    try {
      const all = group.length === 1 ? group[0]!.messages : group.flatMap((g) => g.messages);
      const firstId = this.reserveIds(all.length);
      // Spans also let apply refuse one request alone (a topic deleted meanwhile) when several share the entry.
      const keyed =
        this.options.publishIdempotency && (group.length > 1 || group.some((g) => g.idempotencyKey !== ''));
      const result = await this.run({
        kind: 'publish',
        firstId,
        messages: all,
        ...(keyed
          ? { requests: group.map((g) => ({ idempotencyKey: g.idempotencyKey, count: g.messages.length })) }
          : {}),
      });
      invariant(result.kind === 'publish', () => `publish answered with ${result.kind}`);
      const refused = new Map((result.refused ?? []).map((r) => [r.request, r.error]));
      let at = 0;
      for (const [i, g] of group.entries()) {
        const error = refused.get(i);
        if (error) {
          g.reject(error);
          continue;
        }
        g.resolve(result.results.slice(at, at + g.messages.length));
        at += g.messages.length;
      }
    } catch (error) {
      for (const g of group) g.reject(error);
    }
  }

  private async proposeAcks(group: readonly QueuedAck[]): Promise<void> {
    try {
      const tags = group.length === 1 ? group[0]!.tags : group.flatMap((g) => g.tags);
      const result = await this.run({ kind: 'ack', tags });
      invariant(result.kind === 'ack', () => `ack answered with ${result.kind}`);
      // One outcome per tag, in order (apply-delivery.ts applyAck).
      invariant(
        result.outcomes.length === tags.length,
        () => `${result.outcomes.length} ack outcomes for ${tags.length} tags`,
      );
      let at = 0;
      for (const g of group) {
        g.resolve(result.outcomes.slice(at, at + g.tags.length));
        at += g.tags.length;
      }
    } catch (error) {
      for (const g of group) g.reject(error);
    }
  }
}
