/**
 * Simulated clients, calling what the gRPC handlers call (publish, ack, nack,
 * extend from grpc-broker.ts and settle.ts; the proposer for cancel and
 * reschedule; the dispatcher for consumers), never gRPC itself. Every call
 * and answer goes into the History; a call unanswered within CALL_TIMEOUT_MS
 * is left `unknown` and the client moves on (retrying a publish under the
 * same idempotency key).
 */
import { type NodeId, NotLeaderError } from '@fermata/raft';
import type { Prng, SimScheduler } from '@fermata/raft/sim-ports';
import { DEFAULT_GROUP } from '../keys.js';
import { type Consumer, heldAheadSchedule } from '../leader/dispatcher/consumer.js';
import { emptySlots } from '../leader/dispatcher/consumer-registry.js';
import { requireLeader } from '../server/context.js';
import { publish } from '../server/grpc-broker.js';
import { ack, extend, nack } from '../server/settle.js';
import type { History, SettleCall } from './history.js';
import { MAX_SKEW_MS, SIM_EPOCH_MS } from './sim-cluster.js';
import type { SimBrokerNode } from './sim-node.js';

export const TOPIC = 'sim';
export const CALL_TIMEOUT_MS = 3_000;
export const LEASE_MS = 1_000;
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

export interface ClientWorld {
  readonly sched: SimScheduler;
  readonly rng: Prng;
  readonly history: History;
  /** Live nodes by id. */
  readonly nodes: ReadonlyMap<NodeId, SimBrokerNode>;
  /** Chaos over: consumers ack everything. */
  calm: boolean;
  /**
   * Publish calls whose promise has not settled, and publishes still retrying: the calm
   * phase ends only once none is left, so no message is acknowledged after the last look.
   */
  publishing: number;
  /** Some publishes carry a deadline (runBrokerSeed's `controls`). */
  readonly controls: boolean;
}

/** Runs `call` and records its answer whenever it comes; `onDone` runs at the answer or the timeout. */
export function timed<T>(
  w: ClientWorld,
  call: () => Promise<T>,
  onAnswer: (v: T) => void,
  onError: (e: unknown) => void,
): void {
  let done = false;
  w.sched.at(
    CALL_TIMEOUT_MS,
    () => 'client timeout',
    () => {
      if (!done) onError(new Error('timeout'));
      done = true;
    },
  );
  let p: Promise<T>;
  try {
    p = call();
  } catch (e) {
    done = true;
    onError(e);
    return;
  }
  p.then(
    (v) => {
      onAnswer(v);
      done = true;
    },
    (e: unknown) => {
      if (!done) onError(e);
      done = true;
    },
  );
}

/** The node a client tries: the leader it was told of, else any live one. */
export function pickNode(w: ClientWorld, hint: NodeId | undefined): SimBrokerNode | undefined {
  if (hint) {
    const n = w.nodes.get(hint);
    if (n) return n;
  }
  const live = [...w.nodes.values()];
  return live.length > 0 ? w.rng.pick(live) : undefined;
}

function leaderHint(e: unknown): NodeId | undefined {
  return e instanceof NotLeaderError && e.leader ? e.leader : undefined;
}

/**
 * Publishes message `n` (key `k<n>`, idempotency key `p<n>`, ordering key `orderingKey` if
 * any), retrying until answered or out of tries.
 */
export function producePublish(
  w: ClientWorld,
  n: number,
  hint?: NodeId,
  tries = 8,
  orderingKey?: string,
): void {
  const key = `k${n}`;
  const delayMs = w.rng.chance(0.3) ? 0 : w.rng.int(1, 5_000);
  const ttlMs = w.rng.chance(0.1) ? w.rng.int(500, 4_000) : 0;
  // Some have a deadline a little after their due time by any leader's clock (one that retries
  // late may find it before its due time and be refused, naming the field: no answer then).
  const deliverBeforeMs =
    w.controls && w.rng.chance(0.15)
      ? SIM_EPOCH_MS + MAX_SKEW_MS + w.sched.nowMs + delayMs + w.rng.int(100, 2_500)
      : 0;
  let retrying = true;
  const stopRetrying = (): void => {
    if (retrying) w.publishing--;
    retrying = false;
  };
  w.publishing++;
  const attempt = (left: number, to: NodeId | undefined): void => {
    const node = pickNode(w, to);
    if (!node || left === 0 || !retrying) {
      stopRetrying();
      return;
    }
    const call = {
      key,
      invokedAtMs: w.sched.nowMs,
      ttlMs,
      delayMs,
      ...(deliverBeforeMs > 0 ? { deliverBeforeMs } : {}),
      ...(orderingKey ? { orderingKey } : {}),
    } as (typeof w.history.publishes)[number];
    w.history.publishes.push(call);
    w.publishing++;
    timed(
      w,
      () => {
        const p = publish(
          node.ctx,
          [
            {
              topic: TOPIC,
              payload: Buffer.from(key),
              key,
              delayMs,
              ttlMs,
              deliverBeforeMs,
              ...(orderingKey ? { orderingKey } : {}),
            },
          ],
          `p${n}`,
        );
        p.finally(() => w.publishing--).catch(() => undefined);
        return p;
      },
      (results) => {
        stopRetrying();
        const r = results[0]!;
        call.answeredAtMs = w.sched.nowMs;
        call.answer = { id: r.id, dueAtMs: r.dueAtMs, deduplicated: r.deduplicated };
        w.history.note(
          w.sched.nowMs,
          `publish ${key} -> #${r.id} due ${r.dueAtMs}${r.deduplicated ? ' dedup' : ''}`,
        );
      },
      (e) => {
        w.sched.at(
          w.rng.int(20, 200),
          () => `retry ${key}`,
          () => attempt(left - 1, leaderHint(e)),
        );
      },
    );
  };
  attempt(tries, hint);
}

/** A consumer: subscribes on the leader it finds, settles what it gets, reconnects when its stream ends. */
export class SimConsumer {
  private attached: { node: SimBrokerNode; consumer: Consumer } | undefined;
  private hint: NodeId | undefined;

  constructor(
    private readonly w: ClientWorld,
    readonly no: number,
    readonly topic: string = TOPIC,
  ) {}

  connect(): void {
    if (this.attached) return;
    const node = pickNode(this.w, this.hint);
    const retry = (): void =>
      this.w.sched.at(
        this.w.rng.int(100, 400),
        () => `c${this.no} reconnect`,
        () => this.connect(),
      );
    if (!node?.ctx.node.isLeader() || !node.ctx.dispatcher.isActive || node.ctx.stopping) {
      this.hint = node?.ctx.node.status().leader || undefined;
      retry();
      return;
    }
    const { dispatcher, reader, proposer } = node.ctx;
    const consumer: Consumer = {
      id: dispatcher.newConsumerId(),
      consumerId: 0n,
      queue: reader.queueHash(this.topic, DEFAULT_GROUP),
      topic: this.topic,
      group: DEFAULT_GROUP,
      window: 8,
      leaseMs: LEASE_MS,
      // Odd consumers hold deliveries sent ahead until their start (as the SDK does), even ones get them at the start.
      holdsAhead: this.no % 2 === 1,
      ...emptySlots(),
      ready: [],
      settles: { count: 0, previous: 0, sinceMs: proposer.nowMs() },
      early: heldAheadSchedule(),
      sink: {
        // The simulated stream's writes complete at once: the consumer reads everything.
        deliver: (deliveries, sent) => {
          const stamp = Math.max(node.ctx.sm.lastNowMs(), proposer.nowMs());
          for (const d of deliveries) {
            const rec = {
              ...(this.topic !== TOPIC ? { topic: this.topic } : {}),
              atMs: this.w.sched.nowMs,
              id: BigInt(String(d.id)),
              tag: hex(d.tag as Uint8Array),
              attempt: d.attempt ?? 0,
              dueAtMs: Number(d.dueAtMs ?? 0),
              sentLeaderMs: stamp,
              handoverLeaderMs: Math.max(stamp, Number(d.startsAtMs ?? 0)),
              leaseEndMs: Number(d.leaseExpiresAtMs ?? 0),
              node: node.id,
              consumer: this.no,
              ...(node.ctx.sm.deleting.topic(this.topic) ? { topicDeletingOnSender: true } : {}),
            };
            this.w.history.deliveries.push(rec);
            this.w.history.note(
              rec.atMs,
              `deliver #${rec.id} attempt ${rec.attempt} due ${rec.dueAtMs} at leader ${rec.handoverLeaderMs} on ${node.id} to c${this.no}`,
            );
            this.handle(node, rec.id, d.tag as Uint8Array, rec.handoverLeaderMs - stamp);
          }
          sent();
          return true;
        },
        close: () => {
          if (this.attached?.consumer === consumer) this.attached = undefined;
          retry();
        },
      },
    };
    this.attached = { node, consumer };
    dispatcher.addConsumer(consumer);
  }

  /** Goes away without a word: what it holds lapses. */
  vanish(): void {
    const a = this.attached;
    if (!a) return;
    this.attached = undefined;
    a.node.ctx.dispatcher.removeConsumer(a.consumer);
    this.w.sched.at(
      this.w.rng.int(500, 2_000),
      () => `c${this.no} returns`,
      () => this.connect(),
    );
  }

  /** Settles a delivery `holdMs` after it arrived (held until its lease starts) plus some work. */
  private handle(node: SimBrokerNode, id: bigint, tag: Uint8Array, holdMs: number): void {
    const w = this.w;
    const roll = w.calm ? 0 : w.rng.next();
    const later = holdMs + w.rng.int(5, 300);
    const act = (delayMs: number, kind: SettleCall['kind'], what: string = kind): void =>
      w.sched.at(
        delayMs,
        () => `c${this.no} ${what}`,
        () => this.settle(node, kind, id, tag),
      );
    if (roll < 0.65) act(later, 'ack');
    else if (roll < 0.73) act(later, 'nack');
    else if (roll < 0.81) act(later, 'extend');
    // Stalls past its lease, then acks the lapsed tag (while another consumer may hold the message).
    else if (roll < 0.95) act(holdMs + LEASE_MS + w.rng.int(50, 500), 'ack', 'late ack');
    else if (roll < 0.97)
      return; // stalls for good
    else this.vanish();
  }

  private settle(node: SimBrokerNode, kind: SettleCall['kind'], id: bigint, tag: Uint8Array): void {
    const w = this.w;
    const call: SettleCall = { kind, id, tag: hex(tag), invokedAtMs: w.sched.nowMs, outcome: 'unknown' };
    w.history.settles.push(call);
    try {
      requireLeader(node.ctx);
    } catch {
      call.outcome = 'error'; // refused before anything was proposed
      return;
    }
    const run = async (): Promise<{ status: string; newTag?: Uint8Array }> => {
      if (kind === 'ack') return (await ack(node.ctx, [tag]))[0]!;
      if (kind === 'nack') return nack(node.ctx, tag, w.rng.int(0, 1_000));
      return extend(node.ctx, tag, LEASE_MS);
    };
    timed(
      w,
      run,
      (o) => {
        call.answeredAtMs = w.sched.nowMs;
        call.outcome = o.status === 'ok' ? 'ok' : 'lease-expired';
        w.history.note(w.sched.nowMs, `${kind} #${id} tag ..${call.tag.slice(-20, -8)} -> ${call.outcome}`);
        if (kind === 'extend' && o.status === 'ok' && o.newTag) {
          const next = o.newTag;
          w.sched.at(
            w.rng.int(5, 300),
            () => `c${this.no} ack extended`,
            () => this.settle(node, 'ack', id, next),
          );
        }
      },
      () => undefined, // refused before proposing (not leader) throws from `run` itself: see below
    );
  }
}

/** Cancels or reschedules an acknowledged message, by id or by its key. */
export function control(
  w: ClientWorld,
  kind: 'cancel' | 'reschedule',
  id: bigint,
  key: string,
  hint?: NodeId,
): void {
  const node = pickNode(w, hint);
  if (!node) return;
  try {
    requireLeader(node.ctx);
  } catch {
    return; // refused before anything was proposed
  }
  const byKey = w.rng.chance(0.5);
  const target = byKey ? { key } : { id };
  const call = {
    kind,
    id,
    byKey,
    invokedAtMs: w.sched.nowMs,
    status: 'unknown',
  } as (typeof w.history.controls)[number];
  w.history.controls.push(call);
  const delayMs = w.rng.int(0, 2_000);
  timed(
    w,
    () => {
      return kind === 'cancel'
        ? node.ctx.proposer.run({ kind, topic: TOPIC, target })
        : node.ctx.proposer.run({ kind, topic: TOPIC, target, delayMs });
    },
    (r) => {
      call.answeredAtMs = w.sched.nowMs;
      if (r.kind === 'cancel' || r.kind === 'reschedule') {
        call.status = r.result.status;
        if (r.kind === 'reschedule' && r.result.dueAtMs !== undefined) call.dueAtMs = r.result.dueAtMs;
      }
      w.history.note(
        w.sched.nowMs,
        `${kind} #${id} ${byKey ? ` by key ${key}` : ''} -> ${call.status} ${call.dueAtMs ?? ''}`,
      );
    },
    () => undefined, // unknown: it may have been applied
  );
}

/**
 * Makes the simulation's topic order its groups by key (created so, or
 * updated if a publish created it first), retrying until answered; `done`
 * once it is. Messages carry ordering keys only from then on.
 */
export function orderTopic(w: ClientWorld, leader: () => SimBrokerNode | undefined, done: () => void): void {
  const retry = (): void =>
    w.sched.at(
      w.rng.int(100, 300),
      () => 'order topic',
      () => orderTopic(w, leader, done),
    );
  const node = leader();
  if (!node) {
    retry();
    return;
  }
  const { proposer } = node.ctx;
  timed(
    w,
    async () => {
      await proposer
        .run({ kind: 'create-topic', name: TOPIC, settings: { ordering: 'key' } })
        .catch(() => undefined);
      return proposer.run({
        kind: 'update-topic',
        name: TOPIC,
        settings: { ordering: 'key' },
        updateMask: ['ordering'],
      });
    },
    () => {
      w.history.note(w.sched.nowMs, `topic ${TOPIC} ordered by key`);
      done();
    },
    retry,
  );
}
