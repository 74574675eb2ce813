import { NS } from '../model/layout.js';

/**
 * A bounded cache of stored records, in front of the store for reads made
 * while applying. Coherent by construction: the store changes only through the
 * state machine's apply batches (and restore, which clears the cache), and
 * every batch's writes are copied in once the batch is written. It only saves
 * reads (a lease reads what the publish wrote, an ack what the lease wrote); it
 * never changes what apply sees.
 *
 * One `Map`, evicted in insertion order (a rewrite keeps a record's place):
 * when it holds more than its capacity, one walk from its oldest end takes it
 * down to seven eighths of it. Evicting one record per write would walk, each time,
 * the holes V8 leaves at the front of the table until it next rehashes
 * (quadratic); a walk per eighth skips them once per batch. A write, a hit
 * and a delete cost one `Map` operation each: a write-ordered queue with a
 * sequence number per record cost ~10% of a lease's and an ack's apply in a
 * profile, and two generations of maps cost two `Map` operations per miss and
 * per delete.
 */
export class RecordCache {
  private readonly map = new Map<string, Uint8Array | null>();
  private readonly evictBatch: number;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) {
      throw new RangeError(`record cache capacity must be a non-negative integer, got ${capacity}`);
    }
    this.evictBatch = capacity >> 3;
  }

  /** The cached value; `null` = known absent; `undefined` = not cached. */
  get(id: string): Uint8Array | null | undefined {
    return this.map.get(id);
  }

  set(id: string, value: Uint8Array | null): void {
    if (this.capacity === 0) return;
    this.map.set(id, value);
    if (this.map.size > this.capacity) this.evict();
  }

  /** Down to seven eighths of the capacity. */
  private evict(): void {
    let n = this.map.size - (this.capacity - this.evictBatch);
    for (const id of this.map.keys()) {
      if (n-- <= 0) break;
      this.map.delete(id);
    }
  }

  /** Forgets one id (a write kept out of the cache must not leave an older value behind). */
  delete(id: string): void {
    this.map.delete(id);
  }

  clear(): void {
    this.map.clear();
  }

  get size(): number {
    return this.map.size;
  }

  /** The ids held (tests). */
  ids(): string[] {
    return [...this.map.keys()];
  }
}

/**
 * The state machine's record cache, as reads outside apply may fill it:
 * `version()` before a read, then `fill(version, rows)` with what the read
 * found (ignored if a batch was written meanwhile): per row, its id in the
 * cache (`keyId` of its storage key) and a value it may keep.
 */
export interface CacheFiller {
  version(): number;
  fill(version: number, rows: readonly (readonly [string, Uint8Array])[]): void;
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
