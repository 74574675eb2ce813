/**
 * A group's running leases on the leader (limits.ts), for its max_in_flight.
 */
import { DueHeap } from './due-heap.js';

/**
 * A group's leases that run, by delivery tag, with their ends: from the
 * store when the group's limit became known to this leader, then as its
 * lease commands, settles and extends are answered. A lease counts until its
 * settle is applied (not when the consumer sends it), until its end, or,
 * while an extend of it is being proposed, until that is answered.
 */
export class InFlightLedger {
  private readonly ends = new DueHeap<string>();
  /** Ends of leases whose extend is being proposed (they count until it is answered). */
  private readonly pinned = new Map<string, number>();
  private unknown = 0;

  /** Leases running at `nowMs` (those ended by then are forgotten). */
  running(nowMs: number): number {
    for (let top = this.ends.peek(); top && top.dueMs <= nowMs; top = this.ends.peek()) {
      this.ends.delete(top.queue);
    }
    return this.ends.size;
  }

  /** When the first running lease ends (a slot frees), if any runs. */
  nextEndMs(): number | undefined {
    return this.ends.peek()?.dueMs;
  }

  add(tagKey: string, endMs: number): void {
    this.ends.set(tagKey, endMs);
  }

  remove(tagKey: string): void {
    this.ends.delete(tagKey);
    this.pinned.delete(tagKey);
  }

  /** An extend of `tagKey` is being proposed: it counts until answered (`unpin` or `extended`). */
  pin(tagKey: string): void {
    const end = this.ends.get(tagKey);
    if (end === undefined || this.pinned.has(tagKey)) return;
    this.pinned.set(tagKey, end);
    this.ends.set(tagKey, Number.POSITIVE_INFINITY);
  }

  /** The extend failed or did not take: the lease ends when it did. */
  unpin(tagKey: string): void {
    const end = this.pinned.get(tagKey);
    if (end === undefined) return;
    this.pinned.delete(tagKey);
    this.ends.set(tagKey, end);
  }

  /** The lease `tagKey` was extended: it runs as `nextKey` until `endMs`. */
  extended(tagKey: string, nextKey: string, endMs: number): void {
    if (this.ends.get(tagKey) === undefined) return;
    this.remove(tagKey);
    this.add(nextKey, endMs);
  }

  /** `count` leases whose command's outcome is unknown (it failed, and may still apply): they count until `untilMs`. */
  addUnknown(count: number, untilMs: number): void {
    for (let i = 0; i < count; i++) this.ends.set(`?${this.unknown++}`, untilMs);
  }
}
