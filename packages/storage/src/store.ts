/**
 * The storage contract every engine implements.
 *
 * - Keys and values are bytes; the whole keyspace is ordered lexicographically
 *   by unsigned byte (0x00 first, 0xff last).
 * - Ranges are `[gte, lt)`: lower bound inclusive, upper bound exclusive; an
 *   absent bound is open.
 * - `get` of an absent key resolves to `undefined` (the one not-found convention).
 * - A batch is all-or-nothing: readers see all of it or none of it, and a batch
 *   that fails leaves nothing behind.
 * - The key and value slices handed to a `scan` visitor are valid only during
 *   that call and may be reused for the next entry: a caller copies what it keeps
 *   (`Uint8Array.prototype.slice`). With `checkSlices` on, engines enforce this by
 *   handing out one scratch buffer that is overwritten after every visit.
 */
export type BatchOp =
  | { readonly type: 'put'; readonly key: Uint8Array; readonly value: Uint8Array }
  | { readonly type: 'del'; readonly key: Uint8Array };

export interface Range {
  readonly gte?: Uint8Array;
  readonly lt?: Uint8Array;
}

export interface ScanOptions extends Range {
  readonly reverse?: boolean;
  /** Most entries visited; absent = no limit. */
  readonly limit?: number;
  /**
   * Entries the engine reads ahead at first (a positive integer), for a visitor
   * expected to stop early (each read-ahead entry is copied out of the engine
   * whether visited or not); later reads double up to the store's own page of
   * 1,024. Absent = that page.
   */
  readonly firstChunk?: number;
}

/** Return `false` to stop the scan early. */
export type ScanVisitor = (key: Uint8Array, value: Uint8Array) => boolean | undefined | void;

export interface WriteOptions {
  /** Wait for the write to reach stable storage (fsync) before resolving. */
  readonly sync: boolean;
}

/** What can be read: the live store, or a consistent snapshot of it. */
export interface ReadView {
  get(key: Uint8Array): Promise<Uint8Array | undefined>;
  /**
   * Many point reads in one call (one round trip to the engine instead of one
   * promise per key); results in the order of `keys`, `undefined` where absent.
   * Optional: callers fall back to `get` per key.
   */
  getMany?(keys: readonly Uint8Array[]): Promise<Array<Uint8Array | undefined>>;
  /**
   * A point read answered on the calling thread, without a round trip to the
   * engine's thread pool (for a record LevelDB finds in its caches, about a
   * tenth of `get`'s CPU); `null` where absent. `undefined` when it cannot
   * answer so now (a store reopening after a full disk): use `get`. It blocks
   * the event loop for as long as the engine takes (a read from disk:
   * milliseconds), so it is for the reads of apply, which wait for each read
   * anyway, within a budget per batch (the broker's Txn).
   */
  getNow?(key: Uint8Array): Uint8Array | null | undefined;
  /** Visits entries in order; resolves to the number visited. */
  scan(options: ScanOptions, visit: ScanVisitor): Promise<number>;
}

/** A point-in-time view; later writes are not visible through it. Close it when done. */
export interface Snapshot extends ReadView {
  close(): Promise<void>;
}

export type EngineName = 'leveldb' | 'memory';

export interface KVStore extends ReadView {
  readonly engine: EngineName;
  batch(ops: readonly BatchOp[], options: WriteOptions): Promise<void>;
  snapshot(): Snapshot;
  /** Removes every entry (one atomic operation). */
  clear(): Promise<void>;
  close(): Promise<void>;
  /** Entries visited so far by scans, for stats. */
  readonly stats: StoreStats;
}

export interface StoreStats {
  batches: number;
  syncedBatches: number;
  putOps: number;
  delOps: number;
}

export interface OpenOptions {
  readonly engine: EngineName;
  /** Directory of the LevelDB files (leveldb engine only). */
  readonly path?: string;
  /**
   * Enforce the copy-what-you-keep rule: scan slices live in one scratch buffer
   * that is scribbled over after each visit. For tests; costs a copy per entry.
   * Default: on when FERMATA_STORAGE_CHECKS=1.
   */
  readonly checkSlices?: boolean;
  /** LevelDB block cache in bytes (leveldb engine only). */
  readonly cacheSizeBytes?: number;
  /**
   * Table files LevelDB keeps open (leveldb only; default 1,000). Each open
   * table keeps its index and filter blocks in memory and its file mapped, so
   * this bounds memory that otherwise grows with the store.
   */
  readonly maxOpenFiles?: number;
  /** LevelDB's uncompressed block size in bytes (leveldb only; default 4 KiB); larger blocks mean smaller in-memory indexes. */
  readonly blockSizeBytes?: number;
  /**
   * LevelDB's memtable size in bytes (leveldb only; LevelDB's default 4 MiB).
   * A larger one writes fewer, larger level-0 files and lets short-lived
   * records die in memory: less compaction CPU per write; up to two memtables
   * are held in memory.
   */
  readonly writeBufferBytes?: number;
}
