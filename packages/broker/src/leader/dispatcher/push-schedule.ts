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

export class PushSchedule<C, D, P extends ScheduledPush<C, D> = ScheduledPush<C, D>> {
  private readonly heap = new DueHeap<string>();
  private readonly byTag = new Map<string, P>();

  /** `timeOf`: the time an item is ordered and taken by (default: when to send it). */
  constructor(private readonly timeOf: (item: P) => number = (item) => item.atMs) {}

  get size(): number {
    return this.byTag.size;
  }

  add(item: P): void {
    this.byTag.set(item.tagKey, item);
    this.heap.set(item.tagKey, this.timeOf(item));
  }

  has(tagKey: string): boolean {
    return this.byTag.has(tagKey);
  }

  /** Forgets a tag; returns the item it named. */
  remove(tagKey: string): P | undefined {
    const item = this.byTag.get(tagKey);
    if (!item) return undefined;
    this.byTag.delete(tagKey);
    this.heap.delete(tagKey);
    return item;
  }

  /** Time of the earliest item. */
  nextAtMs(): number | undefined {
    return this.heap.peek()?.dueMs;
  }

  /** Removes and returns every item whose time is <= nowMs, earliest first. */
  takeDue(nowMs: number): P[] {
    const out: P[] = [];
    for (let top = this.heap.peek(); top && top.dueMs <= nowMs; top = this.heap.peek()) {
      out.push(this.remove(top.queue)!);
    }
    return out;
  }

  /** Items held for `consumer`. */
  heldFor(consumer: C): P[] {
    const out: P[] = [];
    for (const item of this.byTag.values()) if (item.consumer === consumer) out.push(item);
    return out;
  }

  clear(): void {
    this.heap.clear();
    this.byTag.clear();
  }
}
