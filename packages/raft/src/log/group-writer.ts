/**
 * Executes the log store's file operations in order, in groups: every operation
 * queued while a group is being written and synced goes into the next group,
 * which costs one write and one fdatasync per segment it touches (normally one).
 * That is the group commit: under load, many appends share each fsync.
 *
 * Ordering rules that keep recovery unambiguous after a crash at any point:
 *  - a new segment is created only after the segments written before it in the
 *    group are synced, so only the final segment can have a torn tail;
 *  - each unlink is made durable (directory fsync) before the next operation,
 *    so the store can choose an unlink order that always leaves a contiguous log;
 *  - a truncation is synced before anything is written after it.
 * A failed write or sync poisons the writer: the page cache can no longer be
 * trusted, so every later commit is rejected and the node must restart.
 */
import { closeSync, fdatasync, ftruncateSync, openSync, rmSync, write, writeSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import type { SnapshotMeta } from '../types.js';
import { fsyncDirectory } from './atomic-file.js';
import { encodeSegmentHeader } from './frame.js';
import { writeSnapshotMetaFile } from './snapshot-meta-file.js';

const fdatasyncAsync = promisify(fdatasync);
const writeAsync = promisify(write);

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

/** One group's sync, reported to `onFsync` (e.g. for a latency histogram). */
export interface FsyncSample {
  readonly durationMs: number;
  readonly entries: number;
  readonly bytes: number;
}

export class GroupWriter {
  /** fdatasync calls on segment files. */
  fsyncs = 0;
  /** Entries made durable by those calls. */
  entriesSynced = 0;
  private pending: WriteOp[] = [];
  private waiters: Array<{ resolve: () => void; reject: (err: unknown) => void }> = [];
  private running: Promise<void> | undefined;
  private failure: unknown;

  constructor(
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
        this.failure ??= err;
        for (const w of waiters) w.reject(err);
      }
    }
    this.running = undefined;
  }

  private async execute(ops: readonly WriteOp[]): Promise<void> {
    const dirty = new Set<Segment>();
    const callbacks: Array<() => void> = [];
    let entries = 0;
    let bytes = 0;
    const syncDirty = async () => {
      if (dirty.size === 0) return;
      const startMs = performance.now();
      for (const segment of dirty) {
        await fdatasyncAsync(segment.fd);
        this.fsyncs += 1;
      }
      dirty.clear();
      this.entriesSynced += entries;
      this.onFsync?.({ durationMs: performance.now() - startMs, entries, bytes });
      entries = 0;
      bytes = 0;
    };

    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      switch (op.kind) {
        case 'create': {
          await syncDirty();
          const fd = openSync(op.segment.path, 'w+');
          writeSync(fd, encodeSegmentHeader(op.segment));
          await fdatasyncAsync(fd);
          this.fsyncs += 1;
          fsyncDirectory(this.logDir);
          op.segment.fd = fd;
          break;
        }
        case 'write': {
          // Coalesce the run of contiguous writes to this segment into one write.
          const frames: Buffer[] = [...op.frames];
          let end = op.offset + byteLength(op.frames);
          entries += op.entries;
          let next = ops[i + 1];
          while (next?.kind === 'write' && next.segment === op.segment && next.offset === end) {
            frames.push(...next.frames);
            end += byteLength(next.frames);
            entries += next.entries;
            i += 1;
            next = ops[i + 1];
          }
          const buf = frames.length === 1 ? frames[0]! : Buffer.concat(frames);
          await writeAll(op.segment.fd, buf, op.offset);
          bytes += buf.length;
          dirty.add(op.segment);
          break;
        }
        case 'truncate':
          await syncDirty();
          ftruncateSync(op.segment.fd, op.bytes);
          await fdatasyncAsync(op.segment.fd);
          this.fsyncs += 1;
          break;
        case 'unlink':
          if (op.segment.fd >= 0) closeSync(op.segment.fd);
          op.segment.fd = -1;
          rmSync(op.segment.path, { force: true });
          fsyncDirectory(this.logDir);
          break;
        case 'meta':
          await writeSnapshotMetaFile(this.metaPath, op.meta);
          break;
        case 'durable':
          callbacks.push(op.callback);
          break;
      }
    }
    await syncDirty();
    for (const callback of callbacks) callback();
  }
}

function byteLength(frames: readonly Buffer[]): number {
  let n = 0;
  for (const f of frames) n += f.length;
  return n;
}

async function writeAll(fd: number, buf: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < buf.length) {
    const { bytesWritten } = await writeAsync(fd, buf, done, buf.length - done, position + done);
    done += bytesWritten;
  }
}
