/**
 * A simulated disk for one node: what survives a crash is only what was
 * made durable. Each file (log, hard state, snapshot, address book) has its
 * own queue of writes that complete in order, after a random delay, so
 * writes to different files complete in any order, as they may on a real
 * disk when the code lets them run concurrently. A crash loses every write
 * not completed and may tear the one in progress (see each write's `torn`).
 */
import type { Entry, HardState, SnapshotMeta } from '../types.js';
import type { Prng } from './prng.js';

export type FileName = 'log' | 'hard-state' | 'snapshot' | 'members' | 'state-machine';

export interface DiskWrite {
  readonly what: string;
  /** Makes the write durable (it completed). */
  readonly land: () => void;
  /** The write truncates the file first (an append that replaces a suffix of the log). */
  readonly truncates?: boolean;
  /** A crash while this write is in progress: the part that reached the disk lands (`keep(n)` of n frames). */
  readonly torn?: (keep: (frames: number) => number) => void;
}

/** The durable Raft log: what LogStore's recovery would read back. */
export interface DurableLog {
  meta: SnapshotMeta;
  /** Index of entries[0]. */
  first: number;
  /** Term of entry first - 1. */
  prevTerm: number;
  entries: Entry[];
}

export interface DurableSnapshot {
  readonly meta: SnapshotMeta;
  readonly data: Uint8Array;
}

export interface Scheduler {
  /** Runs `run` after `delayMs` of virtual time (an event of the simulation's queue). */
  at(delayMs: number, describe: () => string, run: () => void): void;
  readonly prng: Prng;
}

const EMPTY_META: SnapshotMeta = { index: 0, term: 0, conf: { voters: [], learners: [] } };

export class SimDisk {
  log: DurableLog = { meta: EMPTY_META, first: 1, prevTerm: 0, entries: [] };
  hardState: HardState = { term: 0, vote: '', commit: 0 };
  snapshot: DurableSnapshot | undefined;
  members: Uint8Array | undefined;
  /** Bumped by every crash: writes of an earlier incarnation never land. */
  private incarnation = 0;
  private readonly queues = new Map<FileName, DiskWrite[]>();
  writes = 0;
  torn = 0;
  /** Files whose writes do not complete (tests); undefined = none held. */
  private held: Set<FileName> | 'all' | undefined;
  private readonly stalled = new Set<FileName>();
  /** Called after each write lands (an fsync boundary): the simulation may crash the node right there. */
  onLanded: ((file: FileName) => void) | undefined;
  /**
   * Called when a write starts, with the virtual ms it will take: the simulation may
   * crash the node while that write (a truncation, say) is in flight.
   */
  onStarted: ((file: FileName, write: DiskWrite, delayMs: number) => void) | undefined;

  constructor(
    readonly node: string,
    private readonly scheduler: Scheduler,
    /** Virtual ms one write takes: [min, max] (a simulation may slow a disk down and heal it). */
    public latencyMs: readonly [number, number],
  ) {}

  /** The current incarnation: the ports of a node capture it (see submitFor). */
  get generation(): number {
    return this.incarnation;
  }

  /**
   * Queues a write to `file` by the incarnation `generation` of the node; resolves once
   * it is durable (never, if a crash comes first). A crashed incarnation's code may
   * still be running (its promise chains are abandoned, not stopped): what it
   * submits never reaches the disk.
   */
  submitFor(generation: number, file: FileName, write: DiskWrite): Promise<void> {
    const incarnation = this.incarnation;
    if (generation !== incarnation) return new Promise<void>(() => undefined);
    return new Promise<void>((resolve) => {
      const queue = this.queues.get(file) ?? [];
      this.queues.set(file, queue);
      const wrapped: DiskWrite = {
        ...write,
        land: () => {
          write.land();
          resolve();
        },
      };
      queue.push(wrapped);
      if (queue.length === 1) this.startNext(file, incarnation);
    });
  }

  /** True while some write is queued or in progress. */
  busy(): boolean {
    for (const q of this.queues.values()) if (q.length > 0) return true;
    return false;
  }

  /** True while a write to `file` is queued or in progress. */
  writing(file: FileName): boolean {
    return (this.queues.get(file)?.length ?? 0) > 0;
  }

  /**
   * Power loss: queued writes are gone; the one in progress on each file may land in
   * part. `tear` (tests) decides instead of the PRNG: how many frames of the write in
   * progress survive, undefined for none of it.
   */
  crash(tear?: (frames: number) => number | undefined): void {
    this.incarnation++;
    this.held = undefined;
    const prng = this.scheduler.prng;
    for (const queue of this.queues.values()) {
      const inProgress = queue[0];
      if (!inProgress?.torn) continue;
      if (tear) {
        if (tear(1) === undefined) continue;
        inProgress.torn((n) => tear(n) ?? 0);
      } else if (prng.chance(0.75)) {
        inProgress.torn((n) => prng.int(0, n - 1));
      } else continue;
      this.torn++;
    }
    this.queues.clear();
    this.stalled.clear();
  }

  /** Tests: writes (to `files`, default all) stop completing (they stay in progress) until release(). */
  hold(files?: readonly FileName[]): void {
    this.held = files ? new Set(files) : 'all';
  }

  release(): void {
    this.held = undefined;
    for (const file of [...this.stalled]) {
      this.stalled.delete(file);
      this.startNext(file, this.incarnation);
    }
  }

  private startNext(file: FileName, incarnation: number): void {
    const queue = this.queues.get(file);
    const head = queue?.[0];
    if (!queue || !head) return;
    const [lo, hi] = this.latencyMs;
    const delayMs = this.scheduler.prng.int(lo, hi);
    this.scheduler.at(
      delayMs,
      () => `disk ${this.node} ${file} ${head.what}`,
      () => {
        if (incarnation !== this.incarnation) return;
        if (this.held === 'all' || this.held?.has(file)) {
          this.stalled.add(file);
          return;
        }
        queue.shift();
        this.writes++;
        head.land();
        this.startNext(file, incarnation);
        this.onLanded?.(file);
      },
    );
    this.onStarted?.(file, head, delayMs);
  }
}
