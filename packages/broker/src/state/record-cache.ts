import { NS } from './layout.js';

/**
 * A bounded cache of stored records, in front of the store for reads made
 * while applying. Coherent by construction: the store changes only through the
 * state machine's apply batches (and restore, which clears the cache), and
 * every batch's writes are copied in once the batch is written. It only saves
 * reads (a lease reads what the publish wrote, an ack what the lease wrote); it
 * never changes what apply sees.
 */
export class RecordCache {
  private readonly map = new Map<string, { value: Uint8Array | null; seq: number }>();
  /**
   * Write order, oldest first, as (id, seq) pairs from `head` on; a pair is
   * stale once its id was written again (the map holds a newer seq). Evicting
   * pops from here: O(1) amortized, where `map.keys().next()` would walk every
   * deleted slot at the front of V8's hash table (quadratic under FIFO eviction).
   */
  private orderIds: string[] = [];
  private orderSeqs: number[] = [];
  private head = 0;
  private seq = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) {
      throw new RangeError(`record cache capacity must be a non-negative integer, got ${capacity}`);
    }
  }

  /** The cached value; `null` = known absent; `undefined` = not cached. */
  get(id: string): Uint8Array | null | undefined {
    return this.map.get(id)?.value;
  }

  set(id: string, value: Uint8Array | null): void {
    if (this.capacity === 0) return;
    const seq = ++this.seq;
    const e = this.map.get(id);
    if (e) {
      e.value = value;
      e.seq = seq;
    } else {
      this.map.set(id, { value, seq });
    }
    this.orderIds.push(id);
    this.orderSeqs.push(seq);
    while (this.map.size > this.capacity) {
      const oldId = this.orderIds[this.head]!;
      const oldSeq = this.orderSeqs[this.head]!;
      this.head++;
      if (this.map.get(oldId)?.seq === oldSeq) this.map.delete(oldId);
    }
    if (this.head > this.capacity + 1024 || this.orderIds.length - this.head > 2 * this.capacity + 1024)
      this.compact();
  }

  /** Drops the stale and evicted pairs of the write order (amortized over `capacity` writes). */
  private compact(): void {
    const ids: string[] = [];
    const seqs: number[] = [];
    for (let i = this.head; i < this.orderIds.length; i++) {
      const id = this.orderIds[i]!;
      const seq = this.orderSeqs[i]!;
      if (this.map.get(id)?.seq === seq) {
        ids.push(id);
        seqs.push(seq);
      }
    }
    this.orderIds = ids;
    this.orderSeqs = seqs;
    this.head = 0;
  }

  /** Forgets one id (a write kept out of the cache must not leave an older value behind). */
  delete(id: string): void {
    this.map.delete(id);
  }

  clear(): void {
    this.map.clear();
    this.orderIds = [];
    this.orderSeqs = [];
    this.head = 0;
  }

  get size(): number {
    return this.map.size;
  }
}

/**
 * Which namespaces are worth caching: queue entries and message index records
 * (read back soon after writing), and the few topic and queue records every
 * apply batch reads again.
 */
export function cacheable(key: Uint8Array): boolean {
  const ns = key[0];
  return (
    ns === NS.queue.prefix || ns === NS.index.prefix || ns === NS.topics.prefix || ns === NS.queues.prefix
  );
}
