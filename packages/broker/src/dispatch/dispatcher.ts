import type { pb } from '@fermata/protocol';
import { toInt64, toUint64 } from '@fermata/protocol';
import type { Logger } from 'pino';
import type { BrokerMetrics } from '../server/metrics.js';
import type { Proposer } from '../server/proposer.js';
import type { BrokerReader, EntryView } from '../state/reader.js';
import type { BodyRec } from '../state/records.js';
import { ConsumerRegistry, type ConsumerSlotHolder } from './consumer-registry.js';
import { DueHeap } from './due-heap.js';

/** Where a consumer's deliveries go: its gRPC stream. */
export interface DeliverySink {
  deliver(deliveries: pb.Delivery.$Properties[]): void;
  /** Ends the stream with a status (leadership lost, shutdown). */
  close(error: unknown): void;
}

export interface Consumer extends ConsumerSlotHolder<bigint> {
  readonly topic: string;
  readonly group: string;
  readonly leaseMs: number;
  readonly sink: DeliverySink;
}

export interface DispatcherOptions {
  readonly reader: BrokerReader;
  readonly proposer: Proposer;
  readonly metrics: BrokerMetrics;
  readonly log: Logger;
  /** Most entries leased in one Raft command. */
  readonly maxLeaseBatch: number;
}

/** Pause before a queue is tried again after a failed lease round. */
export const LEASE_RETRY_PAUSE_MS = 100;

const hex = (tag: Uint8Array): string =>
  Buffer.from(tag.buffer, tag.byteOffset, tag.byteLength).toString('hex');

/**
 * The leader's dispatcher (DESIGN.md, "Delivery"). It keeps the next due time
 * of every queue in a heap rebuilt from the store when this node becomes
 * leader, sets one timer for the earliest due time among queues that have a
 * consumer with free credit, and at that millisecond leases the due entries
 * through Raft (one Lease command per consumer share) and pushes them after
 * apply. An entry is leased only once its due time has passed by the leader's
 * clock, so nothing is delivered early. In-flight leases live in the same time
 * index (due = lease end), so a lapsed lease is just an entry that is due again.
 */
export class Dispatcher {
  private readonly heap = new DueHeap<bigint>();
  private readonly registry = new ConsumerRegistry<bigint, Consumer>();
  /** Delivery tag (hex) -> the consumer holding it. */
  private readonly owners = new Map<string, Consumer>();
  /** Queues with a Lease round in progress: never read twice before the first is applied. */
  private readonly leasing = new Set<bigint>();
  private active = false;
  private pumping = false;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private timerAtMs = Number.POSITIVE_INFINITY;
  private epoch = 0;
  private nextConsumerId = 1;

  constructor(private readonly options: DispatcherOptions) {}

  get isActive(): boolean {
    return this.active;
  }

  newConsumerId(): number {
    return this.nextConsumerId++;
  }

  /** This node became leader: rebuild the heap from the store and start. */
  async start(): Promise<void> {
    const epoch = ++this.epoch;
    this.heap.clear();
    const queues = await this.options.reader.listQueues();
    const dues = await Promise.all(queues.map((q) => this.options.reader.nextDueMs(q.queueHash)));
    if (epoch !== this.epoch) return;
    queues.forEach((q, i) => {
      const due = dues[i];
      if (due !== undefined) this.heap.set(q.queueHash, due);
    });
    this.active = true;
    this.options.log.info({ queues: queues.length, pending: this.heap.size }, 'dispatcher started');
    this.wake();
  }

  /**
   * Stops dispatching at once (leadership lost) but keeps the consumer streams
   * open, so that `stop` can end them naming the new leader once it is known.
   */
  halt(): void {
    this.epoch++;
    this.active = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAtMs = Number.POSITIVE_INFINITY;
    this.heap.clear();
    this.leasing.clear();
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

  addConsumer(consumer: Consumer): void {
    this.registry.add(consumer);
    this.wake();
  }

  removeConsumer(consumer: Consumer): void {
    this.registry.remove(consumer);
    for (const tag of consumer.inFlight.keys()) this.owners.delete(tag);
    consumer.inFlight.clear();
  }

  setWindow(consumer: Consumer, window: number): void {
    consumer.window = window;
    this.wake();
  }

  /** An entry of `queueHash` became due at `dueMs` (publish, nack, reschedule). */
  noteDue(queueHash: bigint, dueMs: number): void {
    if (!this.active) return;
    this.heap.lower(queueHash, dueMs);
    this.wake();
  }

  /** A tag was acked or nacked (its slot frees), or extended (`next` replaces it). */
  settled(tag: Uint8Array, next?: { tag: Uint8Array; leaseEndMs: number }): void {
    const key = hex(tag);
    const owner = this.owners.get(key);
    if (!owner) return;
    this.owners.delete(key);
    ConsumerRegistry.settled(owner, key);
    if (next) {
      const nextKey = hex(next.tag);
      ConsumerRegistry.delivered(owner, nextKey, next.leaseEndMs);
      this.owners.set(nextKey, owner);
    }
    this.wake();
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

  private pump(): void {
    try {
      do {
        this.again = false;
        if (!this.active) return;
        const now = this.options.proposer.nowMs();
        for (const q of this.registry.queues()) {
          for (const c of this.registry.consumers(q)) {
            if (c.inFlight.size > 0) this.lapse(c, now);
          }
        }
        for (const q of this.heap.dueBy(now)) {
          if (this.leasing.has(q)) continue;
          const credit = this.registry.credit(q);
          if (credit === 0) continue;
          this.leasing.add(q);
          const epoch = this.epoch;
          void this.leaseQueue(q, now, Math.min(credit, this.options.maxLeaseBatch), epoch).then(
            () => this.leaseRoundDone(q, epoch),
            (error: unknown) => {
              if (epoch !== this.epoch) return;
              this.options.log.warn({ err: String(error) }, 'lease round failed; retrying after a pause');
              // A failed round (typically: leadership is being lost) must not retry in a
              // microtask loop, which would starve the Raft loop that reports the loss.
              setTimeout(() => this.leaseRoundDone(q, epoch), LEASE_RETRY_PAUSE_MS).unref();
            },
          );
        }
      } while (this.again);
    } finally {
      this.pumping = false;
    }
    this.arm();
  }

  private leaseRoundDone(q: bigint, epoch: number): void {
    if (epoch !== this.epoch) return;
    this.leasing.delete(q);
    this.wake();
  }

  private lapse(c: Consumer, now: number): void {
    for (const [tag, end] of c.inFlight) {
      if (end <= now) {
        c.inFlight.delete(tag);
        this.owners.delete(tag);
      }
    }
  }

  /** One timer, at the earliest moment something can be delivered or a slot frees. */
  private arm(): void {
    if (!this.active) return;
    let at = Number.POSITIVE_INFINITY;
    for (const q of this.registry.queues()) {
      for (const c of this.registry.consumers(q)) {
        const lapse = ConsumerRegistry.nextLapse(c);
        if (lapse !== undefined && lapse < at) at = lapse;
      }
      if (this.leasing.has(q) || this.registry.credit(q) === 0) continue;
      const due = this.heap.get(q);
      if (due !== undefined && due < at) at = due;
    }
    if (at === this.timerAtMs && this.timer) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAtMs = at;
    if (at === Number.POSITIVE_INFINITY) return;
    const fire = (): void => {
      // Node timers run on a cached loop clock and can fire a little early: re-arm until due.
      const left = this.timerAtMs - Date.now();
      if (left > 0) {
        this.timer = setTimeout(fire, left);
        return;
      }
      this.timer = undefined;
      this.timerAtMs = Number.POSITIVE_INFINITY;
      this.wake();
    };
    this.timer = setTimeout(fire, Math.max(0, at - Date.now()));
  }

  private async leaseQueue(q: bigint, now: number, limit: number, epoch: number): Promise<void> {
    const { reader } = this.options;
    const consumers = this.registry.consumers(q);
    const first = consumers[0];
    if (!first) return;
    const topic = await reader.getTopic(first.topic);
    if (!topic) return;
    const entries = await reader.dueEntries(q, topic.settings.timeBucketMs, now, limit);
    if (epoch !== this.epoch) return;
    if (entries.length > 0) {
      const shares = this.registry.assign(q, entries.length);
      let at = 0;
      await Promise.all(
        shares.map((share) => {
          const part = entries.slice(at, at + share.count);
          at += share.count;
          return this.leaseTo(share.consumer, part, epoch);
        }),
      );
    }
    if (epoch !== this.epoch) return;
    const next = await reader.nextDueMs(q);
    if (epoch !== this.epoch) return;
    if (next === undefined) this.heap.delete(q);
    else this.heap.set(q, next);
  }

  private async leaseTo(consumer: Consumer, entries: readonly EntryView[], epoch: number): Promise<void> {
    const { proposer, reader, metrics } = this.options;
    const firstId = proposer.reserveIds(entries.length);
    const result = await proposer.run({
      kind: 'lease',
      topic: consumer.topic,
      group: consumer.group,
      tags: entries.map((e) => e.tag),
      leaseMs: consumer.leaseMs,
      firstId,
      idCount: entries.length,
    });
    if (result.kind !== 'lease' || epoch !== this.epoch) return;
    const leased = result.outcomes.filter((o) => o.status === 'leased');
    for (const o of result.outcomes) {
      if (o.status === 'dead-lettered' || o.status === 'dropped')
        metrics.deadLetters.inc({ topic: consumer.topic });
    }
    if (leased.length === 0) return;
    const bodies = await reader.getBodies(leased.map((o) => o.id!));
    const byTag = new Map(entries.map((e) => [hex(e.tag), e]));
    const pushedAt = Date.now();
    const deliveries: pb.Delivery.$Properties[] = [];
    leased.forEach((o, i) => {
      const body = bodies[i];
      const entry = byTag.get(hex(o.tag));
      if (!body || !entry || !o.newTag) return;
      const tagKey = hex(o.newTag);
      ConsumerRegistry.delivered(consumer, tagKey, o.leaseExpiresAtMs!);
      this.owners.set(tagKey, consumer);
      deliveries.push(toDelivery(consumer, o.newTag, body, entry, o.attempt ?? 1, o.leaseExpiresAtMs!));
      metrics.deliveryLatenessMs.observe(Math.max(0, pushedAt - entry.dueAtMs));
    });
    if (deliveries.length === 0) return;
    metrics.deliveries.inc({ topic: consumer.topic }, deliveries.length);
    consumer.sink.deliver(deliveries);
  }
}

function toDelivery(
  consumer: Consumer,
  tag: Uint8Array,
  body: BodyRec,
  entry: EntryView,
  attempt: number,
  leaseEndMs: number,
): pb.Delivery.$Properties {
  return {
    tag,
    id: toUint64(body.id),
    topic: consumer.topic,
    group: consumer.group,
    payload: body.payload,
    headers: { ...body.headers },
    key: body.key,
    dueAtMs: toInt64(BigInt(entry.dueAtMs)),
    enqueuedAtMs: toInt64(BigInt(body.enqueuedAtMs)),
    attempt,
    leaseExpiresAtMs: toInt64(BigInt(leaseEndMs)),
  };
}
