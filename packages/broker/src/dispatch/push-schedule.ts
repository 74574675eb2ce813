/**
 * Deliveries leased ahead of their due time, waiting on the leader for the due
 * millisecond: a min-heap by push time with removal by tag. Pure bookkeeping
 * (no timers): the dispatcher takes what is due and arms its one timer for
 * `nextAtMs`.
 */
export interface ScheduledPush<C, D> {
  readonly tagKey: string;
  readonly atMs: number;
  readonly queue: bigint;
  readonly delivery: D;
  /** Who gets it; reassigned when its consumer leaves before the due time. */
  consumer: C;
}

export class PushSchedule<C, D> {
  private readonly heap: ScheduledPush<C, D>[] = [];
  private readonly byTag = new Map<string, ScheduledPush<C, D>>();

  get size(): number {
    return this.byTag.size;
  }

  add(item: ScheduledPush<C, D>): void {
    this.byTag.set(item.tagKey, item);
    this.heap.push(item);
    this.up(this.heap.length - 1);
  }

  has(tagKey: string): boolean {
    return this.byTag.has(tagKey);
  }

  /** Forgets a tag; returns the item it named. The heap slot is dropped lazily. */
  remove(tagKey: string): ScheduledPush<C, D> | undefined {
    const item = this.byTag.get(tagKey);
    if (item) this.byTag.delete(tagKey);
    return item;
  }

  /** Push time of the earliest live item. */
  nextAtMs(): number | undefined {
    this.dropDead();
    return this.heap[0]?.atMs;
  }

  /** Removes and returns every live item with atMs <= nowMs, earliest first. */
  takeDue(nowMs: number): ScheduledPush<C, D>[] {
    const out: ScheduledPush<C, D>[] = [];
    for (;;) {
      this.dropDead();
      const top = this.heap[0];
      if (!top || top.atMs > nowMs) return out;
      this.pop();
      this.byTag.delete(top.tagKey);
      out.push(top);
    }
  }

  /** Live items held for `consumer`. */
  heldFor(consumer: C): ScheduledPush<C, D>[] {
    const out: ScheduledPush<C, D>[] = [];
    for (const item of this.byTag.values()) if (item.consumer === consumer) out.push(item);
    return out;
  }

  clear(): void {
    this.heap.length = 0;
    this.byTag.clear();
  }

  private dropDead(): void {
    while (this.heap.length > 0 && this.byTag.get(this.heap[0]!.tagKey) !== this.heap[0]) this.pop();
  }

  private pop(): void {
    const last = this.heap.pop()!;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.down(0);
    }
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (h[p]!.atMs <= h[i]!.atMs) return;
      [h[p], h[i]] = [h[i]!, h[p]!];
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && h[l]!.atMs < h[m]!.atMs) m = l;
      if (r < h.length && h[r]!.atMs < h[m]!.atMs) m = r;
      if (m === i) return;
      [h[m], h[i]] = [h[i]!, h[m]!];
      i = m;
    }
  }
}
