/**
 * A consumer stream as the dispatcher sees it: its queue and slots
 * (consumer-registry.ts), where its deliveries go, and the leased deliveries
 * waiting for it.
 */
import type { pb } from '@fermata/protocol';
import type { ConsumerSlotHolder } from './consumer-registry.js';
import { PushSchedule, type ScheduledPush } from './push-schedule.js';

/** Where a consumer's deliveries go: its gRPC stream. */
export interface DeliverySink {
  /**
   * Whether the node may hold a delivery of `bytes` more of payload, after
   * `pendingBytes` of the batch being built, written to streams and not yet
   * sent (its buffer for all streams together); absent = always.
   */
  accepts?(pendingBytes: number, bytes: number): boolean;
  /**
   * Writes one batch, stamped with the leader's clock (`sent_at_ms`), and
   * calls `sent` once the write completed (HTTP/2 flow control let it out:
   * the client is reading). Returns false when the stream's buffer is full:
   * nothing more is written until the stream reports `Dispatcher.drained`.
   */
  deliver(deliveries: pb.Delivery.$Properties[], sent: () => void): boolean;
  /** Ends the stream with a status (leadership lost, shutdown). */
  close(error: unknown): void;
}

export interface Consumer extends ConsumerSlotHolder<bigint> {
  readonly topic: string;
  readonly group: string;
  /** Names the consumer across its streams (`Subscribe.consumer_id`); 0n = none. Its leases carry it. */
  readonly consumerId: bigint;
  readonly leaseMs: number;
  /** It holds deliveries sent ahead until their start (Subscribe.holds_ahead): only then are they sent early. */
  readonly holdsAhead: boolean;
  /**
   * False: nothing is leased for it beyond its free slots (a push group's
   * endpoint: it takes no lease it cannot send at once). Absent = true.
   */
  readonly leasesAhead?: boolean;
  /**
   * It takes nothing now (a push group's endpoint that is down, or whose
   * secret or CA file cannot be read): what is leased for it goes to another
   * consumer of the queue with a free slot, or back to the queue uncounted
   * (`Dispatcher.handBackWaiting`). Absent = false.
   */
  refusing?: boolean;
  readonly sink: DeliverySink;
  /** Leased deliveries whose due time has come, waiting for a free slot (FIFO). */
  readonly ready: Push[];
  /** Settles (acks, nacks) counted per look-ahead period: the basis of `ahead`. */
  readonly settles: { count: number; previous: number; sinceMs: number };
  /**
   * Deliveries sent ahead whose lease has not started, by start time: held by
   * the consumer, not its application's yet, so they do not count against
   * the window (at most a window of them).
   */
  readonly early: PushSchedule<Consumer, pb.Delivery.$Properties, Push>;
}

/** A consumer's `early` set: deliveries sent ahead, ordered by when their leases start. */
export function heldAheadSchedule(): PushSchedule<Consumer, pb.Delivery.$Properties, Push> {
  return new PushSchedule<Consumer, pb.Delivery.$Properties, Push>((item) => item.startsAtMs);
}

export type Push = ScheduledPush<Consumer, pb.Delivery.$Properties> & {
  /** When the lease starts: the consumer hands the delivery over then, never earlier. */
  readonly startsAtMs: number;
  /** Lateness of the send counts from here (the due time; for a lapsed lease, when it lapsed). */
  readonly lateFromMs: number;
  readonly leaseEndMs: number;
};
