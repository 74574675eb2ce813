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
 * `version()` before a read, then, once, `fill(version, rows)` with what the
 * read found (an empty list when it found nothing or failed): per row, its
 * id in the cache (`keyId` of its storage key) and a value it may keep.
 */
export interface CacheFiller {
  version(): number;
  fill(version: number, rows: readonly (readonly [string, Uint8Array])[]): void;
}

/** Most batches whose writes `CacheFills` remembers for a read under way; an older read fills nothing. */
export const FILL_LOG_BATCHES = 8;

/**
 * Fills the record cache from reads outside apply (the leader's due read,
 * which the lease command reads next) without letting an older read follow
 * a batch's own writes. Batches go on being written while a read awaits
 * its engine (on a busy leader, most reads meet one to four), so a read does
 * not lose its fill to any batch: while a read is under way, the ids each
 * batch wrote are kept (at most FILL_LOG_BATCHES batches), and a row that a
 * batch since the read's start wrote (or deleted) is left out; the others
 * go in. Nothing is kept while no read is under way (a follower's case).
 */
export class CacheFills implements CacheFiller {
  /** Batches written (and restores), the version a read starts at. */
  private writes = 0;
  /** Reads that took a version and have not filled yet. */
  private open = 0;
  /** The ids each batch wrote while a read was open, the last batch last. */
  private readonly log: ReadonlyMap<string, unknown>[] = [];
  /** Reads that started before this version fill nothing (a restore replaced the store). */
  private floor = 0;

  constructor(private readonly cache: RecordCache) {}

  version(): number {
    this.open++;
    return this.writes;
  }

  /** A batch was written (its writes are in the cache): `ids` are the storage ids it wrote. */
  written(ids: ReadonlyMap<string, unknown>): void {
    this.writes++;
    if (this.open === 0) return;
    this.log.push(ids);
    if (this.log.length > FILL_LOG_BATCHES) this.log.shift();
  }

  /** The store was replaced (a restore): no read begun before fills anything. */
  replaced(): void {
    this.writes++;
    this.floor = this.writes;
    this.log.length = 0;
  }

  fill(version: number, rows: readonly (readonly [string, Uint8Array])[]): void {
    this.open--;
    const behind = this.writes - version;
    if (version >= this.floor && behind <= this.log.length) {
      const since = this.log.slice(this.log.length - behind);
      for (const [id, value] of rows) {
        // A record already cached is as the last batch left it: kept.
        if (this.cache.get(id) !== undefined || since.some((batch) => batch.has(id))) continue;
        this.cache.set(id, value);
      }
    }
    if (this.open === 0) this.log.length = 0;
  }
}

/**
 * Which namespaces are worth caching: queue entries and message index records
 * (read back soon after writing), the few topic and queue records every
 * apply batch reads again, and the head records of ordering keys.
 */
export function cacheable(key: Uint8Array): boolean {
  const ns = key[0];
  return (
    ns === NS.queue.prefix ||
    ns === NS.index.prefix ||
    ns === NS.topics.prefix ||
    ns === NS.queues.prefix ||
    ns === NS.keyHeads.prefix ||
    ns === NS.dueLoad.prefix
  );
}
