/**
 * A bounded cache of stored records, in front of the store for reads made
 * while applying. Coherent by construction: the store changes only through the
 * state machine's apply batches (and restore, which clears the cache), and
 * every batch's writes are copied in once the batch is written. It only saves
 * reads (a lease reads what the publish wrote, an ack what the lease wrote); it
 * never changes what apply sees.
 */
export class RecordCache {
  private readonly map = new Map<string, Uint8Array | null>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) {
      throw new RangeError(`record cache capacity must be a non-negative integer, got ${capacity}`);
    }
  }

  /** The cached value; `null` = known absent; `undefined` = not cached. */
  get(id: string): Uint8Array | null | undefined {
    return this.map.get(id);
  }

  set(id: string, value: Uint8Array | null): void {
    if (this.capacity === 0) return;
    this.map.delete(id);
    this.map.set(id, value);
    if (this.map.size > this.capacity) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
  }

  clear(): void {
    this.map.clear();
  }

  get size(): number {
    return this.map.size;
  }
}

/** Which namespaces are worth caching: queue entries and message index records (read back soon after writing). */
export function cacheable(key: Uint8Array): boolean {
  return key[0] === 0x01 || key[0] === 0x03;
}
