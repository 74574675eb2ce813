import { performance } from 'node:perf_hooks';

/** What a released slot below `head` holds. */
const RELEASED = { atMs: Number.NEGATIVE_INFINITY, value: undefined as never };

/**
 * Deliveries the server sent ahead of their lease start (`Delivery.starts_at_ms`),
 * held until that moment and then released in start order, never earlier.
 *
 * The start is a time on the leader's clock. Each batch carries the leader's
 * clock when it was written (`sent_at_ms`), so `arrival - sent_at` (arrival on
 * this process's monotonic clock) is the clock offset plus that batch's
 * transit, and never less than the offset. The smallest such value seen over
 * the last few seconds (`TransitFloor`) is therefore an offset that is never
 * too small, and late only by the fastest recent transit: a delivery is
 * released at `starts_at + floor` on the monotonic clock. A batch delayed on
 * the way (the leader's loop busy, the network, this process busy) is still
 * released on time if it arrives before its start. Releases run on one timer
 * that re-arms until the monotonic clock reaches the earliest release time
 * (Node timers can fire a little early).
 */
export class Hold<T> {
  /** Sorted by `atMs` (arrivals are nearly in order: insertion searches from the back); released below `head`. */
  private items: { atMs: number; value: T }[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAtMs = Number.POSITIVE_INFINITY;

  constructor(private readonly onRelease: (values: T[]) => void) {}

  get size(): number {
    return this.items.length - this.head;
  }

  /** Holds `value` until `atMs` on the monotonic clock (`performance.now()`). */
  add(value: T, atMs: number): void {
    let at = this.items.length;
    while (at > this.head && this.items[at - 1]!.atMs > atMs) at--;
    this.items.splice(at, 0, { atMs, value });
    if (atMs < this.timerAtMs) this.arm(atMs);
  }

  /** Everything held, in release order. */
  values(): T[] {
    return this.items.slice(this.head).map((i) => i.value);
  }

  /** Drops the values `drop` picks (their leases were not carried over to a new stream). */
  removeWhere(drop: (value: T) => boolean): void {
    const kept = this.items.slice(this.head).filter((i) => !drop(i.value));
    if (kept.length === this.size) return;
    this.items = kept;
    this.head = 0;
    if (kept.length === 0) this.disarm();
    else this.arm(kept[0]!.atMs);
  }

  /** Removes and returns everything held (closing, or the stream failed for good). */
  takeAll(): T[] {
    const out = this.items.slice(this.head).map((i) => i.value);
    this.items = [];
    this.head = 0;
    this.disarm();
    return out;
  }

  private arm(atMs: number): void {
    this.disarm();
    this.timerAtMs = atMs;
    this.timer = setTimeout(() => this.fire(), Math.max(0, Math.ceil(atMs - performance.now())));
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAtMs = Number.POSITIVE_INFINITY;
  }

  private fire(): void {
    this.timer = undefined;
    this.timerAtMs = Number.POSITIVE_INFINITY;
    const now = performance.now();
    const out: T[] = [];
    while (this.head < this.items.length && this.items[this.head]!.atMs <= now) {
      const item = this.items[this.head]!;
      out.push(item.value);
      // Released: the slot must not keep the value alive until the array is compacted (a
      // delivery kept a few hundred ms longer survives young-generation collections and is
      // promoted, which makes each scavenge copy more and pause this process longer).
      this.items[this.head++] = RELEASED;
    }
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    const next = this.items[this.head];
    if (next) this.arm(next.atMs);
    if (out.length > 0) this.onRelease(out);
  }
}

/**
 * The smallest `arrival (monotonic) - sent_at (leader's clock)` of the batches
 * of the last `windowMs` to `2 x windowMs` (two buckets): the leader's clock
 * mapped onto the monotonic clock, late by the fastest recent transit and never
 * early while the leader's clock runs at the monotonic clock's rate. Kept
 * short so that a drifting clock moves it by microseconds; reset per stream
 * (a new stream may reach another leader, with another clock).
 */
export class TransitFloor {
  private current = Number.POSITIVE_INFINITY;
  private previous = Number.POSITIVE_INFINITY;
  private bucketStartMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly windowMs = 2_000) {}

  /** Records a batch sent at `sentAtMs` (leader) that arrived at `arrivalMs` (monotonic); returns the floor. */
  observe(sentAtMs: number, arrivalMs: number): number {
    if (arrivalMs - this.bucketStartMs >= this.windowMs) {
      this.previous =
        arrivalMs - this.bucketStartMs < 2 * this.windowMs ? this.current : Number.POSITIVE_INFINITY;
      this.current = Number.POSITIVE_INFINITY;
      this.bucketStartMs = arrivalMs;
    }
    const offset = arrivalMs - sentAtMs;
    if (offset < this.current) this.current = offset;
    return Math.min(this.current, this.previous);
  }

  reset(): void {
    this.current = Number.POSITIVE_INFINITY;
    this.previous = Number.POSITIVE_INFINITY;
    this.bucketStartMs = Number.NEGATIVE_INFINITY;
  }
}
