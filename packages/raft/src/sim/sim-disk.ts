/**
 * A simulated disk for one node: what survives a crash is only what was
 * made durable. The log, the hard state and the address book are real files
 * (the shipped LogStore, HardStateFile and atomic files) on a simulated file
 * system (`fs`, sim-file-system.ts, with the crash model at the file level);
 * the snapshot file and the state machine's store are simulated here whole.
 * Each file (category) has its own queue of durable operations (syncs,
 * O_DSYNC writes, snapshot writes, flushes) that complete in order, after a
 * random delay, so operations on different files complete in any order, as
 * they may on a real disk when the code lets them run concurrently.
 */
import { decodeHardState, HARD_STATE_FILE } from '../log/hard-state.js';
import type { HardState, SnapshotMeta } from '../types.js';
import type { Prng } from './prng.js';
import { type DurableQueue, type FileCategory, SimFileSystem } from './sim-file-system.js';

export type FileName = FileCategory | 'snapshot' | 'state-machine';

/** Where a node keeps its Raft files on its simulated file system. */
export const SIM_DATA_DIR = '/data';

export interface DiskWrite {
  readonly what: string;
  /** Makes the operation durable (it completed). */
  readonly land: () => void;
  /** The operation makes a truncation durable (a log write replacing a suffix). */
  readonly truncates?: boolean;
  /** Asked when the operation would complete: an error fails it instead (EIO). */
  readonly failure?: () => Error | undefined;
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

interface Queued {
  readonly write: DiskWrite;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

export class SimDisk implements DurableQueue {
  /** The node's files (log, hard state, snapshot meta, address book). */
  readonly fs: SimFileSystem;
  snapshot: DurableSnapshot | undefined;
  /** Bumped by every crash: operations of an earlier incarnation never complete. */
  private incarnation = 0;
  private readonly queues = new Map<FileName, Queued[]>();
  writes = 0;
  /** Files whose operations do not complete (tests); undefined = none held. */
  private held: Set<FileName> | 'all' | undefined;
  private readonly stalled = new Set<FileName>();
  /**
   * Files whose operations take this share of the drawn latency (none: all take it whole):
   * the small files replaced by rename (the hard state, the address book) sync faster than
   * the log, whose syncs carry the entries.
   */
  readonly latencyShare = new Map<FileName, number>();
  /** Called after each operation lands (an fsync boundary): the simulation may crash the node right there. */
  onLanded: ((file: FileName, write: DiskWrite) => void) | undefined;
  /**
   * Called when an operation starts, with the virtual ms it will take: the simulation
   * may crash the node while it (a truncation, say) is in flight.
   */
  onStarted: ((file: FileName, write: DiskWrite, delayMs: number) => void) | undefined;

  constructor(
    readonly node: string,
    private readonly scheduler: Scheduler,
    /** Virtual ms one operation takes: [min, max] (a simulation may slow a disk down and heal it). */
    public latencyMs: readonly [number, number],
    /** Whether writes to files opened with O_DSYNC are durable when they return (Linux), or need fdatasync. */
    syncWrites = true,
  ) {
    this.fs = new SimFileSystem(this, scheduler.prng, syncWrites);
  }

  /** The current incarnation: the ports of a node capture it (see submitFor). */
  get generation(): number {
    return this.incarnation;
  }

  /** Power losses that kept part of a pending change. */
  get torn(): number {
    return this.fs.torn;
  }

  /** The hard state a power loss now would leave (undefined: no file yet). */
  durableHardState(): HardState | undefined {
    const bytes = this.fs.durableFile(`${SIM_DATA_DIR}/${HARD_STATE_FILE}`);
    return bytes ? decodeHardState('hard-state', bytes.subarray(12)).state : undefined;
  }

  submit(
    generation: number,
    category: FileName,
    what: string,
    land: () => void,
    options: { readonly truncates?: boolean; readonly failure?: () => Error | undefined } = {},
  ): Promise<void> {
    return this.submitFor(generation, category, { what, land, ...options });
  }

  /**
   * Queues an operation on `file` by the incarnation `generation` of the node; resolves
   * once it is durable, rejects if it fails (never settles if a crash comes first). A
   * crashed incarnation's code may still be running (its promise chains are abandoned,
   * not stopped): what it submits never reaches the disk.
   */
  submitFor(generation: number, file: FileName, write: DiskWrite): Promise<void> {
    const incarnation = this.incarnation;
    if (generation !== incarnation) return new Promise<void>(() => undefined);
    return new Promise<void>((resolve, reject) => {
      const queue = this.queues.get(file) ?? [];
      this.queues.set(file, queue);
      queue.push({ write, resolve, reject });
      if (queue.length === 1) this.startNext(file, incarnation);
    });
  }

  /** True while some operation is queued or in progress. */
  busy(): boolean {
    for (const q of this.queues.values()) if (q.length > 0) return true;
    return false;
  }

  /** True while an operation on `file` is queued or in progress. */
  writing(file: FileName): boolean {
    return (this.queues.get(file)?.length ?? 0) > 0;
  }

  /**
   * Power loss: queued operations are gone; each file keeps its durable content and now
   * and then part of what was pending (sim-file-system.ts). `keep` (tests) decides instead
   * of the PRNG: how many of each file's pending changes land (undefined: none).
   */
  crash(keep?: (pending: number) => number | undefined): void {
    this.incarnation++;
    this.held = undefined;
    this.fs.crash(keep);
    this.queues.clear();
    this.stalled.clear();
  }

  /** Tests: operations (on `files`, default all) stop completing (they stay in progress) until release(). */
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
    const drawn = this.scheduler.prng.int(lo, hi);
    const share = this.latencyShare.get(file);
    const delayMs = share === undefined ? drawn : Math.max(1, Math.round(drawn * share));
    this.scheduler.at(
      delayMs,
      () => `disk ${this.node} ${file} ${head.write.what}`,
      () => {
        if (incarnation !== this.incarnation) return;
        if (this.held === 'all' || this.held?.has(file)) {
          this.stalled.add(file);
          return;
        }
        queue.shift();
        this.writes++;
        const error = head.write.failure?.();
        if (error) head.reject(error);
        else {
          head.write.land();
          head.resolve();
        }
        this.startNext(file, incarnation);
        this.onLanded?.(file, head.write);
      },
    );
    this.onStarted?.(file, head.write, delayMs);
  }
}
