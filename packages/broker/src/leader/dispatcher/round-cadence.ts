/**
 * When lease rounds may start (RoundCadence): one cadence for every queue,
 * so that the queues whose entries come due at about the same time share a
 * round, and so a lease command (dispatcher.ts fills one per round from every
 * queue it leases for).
 */
import type { Clock } from '@fermata/base';

/**
 * Least time between two lease rounds for entries that are not urgent (due
 * later than `pushAheadMs`, or this, from now): with a look-ahead of
 * seconds, every ack that frees a slot or publish that adds an entry within
 * it would otherwise start a round of its own (a Raft round on every node for
 * a few entries). An urgent entry is leased at once.
 */
export const LEASE_ROUND_INTERVAL_MS = 25;

/**
 * The dispatcher's round cadence: a round for entries that are not urgent
 * starts at most once per LEASE_ROUND_INTERVAL_MS, over all queues together
 * (each queue that comes due meanwhile waits for the next one, and every
 * queue due then is read in it); a queue whose next entry is urgent goes at
 * once, and such a round does not move the cadence, so busy urgent queues
 * never hold the others back.
 */
export class RoundCadence {
  /** When the last round on the cadence started (monotonic clock). */
  private lastAtMs: number | undefined;

  constructor(private readonly clock: Pick<Clock, 'monotonicMs'>) {}

  /** Whether a round starting now is on the cadence (every queue due may join it). */
  open(): boolean {
    return this.lastAtMs === undefined || this.clock.monotonicMs() - this.lastAtMs >= LEASE_ROUND_INTERVAL_MS;
  }

  /** A round started now; on the cadence when `open()` said so before it. */
  started(onCadence: boolean): void {
    if (onCadence) this.lastAtMs = this.clock.monotonicMs();
  }

  /**
   * The earliest time (on the wall clock of `nowMs`) a round may lease a
   * queue whose next entry is due at `nextDueMs`: now when the cadence is
   * open or the entry is urgent (due within `pushAheadMs`, at least the
   * interval, of then), else when the cadence opens.
   */
  allowedAtMs(nowMs: number, nextDueMs: number | undefined, pushAheadMs: number): number {
    const last = this.lastAtMs;
    const wait = last === undefined ? 0 : last + LEASE_ROUND_INTERVAL_MS - this.clock.monotonicMs();
    if (wait <= 0) return nowMs;
    // With a push-ahead shorter than the interval, an entry due within the interval is urgent too.
    const urgentAt = (nextDueMs ?? Number.POSITIVE_INFINITY) - Math.max(pushAheadMs, LEASE_ROUND_INTERVAL_MS);
    return Math.max(nowMs, Math.min(nowMs + wait, urgentAt));
  }

  /** Leadership lost: the next round starts the cadence again. */
  reset(): void {
    this.lastAtMs = undefined;
  }
}
