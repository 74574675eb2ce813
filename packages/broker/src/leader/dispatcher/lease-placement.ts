/**
 * Where a leased delivery goes and when it is sent: to the consumer its lease
 * was taken for, to another consumer of the queue with a free slot when that
 * one left, or back to the queue (handed back uncounted) when none has one;
 * ready at once, or scheduled for its send time. The dispatcher owns the
 * state this acts on (who holds each tag, the push schedule, the consumers)
 * and hands it in.
 */
import type { pb } from '@fermata/protocol';
import { numberAsInt64, uint64ForWire } from '@fermata/protocol';
import { tagKeyOf } from '../../keys.js';
import type { BodyRec } from '../../state/model/records.js';
import type { EntryView } from '../../state/read/reader.js';
import { headersOf } from '../dead-letter-headers.js';
import type { Consumer, Push } from './consumer.js';
import type { ConsumerRegistry } from './consumer-registry.js';
import type { PushSchedule } from './push-schedule.js';

/**
 * Sends ahead are grouped on this grid: a delivery for a consumer that holds
 * is sent at its lease start - pushAheadMs, rounded down to a multiple of a
 * granule (a quarter of pushAheadMs, at most this), so that the deliveries of
 * one granule share one stream message and one timer instead of one each per
 * millisecond. The consumer holds them until their start either way.
 */
export const MAX_PUSH_GRANULE_MS = 20;

/** The send time of a delivery sent ahead: `pushAheadMs` before its start, on the granule grid. */
export function pushAtMs(startsAtMs: number, pushAheadMs: number): number {
  const granule = Math.min(MAX_PUSH_GRANULE_MS, Math.floor(pushAheadMs / 4));
  const at = startsAtMs - pushAheadMs;
  return granule > 1 ? at - (((at % granule) + granule) % granule) : at;
}

/** What a delivery says of its lease. */
export interface LeaseShape {
  readonly attempt: number;
  /** The topic's maxAttempts when it was leased (0 = unknown). */
  readonly maxAttempts: number;
  readonly leaseEndMs: number;
  readonly startsAtMs: number;
  /**
   * A rate or in-flight limit of its group held it back past its due time
   * (limits.ts): its lateness counts from its lease's start, when the limit
   * let it go, so the broker's own lateness is not mixed with throttling.
   */
  readonly throttled?: boolean;
}

/** One entry a lease command leased, with what its delivery carries. */
export interface LeasedDelivery {
  /** Its delivery tag. */
  readonly tag: Uint8Array;
  readonly body: BodyRec;
  /** The entry as the lease round read it. */
  readonly entry: EntryView;
  readonly lease: LeaseShape;
}

/** The dispatcher's state a placement acts on. */
export interface PlacementParts {
  readonly registry: ConsumerRegistry<bigint, Consumer>;
  /** Delivery tag (`tagKeyOf`) -> the consumer holding it (pushed, or waiting in the schedule). */
  readonly owners: Map<string, Consumer>;
  /** Leased deliveries waiting for their send time. */
  readonly schedule: PushSchedule<Consumer, pb.Delivery.$Properties>;
  /** Consumers whose streams ended. */
  readonly departed: WeakSet<Consumer>;
  readonly pushAheadMs: number;
  /** A delivery's body is loaded and waits to be written (the node's buffer counts it). */
  load(tagKey: string, bytes: number): void;
  /** The delivery was written, or dropped. */
  unload(tagKey: string): void;
  /** Hands a leased delivery nobody got back to the queue. */
  handBack(tagKey: string): void;
}

export class LeasePlacement {
  constructor(private readonly parts: PlacementParts) {}

  /**
   * Places the deliveries of one lease command taken for `consumer`, in
   * order: each goes to it, or, once it left or while it refuses, to another
   * consumer of the queue with a free slot, or back to the queue. Returns the consumers with
   * deliveries ready now (the caller drains them).
   */
  placeLeased(
    consumer: Consumer,
    q: bigint,
    leased: readonly LeasedDelivery[],
    nowMs: number,
  ): Set<Consumer> {
    const { departed, registry } = this.parts;
    const touched = new Set<Consumer>();
    for (const { tag, body, entry, lease } of leased) {
      const target =
        departed.has(consumer) || consumer.refusing === true ? registry.assign(q, 1)[0]?.consumer : consumer;
      if (!target) {
        // Its consumer left and nobody else has room: hand it back.
        this.parts.handBack(tagKeyOf(tag));
        continue;
      }
      if (this.promise(target, q, tag, body, entry, lease, nowMs)) touched.add(target);
    }
    return touched;
  }

  /**
   * Promises a leased delivery to `target`: ready now (returns true: drain the
   * consumer), or scheduled for its send time (`pushAheadMs` before its start
   * for a consumer that holds, its start otherwise).
   */
  promise(
    target: Consumer,
    q: bigint,
    tag: Uint8Array,
    body: BodyRec,
    entry: EntryView,
    lease: LeaseShape,
    nowMs: number,
  ): boolean {
    const { leaseEndMs, startsAtMs } = lease;
    const tagKey = tagKeyOf(tag);
    target.reserved++;
    this.parts.owners.set(tagKey, target);
    this.parts.load(tagKey, body.payload.length);
    const delivery = toDelivery(target, tag, body, entry, lease);
    // A lease that ran out is redelivered at once; its lateness counts from when it came due.
    const lateFromMs = lease.throttled ? startsAtMs : Math.min(startsAtMs, entry.dueAtMs);
    const atMs = target.holdsAhead ? pushAtMs(startsAtMs, this.parts.pushAheadMs) : startsAtMs;
    const item: Push = {
      tagKey,
      atMs,
      startsAtMs,
      lateFromMs,
      queue: q,
      delivery,
      consumer: target,
      leaseEndMs,
    };
    if (atMs <= nowMs) {
      target.ready.push(item);
      return true;
    }
    this.parts.schedule.add(item);
    return false;
  }

  /**
   * The deliveries promised to a consumer that left, not yet pushed (its
   * slots already given back): each goes to another consumer of its queue
   * with a free slot, or back to the queue. Returns the consumers given
   * deliveries that are ready now.
   */
  replace(waiting: readonly Push[]): Set<Consumer> {
    const { registry, schedule, owners } = this.parts;
    const refilled = new Set<Consumer>();
    for (const item of waiting) {
      const [share] = registry.assign(item.queue, 1);
      if (!share) {
        schedule.remove(item.tagKey);
        owners.delete(item.tagKey);
        this.parts.unload(item.tagKey);
        this.parts.handBack(item.tagKey);
        continue;
      }
      item.consumer = share.consumer;
      share.consumer.reserved++;
      owners.set(item.tagKey, share.consumer);
      if (!schedule.has(item.tagKey)) {
        share.consumer.ready.push(item);
        refilled.add(share.consumer);
      }
    }
    return refilled;
  }
}

function toDelivery(
  consumer: Consumer,
  tag: Uint8Array,
  body: BodyRec,
  entry: EntryView,
  lease: LeaseShape,
): pb.Delivery.$Properties {
  // One literal with every field (`startsAtMs` is set when it is sent); int64s as plain numbers
  // (protobufjs writes them byte for byte as Longs), the headers as decoded: encoding only reads
  // them, and a body without headers shares one frozen empty object (never write to it).
  return {
    tag,
    id: uint64ForWire(body.id),
    topic: consumer.topic,
    group: consumer.group,
    payload: body.payload,
    headers: headersOf(body) as { [name: string]: string },
    key: body.key,
    dueAtMs: numberAsInt64(entry.dueAtMs),
    enqueuedAtMs: numberAsInt64(body.enqueuedAtMs),
    attempt: lease.attempt,
    leaseExpiresAtMs: numberAsInt64(lease.leaseEndMs),
    startsAtMs: null,
    maxAttempts: lease.maxAttempts,
  };
}
