/**
 * The durable Raft log: segment files of checksummed frames under `<dir>/log`,
 * plus `<dir>/snapshot-meta` recording the latest snapshot's index, term and
 * configuration.
 *
 * Reads are synchronous (the core is a plain state machine, see LogReader):
 * an in-memory table holds every entry's term, offset and size, the recent
 * entries live in a bounded cache, and older ones are read with `readSync`.
 * Changes (append, truncate, compact, install) update that view at once and
 * queue file operations for the GroupWriter; their promise resolves when the
 * change is durable.
 *
 * `firstIndex()` can be below `snapshotMeta().index + 1`: compaction deletes
 * whole segments only, and the driver may keep entries behind a snapshot for
 * slow followers. `term(firstIndex() - 1)` is always known (each segment header
 * records the term before its first entry).
 *
 * Over 400 lines because every change (append, truncate, compact, install,
 * record a snapshot) follows one rule across two halves that must stay in
 * step: the in-memory view changes at once, the files when the GroupWriter
 * has made them durable. Frames, segment scans, start-up recovery, the cache
 * and the writer are their own files (frame.ts, segment-scan.ts, recovery.ts,
 * entry-cache.ts, group-writer.ts).
 */
import { join } from 'node:path';
import type { Entry, LogReader, SnapshotMeta } from '../types.js';
import { removeStaleTempFiles } from './atomic-file.js';
import { EntryCache } from './entry-cache.js';
import { CorruptionError, invariant, LimitError } from './errors.js';
import { type FileSystem, nodeFileSystem } from './file-system.js';
import { decodeFrame, encodeFrame, frameBytes, SEGMENT_HEADER_BYTES, segmentFileName } from './frame.js';
import { type FsyncSample, GroupWriter, SEGMENT_OPEN, type Segment } from './group-writer.js';
import { readAt } from './read-at.js';
import { recoverLog } from './recovery.js';
import { EMPTY_SNAPSHOT_META, readSnapshotMetaFile, SNAPSHOT_META_FILE } from './snapshot-meta-file.js';

const MiB = 1024 * 1024;
export const DEFAULT_SEGMENT_BYTES = 64 * MiB;
export const DEFAULT_CACHE_BYTES = 16 * MiB;
export const DEFAULT_MAX_ENTRY_BYTES = 16 * MiB;

export interface LogStoreOptions {
  /** The node's data directory; segments go to `<dir>/log`. */
  readonly dir: string;
  /** A segment is closed once the next frame would take it past this size. */
  readonly segmentBytes?: number;
  /** Byte budget of the recent-entry cache (entries not yet written are kept regardless). */
  readonly cacheBytes?: number;
  /** Largest entry data accepted; a larger length on disk is corruption. */
  readonly maxEntryBytes?: number;
  /** Called after each group's synchronous write (or fdatasync). */
  readonly onFsync?: (sample: FsyncSample) => void;
  /** The file system (default node:fs; the simulator passes its own). */
  readonly fs?: FileSystem;
}

export class LogStore implements LogReader {
  private readonly segmentBytes: number;
  private readonly maxEntryBytes: number;
  private readonly logDir: string;
  private readonly writer: GroupWriter;
  private readonly cache: EntryCache;
  private readonly fs: FileSystem;
  /** Index of the first entry in the table. */
  private first: number;
  /** Term of entry first - 1. */
  private prevTerm: number;
  /** Per entry from `first`: term, byte offset in its segment, data length. */
  private terms: number[];
  private offsets: number[];
  private dataBytes: number[];
  private segments: Segment[];
  private meta: SnapshotMeta;
  /** Entries <= this are written to their segment (cache entries above it are pinned). */
  private writtenIndex: number;
  /** Bumped by every truncation/reset, so a stale durability report cannot raise writtenIndex. */
  private resets = 0;

  protected constructor(options: LogStoreOptions) {
    const fs = options.fs ?? nodeFileSystem;
    this.fs = fs;
    this.segmentBytes = options.segmentBytes ?? DEFAULT_SEGMENT_BYTES;
    this.maxEntryBytes = options.maxEntryBytes ?? DEFAULT_MAX_ENTRY_BYTES;
    invariant(this.segmentBytes > SEGMENT_HEADER_BYTES, () => `segmentBytes ${this.segmentBytes} too small`);
    this.logDir = join(options.dir, 'log');
    fs.mkdir(this.logDir);
    const metaPath = join(options.dir, SNAPSHOT_META_FILE);
    removeStaleTempFiles(options.dir, metaPath, fs);
    this.meta = readSnapshotMetaFile(metaPath, fs) ?? EMPTY_SNAPSHOT_META;
    const log = recoverLog(this.logDir, this.meta, this.maxEntryBytes, fs);
    this.segments = log.segments.map((s) => ({ ...s, fd: fs.open(s.path, SEGMENT_OPEN) }));
    this.first = log.firstIndex;
    this.prevTerm = log.prevTerm;
    this.terms = log.terms;
    this.offsets = log.offsets;
    this.dataBytes = log.dataBytes;
    this.writtenIndex = this.lastIndex();
    this.cache = new EntryCache(options.cacheBytes ?? DEFAULT_CACHE_BYTES, this.lastIndex() + 1);
    this.writer = new GroupWriter(fs, this.logDir, metaPath, options.onFsync);
  }

  /** Opens the log in `options.dir`, recovering from a crash; throws CorruptionError on damage. */
  static open(options: LogStoreOptions): LogStore {
    return new LogStore(options);
  }

  /** Synchronous writes and fdatasync calls on segment files so far. */
  get fsyncs(): number {
    return this.writer.fsyncs;
  }

  /** Entries made durable so far (entriesSynced / fsyncs = entries per fsync). */
  get entriesSynced(): number {
    return this.writer.entriesSynced;
  }

  firstIndex(): number {
    return this.first;
  }

  lastIndex(): number {
    return this.first + this.terms.length - 1;
  }

  term(index: number): number | undefined {
    if (index === this.first - 1) return this.prevTerm;
    return index >= this.first ? this.terms[index - this.first] : undefined;
  }

  snapshotMeta(): SnapshotMeta {
    return this.meta;
  }

  entries(lo: number, hi: number, maxBytes: number): Entry[] {
    invariant(
      this.first <= lo && lo <= hi && hi <= this.lastIndex() + 1,
      () => `entries(${lo}, ${hi}) outside [${this.first}, ${this.lastIndex() + 1})`,
    );
    const out: Entry[] = [];
    let total = 0;
    let i = lo;
    while (i < hi) {
      const cached = this.cache.get(i);
      if (cached !== undefined) {
        if (out.length > 0 && total + cached.data.length > maxBytes) break;
        out.push(cached);
        total += cached.data.length;
        i += 1;
        continue;
      }
      // A run of uncached entries within one segment, read with one readSync.
      const segment = this.segmentOf(i);
      const segmentEnd = this.segmentLastIndex(segment) + 1;
      const runEnd = Math.min(hi, segmentEnd, this.cache.firstIndex());
      let j = i;
      while (
        j < runEnd &&
        (out.length + j - i === 0 || total + this.dataBytes[j - this.first]! <= maxBytes)
      ) {
        total += this.dataBytes[j - this.first]!;
        j += 1;
      }
      if (j === i) break;
      out.push(...this.readRun(segment, i, j));
      i = j;
      if (j < runEnd) break; // byte limit reached
    }
    return out;
  }

  /**
   * Makes the log end with `entries` (contiguous, terms never going down) and
   * resolves once they are durable. A leading run of entries that are already
   * in the log with the same index and term is kept in place, never truncated
   * nor rewritten (a Ready may hand out again entries that are durable and
   * acknowledged); the log is truncated only from the first index whose term
   * differs, or after the last entry handed in. That index must be above the
   * snapshot and, with `commit`, above the commit index.
   */
  append(entries: readonly Entry[], options: { commit?: number } = {}): Promise<void> {
    const head = entries[0];
    if (head === undefined) return this.sync();
    const last = this.lastIndex();
    invariant(
      head.index >= this.first && head.index <= last + 1,
      () => `append at ${head.index}: log is [${this.first}, ${last}], snapshot at ${this.meta.index}`,
    );
    let prevTerm = this.term(head.index - 1)!;
    entries.forEach((e, k) => {
      invariant(
        e.index === head.index + k,
        () => `entries not contiguous: ${e.index} at position ${k} after ${head.index}`,
      );
      invariant(
        e.term >= prevTerm,
        () => `term goes backwards at index ${e.index}: ${prevTerm} -> ${e.term}`,
      );
      if (e.data.length > this.maxEntryBytes)
        throw new LimitError('maxEntryBytes', this.maxEntryBytes, e.data.length);
      prevTerm = e.term;
    });
    // The fast path (head.index === last + 1) neither compares nor truncates.
    const kept = head.index <= last ? this.matchingPrefix(entries) : 0;
    const cut = head.index + kept; // first index rewritten or dropped
    if (cut <= last) {
      invariant(
        cut > this.meta.index,
        () =>
          `append at ${head.index} would truncate from ${cut}, at or below the snapshot at ${this.meta.index}`,
      );
      invariant(
        options.commit === undefined || cut > options.commit,
        () =>
          `append at ${head.index} would truncate committed entries from ${cut} (commit ${options.commit}, ` +
          `term there ${this.term(cut)}, handed in ${entries[kept]?.term ?? 'none'})`,
      );
      this.truncateFrom(cut);
    }
    const fresh = kept > 0 ? entries.slice(kept) : entries;

    // Frames go to the tail segment; consecutive frames for one segment form one write.
    let run: { segment: Segment; offset: number; frames: Buffer[] } | undefined;
    const flushRun = () => {
      if (run) this.writer.enqueue({ kind: 'write', ...run, entries: run.frames.length });
      run = undefined;
    };
    for (const entry of fresh) {
      const size = frameBytes(entry.data.length);
      let tail = this.segments.at(-1);
      if (
        tail === undefined ||
        (tail.bytes > SEGMENT_HEADER_BYTES && tail.bytes + size > this.segmentBytes)
      ) {
        flushRun();
        tail = this.createSegment(entry.index);
      }
      run ??= { segment: tail, offset: tail.bytes, frames: [] };
      const frame = Buffer.allocUnsafe(size);
      encodeFrame(entry, frame, 0);
      run.frames.push(frame);
      this.terms.push(entry.term);
      this.offsets.push(tail.bytes);
      this.dataBytes.push(entry.data.length);
      tail.bytes += size;
      // The cache's byte budget must be the memory it holds: an entry's data may be a view
      // into a pooled 8 KiB slab or a whole received message, which it would keep alive.
      const data = entry.data;
      this.cache.push(
        data.byteLength === data.buffer.byteLength ? entry : { ...entry, data: new Uint8Array(data) },
      );
    }
    flushRun();
    this.cache.evict(this.writtenIndex);
    return this.commitMarking(this.lastIndex());
  }

  /**
   * Records a snapshot taken locally at `meta.index` (<= lastIndex, with the
   * log's term there). Entries stay; compact() may then drop those below it.
   */
  recordSnapshot(meta: SnapshotMeta): Promise<void> {
    invariant(
      meta.index >= this.meta.index,
      () => `snapshot ${meta.index} older than recorded ${this.meta.index}`,
    );
    invariant(
      this.term(meta.index) === meta.term,
      () => `snapshot at ${meta.index} term ${meta.term}, log has term ${this.term(meta.index)}`,
    );
    this.meta = meta;
    this.writer.enqueue({ kind: 'meta', meta });
    return this.writer.commit();
  }

  /**
   * Deletes whole segments whose entries are all <= `index` (never the last
   * segment). Requires a recorded snapshot at >= index.
   */
  compact(index: number): Promise<void> {
    invariant(
      index <= this.meta.index,
      () => `compact(${index}) beyond the recorded snapshot ${this.meta.index}`,
    );
    let dropped = 0;
    while (dropped < this.segments.length - 1 && this.segmentLastIndex(this.segments[dropped]!) <= index) {
      this.writer.enqueue({ kind: 'unlink', segment: this.segments[dropped]! }); // oldest first: a crash leaves a suffix
      dropped += 1;
    }
    if (dropped === 0) return Promise.resolve();
    const head = this.segments[dropped]!;
    const n = head.firstIndex - this.first;
    this.segments.splice(0, dropped);
    this.terms.splice(0, n);
    this.offsets.splice(0, n);
    this.dataBytes.splice(0, n);
    this.first = head.firstIndex;
    this.prevTerm = head.prevTerm;
    this.cache.dropBefore(this.first);
    return this.writer.commit();
  }

  /**
   * Replaces the whole log by a snapshot received from the leader: afterwards
   * firstIndex() = meta.index + 1 and term(meta.index) = meta.term. The meta is
   * written before the segments are deleted; recovery discards leftover
   * segments that disagree with it (see recovery.ts).
   */
  installSnapshot(meta: SnapshotMeta): Promise<void> {
    invariant(
      meta.index >= this.meta.index,
      () => `install of snapshot ${meta.index} older than ${this.meta.index}`,
    );
    this.writer.enqueue({ kind: 'meta', meta });
    // Newest first: a crash midway leaves a prefix of the old log, which recovery drops.
    for (let k = this.segments.length - 1; k >= 0; k--)
      this.writer.enqueue({ kind: 'unlink', segment: this.segments[k]! });
    this.segments = [];
    this.terms = [];
    this.offsets = [];
    this.dataBytes = [];
    this.first = meta.index + 1;
    this.prevTerm = meta.term;
    this.meta = meta;
    this.resets += 1;
    this.writtenIndex = Math.min(this.writtenIndex, meta.index);
    this.cache.reset(meta.index + 1);
    return this.commitMarking(meta.index);
  }

  /** Resolves once every change made so far is durable. */
  sync(): Promise<void> {
    return this.writer.commit();
  }

  /** Waits for queued writes, then closes the files. The store is unusable afterwards. */
  async close(): Promise<void> {
    await this.writer.idle();
    for (const s of this.segments) {
      if (s.fd >= 0) this.fs.close(s.fd);
      s.fd = -1;
    }
  }

  private commitMarking(index: number): Promise<void> {
    const resets = this.resets;
    this.writer.enqueue({
      kind: 'durable',
      callback: () => {
        if (resets !== this.resets) return; // truncated since: the next report will be accurate
        this.writtenIndex = Math.max(this.writtenIndex, index);
        this.cache.evict(this.writtenIndex);
      },
    });
    return this.writer.commit();
  }

  /** How many leading `entries` the log already holds with the same index and term (from the in-memory table). */
  protected matchingPrefix(entries: readonly Entry[]): number {
    const base = entries[0]!.index - this.first;
    const n = Math.min(entries.length, this.terms.length - base);
    let k = 0;
    while (k < n && this.terms[base + k] === entries[k]!.term) k += 1;
    return k;
  }

  private truncateFrom(index: number): void {
    // The segment that keeps index - 1 (or, at a segment start, that becomes empty).
    let k = this.segments.length - 1;
    while (this.segments[k]!.firstIndex > index) k -= 1;
    // Newest first, each unlink durable before the next: a crash leaves a contiguous log.
    for (let m = this.segments.length - 1; m > k; m--)
      this.writer.enqueue({ kind: 'unlink', segment: this.segments[m]! });
    this.segments.length = k + 1;
    const segment = this.segments[k]!;
    const offset = this.offsets[index - this.first]!;
    this.writer.enqueue({ kind: 'truncate', segment, bytes: offset });
    segment.bytes = offset;
    const keep = index - this.first;
    this.terms.length = keep;
    this.offsets.length = keep;
    this.dataBytes.length = keep;
    this.cache.truncateFrom(index);
    this.resets += 1;
    this.writtenIndex = Math.min(this.writtenIndex, index - 1);
  }

  private createSegment(firstIndex: number): Segment {
    const segment: Segment = {
      firstIndex,
      prevTerm: this.term(firstIndex - 1)!,
      path: join(this.logDir, segmentFileName(firstIndex)),
      fd: -1,
      bytes: SEGMENT_HEADER_BYTES,
    };
    this.segments.push(segment);
    this.writer.enqueue({ kind: 'create', segment });
    return segment;
  }

  private segmentOf(index: number): Segment {
    let lo = 0;
    let hi = this.segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.segments[mid]!.firstIndex <= index) lo = mid;
      else hi = mid - 1;
    }
    return this.segments[lo]!;
  }

  private segmentLastIndex(segment: Segment): number {
    const k = this.segments.indexOf(segment);
    const next = this.segments[k + 1];
    return next === undefined ? this.lastIndex() : next.firstIndex - 1;
  }

  /** Reads entries [lo, hi) of one segment from disk, verifying every frame. */
  private readRun(segment: Segment, lo: number, hi: number): Entry[] {
    const start = this.offsets[lo - this.first]!;
    const end = this.offsets[hi - 1 - this.first]! + frameBytes(this.dataBytes[hi - 1 - this.first]!);
    const buf = Buffer.allocUnsafe(end - start);
    const got = readAt(segment.fd, buf, start, this.fs);
    if (got < buf.length) throw new CorruptionError(segment.path, start + got, 'unexpected end of file');
    const out: Entry[] = [];
    let offset = 0;
    for (let i = lo; i < hi; i++) {
      const frame = decodeFrame(buf, offset, buf.length, this.maxEntryBytes, false);
      if (frame.status !== 'ok' || frame.entry.index !== i) {
        const detail = frame.status === 'bad' ? frame.reason : `expected entry ${i}`;
        throw new CorruptionError(segment.path, start + offset, detail);
      }
      out.push(frame.entry);
      offset = frame.next;
    }
    return out;
  }
}
