import { DueHeap } from './due-heap.js';

/**
 * Deliveries leased ahead of their due time, waiting on the leader for the due
 * millisecond: an indexed min-heap by push time (DueHeap keyed by tag) with
 * the items beside it. Pure bookkeeping (no timers): the dispatcher takes what
 * is due and arms its one timer for `nextAtMs`.
 */
export interface ScheduledPush<C, D> {
  readonly tagKey: string;
  /** When to send it. */
  readonly atMs: number;
  readonly queue: bigint;
  readonly delivery: D;
  /** Who gets it; reassigned when its consumer leaves before the due time. */
  consumer: C;
}

export class PushSchedule<C, D> {
  private readonly heap = new DueHeap<string>();
  private readonly byTag = new Map<string, ScheduledPush<C, D>>();

  get size(): number {
    return this.byTag.size;
  }

  add(item: ScheduledPush<C, D>): void {
    this.byTag.set(item.tagKey, item);
    this.heap.set(item.tagKey, item.atMs);
  }

  has(tagKey: string): boolean {
    return this.byTag.has(tagKey);
  }

  /** Forgets a tag; returns the item it named. */
  remove(tagKey: string): ScheduledPush<C, D> | undefined {
    const item = this.byTag.get(tagKey);
    if (!item) return undefined;
    this.byTag.delete(tagKey);
    this.heap.delete(tagKey);
    return item;
  }

  /** Push time of the earliest item. */
  nextAtMs(): number | undefined {
    return this.heap.peek()?.dueMs;
  }

  /** Removes and returns every item with atMs <= nowMs, earliest first. */
  takeDue(nowMs: number): ScheduledPush<C, D>[] {
    const out: ScheduledPush<C, D>[] = [];
    for (let top = this.heap.peek(); top && top.dueMs <= nowMs; top = this.heap.peek()) {
      out.push(this.remove(top.queue)!);
    }
    return out;
  }

  /** Items held for `consumer`. */
  heldFor(consumer: C): ScheduledPush<C, D>[] {
    const out: ScheduledPush<C, D>[] = [];
    for (const item of this.byTag.values()) if (item.consumer === consumer) out.push(item);
    return out;
  }

  clear(): void {
    this.heap.clear();
    this.byTag.clear();
  }
}
