import type { AbstractBatchOptions, AbstractLevel } from 'abstract-level';
import { ClassicLevel } from 'classic-level';
import { MemoryLevel } from 'memory-level';
import { NoSpaceError, StorageError } from './errors.js';
import type {
  BatchOp,
  EngineName,
  KVStore,
  OpenOptions,
  ReadView,
  ScanOptions,
  ScanVisitor,
  Snapshot,
  StoreStats,
  WriteOptions,
} from './store.js';

type Bytes = Uint8Array;
type Db = AbstractLevel<Bytes, Bytes, Bytes>;
// abstract-level's snapshot type is not exported under a stable name.
type DbSnapshot = ReturnType<Db['snapshot']>;

/** Most entries fetched per iterator round trip. */
const SCAN_CHUNK = 1024;
const SCRIBBLE = 0xdd;

const ENCODINGS = { keyEncoding: 'view', valueEncoding: 'view' } as const;

/**
 * classic-level's private batch methods (classic-level 3.0.0, pinned), which take raw byte keys and
 * values. `_batch` writes an array of ops. `_chainedBatch` returns a native WriteBatch that is
 * filled one op per call (`_put`, `_del`), written (`_write`) and emptied (`_clear`): it costs
 * less main-thread time per op (0.7-0.9 against 1.1-1.3 us: no property lookups per op), but its
 * memory is freed only when V8 collects the wrapper, which V8 does not know holds a megabyte (one
 * per write made RSS grow by ~1 MB per batch until a major GC: a node at 1,000,000 pending had 600
 * MB instead of 300). So the store keeps **one** and reuses it: cleared after each write, its
 * buffer keeps the capacity of the largest batch up to REUSED_BATCH_MAX_BYTES.
 */
interface NativeBatch {
  _batch(ops: readonly BatchOp[], options: { sync: boolean }): Promise<void>;
  _chainedBatch(): NativeChainedBatch;
}

interface NativeChainedBatch {
  _put(key: Bytes, value: Bytes): void;
  _del(key: Bytes): void;
  _write(options: { sync: boolean }): Promise<void>;
  _clear(): void;
}

/** Larger batches (snapshot restore, deleting a big topic) go through the array path, whose memory is freed at once. */
export const REUSED_BATCH_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Both engines are abstract-level databases, so one class serves both: the
 * dispatcher and janitor above never know which is underneath.
 */
export class LevelStore implements KVStore {
  readonly stats: StoreStats = { batches: 0, syncedBatches: 0, putOps: 0, delOps: 0 };
  private reader: Reader;
  /** The one reusable native batch (leveldb), while no write holds it. */
  private spareBatch: NativeChainedBatch | undefined;
  private madeSpare = false;
  /**
   * A write failed for room: LevelDB keeps such an error (a failed flush or
   * compaction fails every later write) and its log writer may have lost track
   * of the file's end, so the database is closed and opened again before the
   * next write (reopenIfFull).
   */
  private full = false;
  private reopening: Promise<void> | undefined;

  private constructor(
    readonly engine: EngineName,
    /** The underlying abstract-level database (tests inspect it). */
    private database: Db,
    private readonly options: OpenOptions,
    checkSlices: boolean,
  ) {
    this.reader = new Reader(database, undefined, checkSlices);
  }

  /** The underlying abstract-level database (tests inspect it); another object after a reopen. */
  get db(): Db {
    return this.database;
  }

  static async open(options: OpenOptions): Promise<LevelStore> {
    const checkSlices = options.checkSlices ?? process.env['FERMATA_STORAGE_CHECKS'] === '1';
    const db = await openDb(options);
    return new LevelStore(options.engine, db, options, checkSlices);
  }

  /**
   * After a write refused for room: closes the database and opens it again
   * (LevelDB replays its log; the refused batch, never written whole, is not
   * in it). Throws a NoSpaceError while there is still no room to open it.
   */
  private reopenIfFull(): Promise<void> {
    if (!this.full) return Promise.resolve();
    this.reopening ??= this.reopen().finally(() => {
      this.reopening = undefined;
    });
    return this.reopening;
  }

  /**
   * Reads between a reopen that failed for room and the next one: the database
   * is closed, so they try the reopen themselves (an apply reads before it
   * writes) and fail as the write would, with a NoSpaceError.
   */
  private readable(): Promise<void> | undefined {
    return this.full && this.database.status !== 'open' ? this.reopenIfFull() : undefined;
  }

  private async reopen(): Promise<void> {
    if (this.database.status === 'open') await this.database.close();
    this.spareBatch = undefined;
    this.madeSpare = false;
    const db = await openDb(this.options);
    this.database = db;
    this.reader = new Reader(db, undefined, this.reader.checkSlices);
    this.full = false;
  }

  get(key: Bytes): Promise<Bytes | undefined> {
    const waiting = this.readable();
    return waiting ? waiting.then(() => this.reader.get(key)) : this.reader.get(key);
  }

  getNow(key: Bytes): Bytes | null | undefined {
    return this.readable() ? undefined : this.reader.getNow(key);
  }

  getMany(keys: readonly Bytes[]): Promise<Array<Bytes | undefined>> {
    const waiting = this.readable();
    return waiting ? waiting.then(() => this.reader.getMany(keys)) : this.reader.getMany(keys);
  }

  scan(options: ScanOptions, visit: ScanVisitor): Promise<number> {
    const waiting = this.readable();
    return waiting ? waiting.then(() => this.reader.scan(options, visit)) : this.reader.scan(options, visit);
  }

  async batch(ops: readonly BatchOp[], options: WriteOptions): Promise<void> {
    if (ops.length === 0) return;
    await this.reopenIfFull();
    try {
      await this.write(ops, options);
    } catch (err) {
      if (this.engine !== 'leveldb' || !isNoSpaceMessage(err)) throw err;
      this.full = true;
      throw new NoSpaceError(this.options.path ?? '', err);
    }
  }

  private async write(ops: readonly BatchOp[], options: WriteOptions): Promise<void> {
    for (const op of ops) {
      if (op.type === 'put') this.stats.putOps++;
      else this.stats.delOps++;
    }
    this.stats.batches++;
    if (options.sync) this.stats.syncedBatches++;
    if (this.engine === 'leveldb') {
      // Fast path: classic-level's native batch, skipping abstract-level's per-op
      // clone-and-encode (3-4x the throughput, measured in `npm run bench -- storage`).
      // Every op is checked first, so a bad batch still writes nothing.
      let bytes = 0;
      for (const op of ops) {
        if (!(op.key instanceof Uint8Array) || (op.type === 'put' && !(op.value instanceof Uint8Array))) {
          throw new StorageError(`batch op ${op.type}: key and value must be Uint8Array`);
        }
        if (op.type !== 'put' && op.type !== 'del')
          throw new StorageError(`unknown batch op type ${String((op as { type: unknown }).type)}`);
        bytes += op.key.length + (op.type === 'put' ? op.value.length : 0);
      }
      if (this.db.status !== 'open') throw new StorageError(`store is ${this.db.status}`);
      const native = this.db as unknown as NativeBatch;
      const chained = bytes <= REUSED_BATCH_MAX_BYTES ? this.takeSpareBatch(native) : undefined;
      if (!chained) {
        // Too big to keep its buffer, or the spare is busy with another write.
        await native._batch(ops, { sync: options.sync });
        return;
      }
      try {
        for (const op of ops) {
          if (op.type === 'put') chained._put(op.key, op.value);
          else chained._del(op.key);
        }
        await chained._write({ sync: options.sync });
      } finally {
        chained._clear();
        this.spareBatch = chained;
      }
      return;
    }
    // abstract-level validates every op before writing any, and the engine
    // writes the batch atomically, so a rejected batch leaves nothing behind.
    // `sync` is a classic-level option (fsync the write); memory-level ignores it.
    // memory-level keeps the bytes it is given: copies, so that a key or value
    // that is a view into a shared slab (slab.ts) does not keep the slab alive.
    const batchOptions = { sync: options.sync } as AbstractBatchOptions<Bytes, Bytes>;
    const copy = (b: Bytes): Bytes => (b instanceof Uint8Array ? new Uint8Array(b) : b);
    const owned = ops.map(
      (op): BatchOp =>
        op.type === 'put'
          ? { ...op, key: copy(op.key), value: copy(op.value) }
          : { ...op, key: copy(op.key) },
    );
    await this.db.batch(owned, batchOptions);
  }

  private takeSpareBatch(native: NativeBatch): NativeChainedBatch | undefined {
    if (this.spareBatch) {
      const b = this.spareBatch;
      this.spareBatch = undefined;
      return b;
    }
    if (this.madeSpare) return undefined; // the one batch is in use
    this.madeSpare = true;
    return native._chainedBatch();
  }

  snapshot(): Snapshot {
    const snap = this.db.snapshot();
    const reader = new Reader(this.db, snap, this.reader.checkSlices);
    return {
      get: (key) => reader.get(key),
      getMany: (keys) => reader.getMany(keys),
      scan: (options, visit) => reader.scan(options, visit),
      close: () => snap.close(),
    };
  }

  clear(): Promise<void> {
    return this.db.clear();
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

class Reader implements ReadView {
  private scratch = new Uint8Array(256);

  constructor(
    private readonly db: Db,
    private readonly snap: DbSnapshot | undefined,
    readonly checkSlices: boolean,
  ) {}

  async get(key: Bytes): Promise<Bytes | undefined> {
    const value = await this.db.get(key, this.snap ? { snapshot: this.snap } : {});
    return value ?? undefined;
  }

  getNow(key: Bytes): Bytes | null {
    return this.db.getSync(key, this.snap ? { snapshot: this.snap } : {}) ?? null;
  }

  async getMany(keys: readonly Bytes[]): Promise<Array<Bytes | undefined>> {
    if (keys.length === 0) return [];
    const values = await this.db.getMany(keys as Bytes[], this.snap ? { snapshot: this.snap } : {});
    return values.map((v) => v ?? undefined);
  }

  async scan(options: ScanOptions, visit: ScanVisitor): Promise<number> {
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    if (limit <= 0) return 0;
    if (options.gte && options.lt && compareBytes(options.gte, options.lt) >= 0) return 0;
    const iterator = this.db.iterator({
      ...(options.gte ? { gte: options.gte } : {}),
      ...(options.lt ? { lt: options.lt } : {}),
      reverse: options.reverse ?? false,
      ...(Number.isFinite(limit) ? { limit } : {}),
      ...(this.snap ? { snapshot: this.snap } : {}),
    });
    let visited = 0;
    const first = Math.floor(options.firstChunk ?? SCAN_CHUNK);
    let chunkSize = first >= 1 ? Math.min(first, SCAN_CHUNK) : 1; // NaN and below 1: one
    try {
      for (; ; chunkSize = Math.min(chunkSize * 2, SCAN_CHUNK)) {
        const chunk = await iterator.nextv(Math.min(chunkSize, limit - visited));
        if (chunk.length === 0) return visited;
        for (const [key, value] of chunk) {
          visited++;
          const goOn = this.checkSlices ? this.visitChecked(key, value, visit) : visit(key, value);
          if (goOn === false || visited >= limit) return visited;
        }
      }
    } finally {
      await iterator.close();
    }
  }

  /** Hands out views of one scratch buffer and scribbles over them afterwards. */
  private visitChecked(key: Bytes, value: Bytes, visit: ScanVisitor): boolean | undefined | void {
    const need = key.length + value.length;
    if (this.scratch.length < need) this.scratch = new Uint8Array(need * 2);
    this.scratch.set(key, 0);
    this.scratch.set(value, key.length);
    const k = this.scratch.subarray(0, key.length);
    const v = this.scratch.subarray(key.length, need);
    try {
      return visit(k, v);
    } finally {
      this.scratch.fill(SCRIBBLE, 0, need);
    }
  }
}

async function openDb(options: OpenOptions): Promise<Db> {
  let db: Db;
  if (options.engine === 'leveldb') {
    if (!options.path) throw new StorageError('the leveldb engine needs a path');
    db = new ClassicLevel<Bytes, Bytes>(options.path, {
      ...ENCODINGS,
      cacheSize: options.cacheSizeBytes ?? 8 * 1024 * 1024,
      ...(options.maxOpenFiles !== undefined ? { maxOpenFiles: options.maxOpenFiles } : {}),
      ...(options.blockSizeBytes !== undefined ? { blockSize: options.blockSizeBytes } : {}),
      ...(options.writeBufferBytes !== undefined ? { writeBufferSize: options.writeBufferBytes } : {}),
    }) as unknown as Db;
  } else if (options.engine === 'memory') {
    db = new MemoryLevel<Bytes, Bytes>(ENCODINGS) as unknown as Db;
  } else {
    throw new StorageError(`unknown storage engine "${String(options.engine)}" (leveldb, memory)`);
  }
  try {
    await db.open();
  } catch (err) {
    // LevelDB writes its log out as a table when it opens: a full disk can refuse that.
    if (isNoSpaceMessage(err)) throw new NoSpaceError(options.path ?? '', err, 'the store was not opened');
    throw new StorageError(`cannot open ${options.engine} store at ${options.path ?? '(memory)'}`, {
      cause: err,
    });
  }
  return db;
}

/** LevelDB reports a full disk as an IO error with strerror's text (classic-level: LEVEL_IO_ERROR), no errno. */
function isNoSpaceMessage(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (/No space left on device/.test(e.message)) return true;
  }
  return false;
}

export function compareBytes(a: Bytes, b: Bytes): number {
  return Buffer.compare(a, b);
}

export function openStore(options: OpenOptions): Promise<LevelStore> {
  return LevelStore.open(options);
}
