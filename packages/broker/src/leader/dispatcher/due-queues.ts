/**
 * The next due time of every queue the dispatcher knows of, split so that a
 * dispatch round looks only at queues that can be leased for: the heap holds
 * the queues with consumers, and a queue met there without one is parked
 * (a map, looked at by no round) until a consumer of it subscribes. A round
 * walks the heap's queues due within the look-ahead and nothing else
 * (`dueBy`, `firstAfter`): a queue with nothing due, or no consumer, costs
 * no round anything.
 */
import { DueHeap } from './due-heap.js';

export class DueQueues {
  private readonly heap = new DueHeap<bigint>();
  /** Queues with a due time and no consumer when last met. */
  private readonly parked = new Map<bigint, number>();

  /** @param hasConsumers whether a queue has a consumer now */
  constructor(private readonly hasConsumers: (queue: bigint) => boolean) {}

  /** Queues in the heap (with consumers when last met). */
  get size(): number {
    return this.heap.size;
  }

  /** Queues parked for want of a consumer. */
  get parkedSize(): number {
    return this.parked.size;
  }

  get(queue: bigint): number | undefined {
    return this.heap.get(queue) ?? this.parked.get(queue);
  }

  /** Sets (or moves) a queue's next due time. */
  set(queue: bigint, dueMs: number): void {
    if (this.hasConsumers(queue)) {
      this.parked.delete(queue);
      this.heap.set(queue, dueMs);
    } else {
      this.heap.delete(queue);
      this.parked.set(queue, dueMs);
    }
  }

  /** Lowers a queue's next due time, never raises it. */
  lower(queue: bigint, dueMs: number): void {
    const parked = this.parked.get(queue);
    if (parked === undefined) {
      if (this.hasConsumers(queue) || this.heap.get(queue) !== undefined) this.heap.lower(queue, dueMs);
      else this.parked.set(queue, dueMs);
    } else if (dueMs < parked) {
      this.parked.set(queue, dueMs);
    }
  }

  delete(queue: bigint): void {
    this.heap.delete(queue);
    this.parked.delete(queue);
  }

  /** A consumer of the queue subscribed: a parked due time goes back into the heap. */
  unpark(queue: bigint): void {
    const due = this.parked.get(queue);
    if (due === undefined) return;
    this.parked.delete(queue);
    this.heap.lower(queue, due);
  }

  /**
   * The queues with consumers due at or before `atMs`, earliest first in the
   * heap's order; those met without a consumer are parked on the way.
   */
  dueBy(atMs: number): bigint[] {
    const out: bigint[] = [];
    for (const q of this.heap.dueBy(atMs)) {
      if (this.hasConsumers(q)) out.push(q);
      else this.park(q);
    }
    return out;
  }

  /** The earliest queue with consumers due after `afterMs` (parking those without on the way). */
  firstAfter(afterMs: number): { queue: bigint; dueMs: number } | undefined {
    for (;;) {
      const next = this.heap.firstAfter(afterMs);
      if (!next || this.hasConsumers(next.queue)) return next;
      this.park(next.queue);
    }
  }

  clear(): void {
    this.heap.clear();
    this.parked.clear();
  }

  private park(queue: bigint): void {
    const due = this.heap.get(queue);
    if (due === undefined) return;
    this.heap.delete(queue);
    this.parked.set(queue, due);
  }
}
