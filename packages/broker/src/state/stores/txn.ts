import type { BatchOp, ReadView, ScanOptions, ScanVisitor } from '@fermata/storage';
import { compareBytes } from '@fermata/storage';
import { tagKeyOf } from '../../keys.js';
import { cacheable, type RecordCache } from './record-cache.js';

/**
 * A write of the batch, shaped as the storage batch op it becomes (`ops()`
 * hands these objects to the store as they are: no second object per write).
 */
type Pending =
  | {
      readonly type: 'put';
      readonly key: Uint8Array;
      readonly value: Uint8Array;
      /** Not worth caching (read back much later, if ever): `written()` drops the id from the cache instead. */
      readonly cold: boolean;
    }
  | { readonly type: 'del'; readonly key: Uint8Array; readonly value: null; readonly cold: false };

/** A scanned record: its key and value, copies the caller may keep. */
export interface Row {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
}

/**
 * How long apply may block the event loop in reads answered at once before
 * it lets the loop run (a record in LevelDB's or the OS's cache takes
 * microseconds; one read from disk, milliseconds): Raft's heartbeats and
 * gRPC wait at most this and one read.
 */
const SYNC_READ_SLICE_MS = 5;

/** Lets the event loop run what waits (timers, sockets) before apply goes on. */
const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A record's id in the write set and the record cache: its key as a latin1 string. */
export const keyId = tagKeyOf;

/**
 * `bytes` itself when it owns its memory, else a copy that does. Encoded records
 * are views into Node's shared 8 KiB Buffer pool slabs: one such view kept in
 * the cache keeps its whole slab alive (32,768 cached records could pin 256 MiB).
 */
function ownBytes(bytes: Uint8Array): Uint8Array {
  return bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}

/** One undo step: a write to restore (`id` set) or a callback (`id` undefined). */
type UndoStep = { id: string; before: Pending | undefined } | { id: undefined; fn: () => void };

/**
 * The write set of one applied entry batch: reads see the batch's own earlier
 * writes, and one command's writes can be rolled back (a command that fails
 * changes nothing) while earlier commands of the batch stay. `ops()` is the one
 * storage batch the whole entry batch becomes.
 */
export class Txn {
  private readonly writes = new Map<string, Pending>();
  private readonly reads = new Map<string, Uint8Array | null>();
  private undo: UndoStep[] = [];
  /**
   * Changes at every command boundary and every `mark()`: state kept outside
   * the write set may register one undo step per generation (what it was when
   * first changed in it) instead of one per change.
   */
  generation = 0;
  /** Records touched and bytes written by the command being applied (apply-bound.ts); reset per command. */
  private touched = 0;
  private written_ = 0;
  /** Time spent in reads answered at once (`get`) since the event loop last ran. */
  private syncReadMs = 0;

  constructor(
    readonly view: ReadView,
    private readonly cache?: RecordCache,
  ) {}

  /** Whether `written()` keeps written records (a record cache of some capacity). */
  get cachesWrites(): boolean {
    return this.cache !== undefined && this.cache.capacity > 0;
  }

  /** What the command being applied has done so far (apply-bound.ts). */
  get work(): { readonly records: number; readonly bytes: number } {
    return { records: this.touched, bytes: this.written_ };
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    this.touched++;
    const id = keyId(key);
    const w = this.writes.get(id);
    if (w) return w.value ?? undefined;
    const cached = this.reads.get(id);
    if (cached !== undefined) return cached ?? undefined;
    const hit = this.cache?.get(id);
    if (hit !== undefined) return hit ?? undefined;
    // At once where the store can: apply waits for the read either way, and a read on the
    // engine's thread pool costs several times the CPU of the lookup itself (25-90 µs against
    // 2.5-14). A read LevelDB takes from disk blocks the event loop (Raft's heartbeats, gRPC),
    // so after SYNC_READ_SLICE_MS of them apply lets the loop run before it reads on.
    if (this.syncReadMs >= SYNC_READ_SLICE_MS) {
      await yieldToLoop();
      this.syncReadMs = 0;
      const w1 = this.writes.get(id);
      if (w1) return w1.value ?? undefined;
    }
    const now = this.readNow(key);
    if (now !== undefined) {
      this.reads.set(id, now);
      if (this.cache && cacheable(key)) this.cache.set(id, now);
      return now ?? undefined;
    }
    const value = await this.view.get(key);
    // A write may have landed while we waited (commands are sequential, but be exact).
    const w2 = this.writes.get(id);
    if (w2) return w2.value ?? undefined;
    this.reads.set(id, value ?? null);
    if (this.cache && cacheable(key)) this.cache.set(id, value ?? null);
    return value;
  }

  /** `view.getNow`, its time counted against the batch's budget. */
  private readNow(key: Uint8Array): Uint8Array | null | undefined {
    if (!this.view.getNow) return undefined;
    const start = performance.now();
    const value = this.view.getNow(key);
    this.syncReadMs += performance.now() - start;
    return value;
  }

  /** Loads many keys at once (one multi-get on the store) so later `get`s hit the cache. */
  async prefetch(keys: readonly Uint8Array[]): Promise<void> {
    await this.getMany(keys);
  }

  /**
   * The values of many keys, as `get` would answer each (one multi-get on the
   * store for those neither written, read nor cached), with each key's id;
   * `fresh`: the indexes of those read from the store now (values never
   * decoded; one a write landed on meanwhile is the write's).
   */
  async getMany(
    keys: readonly Uint8Array[],
  ): Promise<{ ids: string[]; values: (Uint8Array | undefined)[]; fresh: readonly number[] }> {
    this.touched += keys.length;
    const ids: string[] = new Array(keys.length);
    const values: (Uint8Array | undefined)[] = new Array(keys.length);
    const missing: number[] = [];
    for (let i = 0; i < keys.length; i++) {
      const id = keyId(keys[i]!);
      ids[i] = id;
      const w = this.writes.get(id);
      if (w) {
        values[i] = w.value ?? undefined;
        continue;
      }
      let v = this.reads.get(id);
      if (v === undefined) v = this.cache?.get(id);
      if (v === undefined) missing.push(i);
      else values[i] = v ?? undefined;
    }
    if (missing.length === 0) return { ids, values, fresh: missing };
    const getMany = this.view.getMany?.bind(this.view);
    const read = getMany
      ? await getMany(missing.map((i) => keys[i]!))
      : await Promise.all(missing.map((i) => this.view.get(keys[i]!)));
    for (let j = 0; j < missing.length; j++) {
      const i = missing[j]!;
      const id = ids[i]!;
      // A write may have landed while we waited (commands are sequential, but be exact).
      const w = this.writes.get(id);
      if (w) {
        values[i] = w.value ?? undefined;
        continue;
      }
      const value = read[j] ?? null;
      this.reads.set(id, value);
      if (this.cache && cacheable(keys[i]!)) this.cache.set(id, value);
      values[i] = value ?? undefined;
    }
    return { ids, values, fresh: missing };
  }

  /** What this batch wrote under `id` (`null`: deleted), or `undefined` when it wrote nothing there. */
  writtenValue(id: string): Uint8Array | null | undefined {
    const w = this.writes.get(id);
    return w ? w.value : undefined;
  }

  /** `cold`: a record read back much later, if ever (a message due in hours): kept out of the record cache. */
  put(key: Uint8Array, value: Uint8Array, cold = false): void {
    this.set(key, { type: 'put', key, value, cold });
  }

  del(key: Uint8Array): void {
    this.set(key, { type: 'del', key, value: null, cold: false });
  }

  private set(key: Uint8Array, write: Pending): void {
    this.touched++;
    this.written_ += key.length + (write.value?.length ?? 0);
    const id = keyId(key);
    this.undo.push({ id, before: this.writes.get(id) });
    this.writes.set(id, write);
  }

  /** Registers an extra undo step (e.g. for counters kept outside the write set). */
  onRollback(fn: () => void): void {
    this.undo.push({ id: undefined, fn });
  }

  mark(): number {
    this.generation++;
    return this.undo.length;
  }

  rollback(mark: number): void {
    while (this.undo.length > mark) {
      const step = this.undo.pop()!;
      if (step.id === undefined) step.fn();
      else if (step.before) this.writes.set(step.id, step.before);
      else this.writes.delete(step.id);
    }
  }

  /** Forgets the undo log (after a command succeeded). */
  commitCommand(): void {
    this.undo = [];
    this.generation++;
    this.touched = 0;
    this.written_ = 0;
  }

  /**
   * The first `limit` entries of `[gte, lt)` in key order, the store merged
   * with this batch's writes. At most `limit` plus the batch's deletes in the
   * range are read from the store (each delete may hide one stored entry), so
   * the read is bounded whatever the range holds. Copies every key and value.
   */
  async scan(range: { gte: Uint8Array; lt: Uint8Array }, limit: number): Promise<Row[]> {
    const written: Pending[] = [];
    let hidden = 0;
    for (const w of this.writes.values()) {
      if (compareBytes(w.key, range.gte) < 0 || compareBytes(w.key, range.lt) >= 0) continue;
      written.push(w);
      if (!w.value) hidden++;
    }
    const out = new Map<string, Row>();
    await this.view.scan({ gte: range.gte, lt: range.lt, limit: limit + hidden }, (key, value) => {
      out.set(keyId(key), { key: key.slice(), value: value.slice() });
    });
    this.touched += out.size;
    for (const w of written) {
      const id = keyId(w.key);
      if (w.value) out.set(id, { key: w.key.slice(), value: w.value });
      else out.delete(id);
    }
    const sorted = [...out.values()].sort((a, b) => compareBytes(a.key, b.key));
    return sorted.slice(0, limit);
  }

  /**
   * A scan of the store alone, not of this batch's writes: for a store that
   * keeps track of its own writes in the batch (publishes.ts). Counts what it
   * visits as work.
   */
  async scanStore(options: ScanOptions, visit: ScanVisitor): Promise<void> {
    this.touched += await this.view.scan(options, visit);
  }

  /**
   * A seek of the store alone by a store that passes each record this batch
   * wrote at most once a batch (key-heads.ts): counted as one record, the
   * records of this batch it steps over being counted by the commands that
   * wrote them. So a command's count does not depend on how a node split the
   * log into batches.
   */
  async seekStore(options: ScanOptions, visit: ScanVisitor): Promise<void> {
    this.touched++;
    await this.view.scan(options, visit);
  }

  /**
   * After the batch was written: copies its puts into the record cache. A
   * deleted record is dropped from it rather than cached as absent: what an
   * ack or a lease deletes is hardly ever read again, and caching its absence
   * would only push out records that are.
   */
  written(): void {
    if (!this.cache) return;
    for (const [id, w] of this.writes) {
      if (!cacheable(w.key)) continue;
      if (w.cold || !w.value) this.cache.delete(id);
      else this.cache.set(id, ownBytes(w.value));
    }
  }

  /** The ids of the records this batch wrote or deleted (a read begun before it must not cache them). */
  writtenIds(): ReadonlyMap<string, unknown> {
    return this.writes;
  }

  ops(): BatchOp[] {
    return Array.from(this.writes.values());
  }

  get size(): number {
    return this.writes.size;
  }
}
