/**
 * Deliveries the server sent ahead of their lease start (`Delivery.starts_in_ms`),
 * held until that moment and then released in start order, never earlier: Node
 * timers run on a cached loop clock and can fire a little early, so the one
 * timer re-arms until `Date.now()` reaches the earliest release time.
 */
export class Hold<T> {
  /** Sorted by `atMs` (arrivals are nearly in order: insertion searches from the back). */
  private items: { atMs: number; value: T }[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAtMs = Number.POSITIVE_INFINITY;

  constructor(private readonly onRelease: (values: T[]) => void) {}

  get size(): number {
    return this.items.length - this.head;
  }

  /** Holds `value` until `atMs` (epoch ms, local clock). */
  add(value: T, atMs: number): void {
    let at = this.items.length;
    while (at > this.head && this.items[at - 1]!.atMs > atMs) at--;
    this.items.splice(at, 0, { atMs, value });
    if (atMs < this.timerAtMs) this.arm(atMs);
  }

  /** Removes and returns everything held (closing, or the stream ended). */
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
    this.timer = setTimeout(() => this.fire(), Math.max(0, atMs - Date.now()));
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAtMs = Number.POSITIVE_INFINITY;
  }

  private fire(): void {
    this.timer = undefined;
    this.timerAtMs = Number.POSITIVE_INFINITY;
    const now = Date.now();
    const out: T[] = [];
    while (this.head < this.items.length && this.items[this.head]!.atMs <= now) {
      out.push(this.items[this.head++]!.value);
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
