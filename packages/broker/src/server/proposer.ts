import type { RaftNode } from '@fermata/raft';
import * as grpc from '@grpc/grpc-js';
import { type Command, encodeCommand, type PublishInput } from '../state/commands.js';
import { LimitError } from '../state/errors.js';
import type { CommandResult, PublishResultItem } from '../state/results.js';
import type { BrokerStateMachine } from '../state/state-machine.js';
import { validateCommand, validateIdempotencyKey, validatePublish } from '../state/validation.js';

/**
 * Publish entries in flight at once; requests arriving meanwhile are coalesced
 * into the next entry. Lease commands queue behind them in the log, so more
 * makes deliveries late under load without raising the publish rate.
 */
export const MAX_PUBLISH_ENTRIES_IN_FLIGHT = 2;
/**
 * Payload bytes of publishes waiting for an entry on the leader; beyond it a
 * publish is refused (RESOURCE_EXHAUSTED, limit `maxQueuedPublishBytes`) so a
 * flood cannot grow the leader's memory without bound. Clients retry.
 */
export const MAX_QUEUED_PUBLISH_BYTES = 256 * 1024 * 1024;

type Unstamped<C> = C extends unknown ? Omit<C, 'nowMs'> : never;
export type CommandBody = Unstamped<Command>;

interface QueuedPublish {
  readonly messages: readonly PublishInput[];
  /** '' = none. */
  readonly idempotencyKey: string;
  readonly payloadBytes: number;
  resolve(results: readonly PublishResultItem[]): void;
  reject(error: unknown): void;
}

/** Raised when a leader is asked for ids before it has applied an entry of its term. */
export function leaderNotReady(): grpc.ServerErrorResponse {
  return Object.assign(new Error('leader is not ready yet; retry'), {
    code: grpc.status.UNAVAILABLE,
    details: 'leader is not ready yet; retry',
    metadata: new grpc.Metadata(),
  });
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
  private readonly queue: QueuedPublish[] = [];
  private publishesInFlight = 0;
  /** Charged bytes of publishes accepted and not yet answered. */
  private queuedBytes = 0;

  constructor(
    private readonly node: RaftNode,
    private readonly sm: BrokerStateMachine,
    /**
     * `publishIdempotency: false` proposes no request spans, so idempotency keys
     * are ignored: for a rollout from a version whose nodes would not apply them.
     */
    private readonly options: { readonly publishIdempotency: boolean } = { publishIdempotency: true },
  ) {}

  /** The leader's time: max(local clock, last applied stamp, last stamp given). */
  nowMs(): number {
    const now = Math.max(Date.now(), this.sm.lastNowMs(), this.lastStampMs);
    this.lastStampMs = now;
    return now;
  }

  /** Proposes one command and resolves with its result; a refused command rejects with its typed error. */
  async run(body: CommandBody, nowMs = this.nowMs()): Promise<CommandResult> {
    const cmd = { ...body, nowMs } as Command;
    // A command apply would refuse for its shape is refused here, before it takes a log entry.
    // (A publish was validated request by request in `publish`.)
    if (cmd.kind !== 'publish') validateCommand(cmd, nowMs, this.sm.limits);
    const result = (await this.node.propose(encodeCommand(cmd))) as CommandResult | undefined;
    if (!result) throw new Error(`invariant: command ${cmd.kind} applied without a result`);
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
    validateIdempotencyKey(idempotencyKey, this.sm.limits);
    if (!this.sm.ids.canAssign()) return Promise.reject(leaderNotReady());
    let payloadBytes = 0;
    for (const m of messages) payloadBytes += m.payload.length;
    // Message headers and bookkeeping count too: at least 64 bytes a message.
    const charge = payloadBytes + 64 * messages.length;
    if (this.queuedBytes + charge > MAX_QUEUED_PUBLISH_BYTES) {
      return Promise.reject(
        new LimitError(
          'maxQueuedPublishBytes',
          'messages',
          this.queuedBytes + charge,
          MAX_QUEUED_PUBLISH_BYTES,
        ),
      );
    }
    this.queuedBytes += charge;
    return new Promise<readonly PublishResultItem[]>((resolve, reject) => {
      this.queue.push({ messages, idempotencyKey, payloadBytes, resolve, reject });
      this.pump();
    }).finally(() => {
      this.queuedBytes -= charge;
    });
  }

  /** Fails every queued publish (leadership lost, shutdown). */
  failQueued(error: unknown): void {
    for (const q of this.queue.splice(0)) q.reject(error);
  }

  private pump(): void {
    const limits = this.sm.limits;
    while (this.publishesInFlight < MAX_PUBLISH_ENTRIES_IN_FLIGHT && this.queue.length > 0) {
      const group: QueuedPublish[] = [];
      let messages = 0;
      let bytes = 0;
      while (this.queue.length > 0) {
        const next = this.queue[0]!;
        const fits =
          messages + next.messages.length <= limits.maxBatchMessages &&
          bytes + next.payloadBytes <= limits.maxBatchPayloadBytes;
        if (group.length > 0 && !fits) break;
        group.push(this.queue.shift()!);
        messages += next.messages.length;
        bytes += next.payloadBytes;
      }
      this.publishesInFlight++;
      void this.proposeGroup(group).finally(() => {
        this.publishesInFlight--;
        this.pump();
      });
    }
  }

  private async proposeGroup(group: readonly QueuedPublish[]): Promise<void> {
    try {
      const all = group.length === 1 ? group[0]!.messages : group.flatMap((g) => g.messages);
      const firstId = this.reserveIds(all.length);
      const keyed = this.options.publishIdempotency && group.some((g) => g.idempotencyKey !== '');
      const result = await this.run({
        kind: 'publish',
        firstId,
        messages: all,
        ...(keyed
          ? { requests: group.map((g) => ({ idempotencyKey: g.idempotencyKey, count: g.messages.length })) }
          : {}),
      });
      if (result.kind !== 'publish') throw new Error(`invariant: publish answered with ${result.kind}`);
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
}
