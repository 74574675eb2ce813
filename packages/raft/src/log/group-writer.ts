/**
 * Executes the log store's file operations in order, in groups: every operation
 * queued while a group is being written goes into the next group, which costs
 * one synchronous write per segment it touches (normally one). That is the
 * group commit: under load, many appends share each write to the disk.
 *
 * On Linux, segment files are opened with O_DSYNC (`FileSystem.syncWrites`), so a write returns once its
 * data and the metadata needed to read it back (the file's size) are on disk,
 * as a write followed by fdatasync would: one request to libuv's thread pool
 * and one wake of the event loop per group instead of two. Elsewhere (no
 * O_DSYNC on Windows; on macOS it does not flush the drive's cache, where
 * libuv's fdatasync uses F_FULLFSYNC) each write is followed by fdatasync.
 *
 * Ordering rules that keep recovery unambiguous after a crash at any point:
 *  - a new segment is created only after the segments written before it in the
 *    group are durable, so only the final segment can have a torn tail;
 *  - each unlink is made durable (directory fsync) before the next operation,
 *    so the store can choose an unlink order that always leaves a contiguous log;
 *  - a truncation is synced before anything is written after it.
 * A failed write or sync poisons the writer: the page cache can no longer be
 * trusted, so every later commit is rejected and the node must restart.
 * One failure does not: a write the file system refused for room (ENOSPC from
 * the write or the create of a segment, never from a sync or a truncation;
 * `isRetryable`). Its bytes never reached the page cache, so nothing can have
 * been dropped there: the failed operation and everything queued after it stay
 * queued, the waiters are rejected, and the next commit writes the same bytes
 * again at the same offsets (a full rewrite, never a sync alone).
 */
import { performance } from 'node:perf_hooks';
import type { SnapshotMeta } from '../types.js';
import { fsyncDirectory } from './atomic-file.js';
import { isRetryable, StorageError } from './errors.js';
import type { FileSystem } from './file-system.js';
import { encodeSegmentHeader } from './frame.js';
import { writeSnapshotMetaFile } from './snapshot-meta-file.js';

/** How a segment file is opened: its writes are durable when they return where the file system can (O_DSYNC). */
export const SEGMENT_OPEN = { write: true, dsync: true } as const;

/** A segment file as both the store and the writer see it. */
export interface Segment {
  readonly firstIndex: number;
  /** Term of entry firstIndex - 1. */
  readonly prevTerm: number;
  readonly path: string;
  /** Open file descriptor; -1 until the writer has created the file. */
  fd: number;
  /** Size including writes still queued. */
  bytes: number;
}

export type WriteOp =
  | { readonly kind: 'create'; readonly segment: Segment }
  | {
      readonly kind: 'write';
      readonly segment: Segment;
      readonly offset: number;
      readonly frames: Buffer[];
      readonly entries: number;
    }
  | { readonly kind: 'truncate'; readonly segment: Segment; readonly bytes: number }
  | { readonly kind: 'unlink'; readonly segment: Segment }
  | { readonly kind: 'meta'; readonly meta: SnapshotMeta }
  /** Runs once everything queued before it is durable. */
  | { readonly kind: 'durable'; readonly callback: () => void };

/** One durable write (the coalesced writes of a group to one segment) or fdatasync, reported to `onFsync` (e.g. for a latency histogram); its duration includes the write. */
export interface FsyncSample {
  readonly durationMs: number;
  readonly entries: number;
  readonly bytes: number;
}

export class GroupWriter {
  /** Synchronous writes (and fdatasync calls) on segment files. */
  fsyncs = 0;
  /** Entries made durable by those calls. */
  entriesSynced = 0;
  private pending: WriteOp[] = [];
  private waiters: Array<{ resolve: () => void; reject: (err: unknown) => void }> = [];
  private running: Promise<void> | undefined;
  private failure: unknown;

  constructor(
    private readonly fs: FileSystem,
    private readonly logDir: string,
    private readonly metaPath: string,
    private readonly onFsync: ((sample: FsyncSample) => void) | undefined,
  ) {}

  enqueue(op: WriteOp): void {
    this.pending.push(op);
  }

  /** Resolves once every operation enqueued so far is durable. */
  commit(): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.running ??= this.run();
    return done;
  }

  /** Waits for the group in progress (if any) and everything queued behind it. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async run(): Promise<void> {
    while (this.waiters.length > 0) {
      const ops = this.pending;
      const waiters = this.waiters;
      this.pending = [];
      this.waiters = [];
      try {
        if (this.failure !== undefined) throw this.failure;
        await this.execute(ops);
        for (const w of waiters) w.resolve();
      } catch (err) {
        if (!(err instanceof NoRoom)) this.failure ??= err;
        for (const w of waiters) w.reject(err instanceof NoRoom ? err.error : err);
      }
    }
    this.running = undefined;
  }

  private async execute(ops: readonly WriteOp[]): Promise<void> {
    const callbacks: Array<() => void> = [];
    for (let i = 0; i < ops.length; i++) {
      const start = i;
      const ran = callbacks.length;
      try {
        i = await this.executeOne(ops, i, callbacks);
      } catch (error) {
        if (!isRetryable(error)) throw error;
        // Refused for room: what ran before is durable; the rest waits for the next commit.
        callbacks.length = ran;
        for (const callback of callbacks) callback();
        this.pending = [...ops.slice(start), ...this.pending];
        throw new NoRoom(error);
      }
    }
    for (const callback of callbacks) callback();
  }

  /** Runs `ops[i]` (and the writes it coalesces); returns the index of the last op it consumed. */
  private async executeOne(
    ops: readonly WriteOp[],
    i: number,
    callbacks: Array<() => void>,
  ): Promise<number> {
    const fs = this.fs;
    const op = ops[i]!;
    switch (op.kind) {
      case 'create': {
        const path = op.segment.path;
        // Again after a create refused for room: the file starts over (O_TRUNC).
        if (op.segment.fd >= 0) fs.close(op.segment.fd);
        op.segment.fd = -1;
        const fd = failing('create', path, () => fs.open(path, { ...SEGMENT_OPEN, create: true }));
        op.segment.fd = fd; // closed with the segment, even if the header write fails
        await failingAsync('write', path, () =>
          this.writeDurably(fd, encodeSegmentHeader(op.segment), 0, path),
        );
        this.fsyncs += 1;
        failing('fsync', this.logDir, () => fsyncDirectory(this.logDir, fs));
        break;
      }
      case 'write': {
        // Coalesce the run of contiguous writes to this segment into one write
        // (the callbacks between them run at the group's end in any case).
        const frames: Buffer[] = [...op.frames];
        let end = op.offset + byteLength(op.frames);
        let entries = op.entries;
        for (let next = ops[i + 1]; next !== undefined; next = ops[i + 1]) {
          if (next.kind === 'durable') callbacks.push(next.callback);
          else if (next.kind === 'write' && next.segment === op.segment && next.offset === end) {
            frames.push(...next.frames);
            end += byteLength(next.frames);
            entries += next.entries;
          } else break;
          i += 1;
        }
        const buf = frames.length === 1 ? frames[0]! : Buffer.concat(frames);
        const startMs = performance.now();
        try {
          await this.writeDurably(op.segment.fd, buf, op.offset, op.segment.path);
        } catch (error) {
          throw StorageError.of('write', op.segment.path, error);
        }
        this.fsyncs += 1;
        this.entriesSynced += entries;
        this.onFsync?.({ durationMs: performance.now() - startMs, entries, bytes: buf.length });
        break;
      }
      case 'truncate': {
        const { fd, path } = op.segment;
        failing('truncate', path, () => fs.truncate(fd, op.bytes));
        await failingAsync('fdatasync', path, () => fs.fdatasync(fd));
        this.fsyncs += 1;
        break;
      }
      case 'unlink':
        if (op.segment.fd >= 0) fs.close(op.segment.fd);
        op.segment.fd = -1;
        failing('unlink', op.segment.path, () => {
          fs.unlink(op.segment.path);
          fsyncDirectory(this.logDir, fs);
        });
        break;
      case 'meta':
        await writeSnapshotMetaFile(this.metaPath, op.meta, fs);
        break;
      case 'durable':
        callbacks.push(op.callback);
        break;
    }
    return i;
  }

  /** Writes `buf` at `position`; resolves once it is on disk. */
  private async writeDurably(fd: number, buf: Buffer, position: number, path: string): Promise<void> {
    let done = 0;
    while (done < buf.length) done += await this.fs.write(fd, buf, done, buf.length - done, position + done);
    if (!this.fs.syncWrites) {
      // A failed sync is never retried, whatever its code: named so (isRetryable).
      await failingAsync('fdatasync', path, () => this.fs.fdatasync(fd));
    }
  }
}

/** A group stopped by a write refused for room (`error`); its operations are queued again. */
class NoRoom extends Error {
  constructor(readonly error: unknown) {
    super('refused for room');
  }
}

function byteLength(frames: readonly Buffer[]): number {
  let n = 0;
  for (const f of frames) n += f.length;
  return n;
}

/** Runs a file operation; its failure is a StorageError naming it. */
function failing<T>(operation: string, file: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw StorageError.of(operation, file, error);
  }
}

async function failingAsync<T>(operation: string, file: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw StorageError.of(operation, file, error);
  }
}
