/**
 * A simulated disk for one node: the Raft log, hard state, snapshot file and
 * address book, each with a durable image that survives `crash()` and a
 * current view. Writes become durable in order after a random delay; a crash
 * loses every write not yet durable, except that the log write in progress may
 * leave a prefix of its entries (a torn write: the real store keeps the
 * records before the torn one and drops the rest, see log-store.ts).
 */
import type { SnapshotInfo, SnapshotReader } from '../../log/snapshot-store.js';
import type { LogStorage, SmallFile, SnapshotStorage, StableStorage } from '../../node/ports.js';
import type { Entry, HardState, SnapshotMeta } from '../../types.js';
import type { Prng } from '../prng.js';
import type { SimScheduler } from './sim-scheduler.js';

interface LogImage {
  first: number;
  prevTerm: number;
  entries: Entry[];
  meta: SnapshotMeta;
}

type LogOp =
  | { kind: 'append'; from: number; entries: readonly Entry[] }
  | { kind: 'meta'; meta: SnapshotMeta }
  | { kind: 'compact'; index: number }
  | { kind: 'install'; meta: SnapshotMeta };

const EMPTY_META: SnapshotMeta = { index: 0, term: 0, conf: { voters: [], learners: [] } } as SnapshotMeta;

function cloneImage(i: LogImage): LogImage {
  return { first: i.first, prevTerm: i.prevTerm, entries: i.entries.slice(), meta: i.meta };
}

function applyOp(img: LogImage, op: LogOp): void {
  switch (op.kind) {
    case 'append': {
      img.entries.length = Math.max(0, op.from - img.first);
      img.entries.push(...op.entries);
      return;
    }
    case 'meta':
      img.meta = op.meta;
      return;
    case 'compact': {
      const n = op.index - img.first + 1;
      if (n <= 0) return;
      img.prevTerm = img.entries[n - 1]?.term ?? img.prevTerm;
      img.entries.splice(0, n);
      img.first = op.index + 1;
      return;
    }
    case 'install':
      img.meta = op.meta;
      img.entries = [];
      img.first = op.meta.index + 1;
      img.prevTerm = op.meta.term;
  }
}

export interface SimDiskOptions {
  /** Delay of one write becoming durable, ms (uniform). */
  readonly writeDelayMs: readonly [number, number];
  /** Chance that a crash tears the log write in progress (keeps a prefix of it). */
  readonly tornWriteChance: number;
}

/** A node's disk: survives crashes; `open()` hands out a fresh set of ports over what is durable. */
export class SimDisk {
  private durableLog: LogImage = { first: 1, prevTerm: 0, entries: [], meta: EMPTY_META };
  private durableHard: HardState = { term: 0, vote: '', commit: 0 };
  private durableSnapshot: { meta: SnapshotMeta; data: Uint8Array } | undefined;
  private durableBook: Uint8Array | undefined;
  /** Writes issued and not yet durable, in order; each is made durable by its event. */
  private pending: { op: () => void; tear?: (keep: number) => void; tearable: number }[] = [];
  private generation = 0;
  readonly stats = { writes: 0, crashes: 0, tornWrites: 0 };

  constructor(
    private readonly sched: SimScheduler,
    private readonly rng: Prng,
    private readonly name: string,
    private readonly options: SimDiskOptions,
  ) {}

  /** Power loss: unsynced writes are lost, the log write in progress may be torn. */
  crash(): void {
    this.stats.crashes++;
    const first = this.pending[0];
    if (first?.tear && first.tearable >= 1 && this.rng.chance(this.options.tornWriteChance)) {
      this.stats.tornWrites++;
      first.tear(this.rng.int(0, first.tearable - 1));
    }
    this.pending = [];
    this.generation++;
  }

  /** Schedules a write: durable (and resolved) after the disk's delay, in issue order. */
  private write(op: () => void, tear?: { keep: (n: number) => void; entries: number }): Promise<void> {
    this.stats.writes++;
    const gen = this.generation;
    return new Promise<void>((resolve) => {
      const item = {
        op: () => {
          op();
          resolve();
        },
        ...(tear ? { tear: tear.keep, tearable: tear.entries } : { tearable: 0 }),
      };
      this.pending.push(item);
      const [lo, hi] = this.options.writeDelayMs;
      this.sched.at(
        this.rng.int(lo, hi),
        () => `${this.name} disk write`,
        () => {
          if (gen !== this.generation) return;
          // Durable in issue order: everything issued before this write too.
          while (this.pending.length > 0) {
            const next = this.pending.shift()!;
            next.op();
            if (next === item) break;
          }
        },
      );
    });
  }

  log(): LogStorage {
    const view = cloneImage(this.durableLog);
    const disk = this;
    const logOp = (op: LogOp): Promise<void> => {
      applyOp(view, op);
      const tear =
        op.kind === 'append'
          ? {
              entries: op.entries.length,
              keep: (n: number) => applyOp(disk.durableLog, { ...op, entries: op.entries.slice(0, n) }),
            }
          : undefined;
      return disk.write(() => applyOp(disk.durableLog, op), tear);
    };
    return {
      firstIndex: () => view.first,
      lastIndex: () => view.first + view.entries.length - 1,
      term(index) {
        if (index === view.first - 1) return view.prevTerm;
        return index >= view.first ? view.entries[index - view.first]?.term : undefined;
      },
      entries(lo, hi, maxBytes) {
        const last = view.first + view.entries.length;
        if (!(view.first <= lo && lo <= hi && hi <= last)) {
          throw new Error(`entries(${lo}, ${hi}) outside [${view.first}, ${last})`);
        }
        const out: Entry[] = [];
        let bytes = 0;
        for (let i = lo; i < hi; i++) {
          const e = view.entries[i - view.first]!;
          if (out.length > 0 && bytes + e.data.length > maxBytes) break;
          bytes += e.data.length;
          out.push(e);
        }
        return out;
      },
      snapshotMeta: () => view.meta,
      append(entries) {
        if (entries.length === 0) return Promise.resolve();
        return logOp({ kind: 'append', from: entries[0]!.index, entries: entries.slice() });
      },
      recordSnapshot: (meta) => logOp({ kind: 'meta', meta }),
      compact(index) {
        if (index > view.meta.index)
          throw new Error(`compact(${index}) beyond the recorded snapshot ${view.meta.index}`);
        return logOp({ kind: 'compact', index });
      },
      installSnapshot: (meta) => logOp({ kind: 'install', meta }),
      close: () => Promise.resolve(),
      get fsyncs() {
        return disk.stats.writes;
      },
      entriesSynced: 0,
    };
  }

  stable(): StableStorage {
    let current = this.durableHard;
    return {
      get: () => current,
      save: (state) => {
        current = { ...state };
        return this.write(() => {
          this.durableHard = { ...state };
        });
      },
    };
  }

  snapshots(): SnapshotStorage {
    let current = this.durableSnapshot;
    const info = (s: { meta: SnapshotMeta; data: Uint8Array }): SnapshotInfo => ({
      meta: s.meta,
      dataBytes: s.data.length,
      crc32: 0,
    });
    return {
      latest: () => Promise.resolve(current ? info(current) : undefined),
      read: () => {
        const s = current;
        if (!s) return Promise.resolve(undefined);
        const reader: SnapshotReader = {
          ...info(s),
          chunks: (async function* () {
            yield s.data;
          })(),
          close: () => Promise.resolve(),
        };
        return Promise.resolve(reader);
      },
      write: async (meta, chunks) => {
        const parts: Uint8Array[] = [];
        for await (const c of chunks) parts.push(c);
        if (current && current.meta.index >= meta.index) return info(current);
        const s = { meta, data: Buffer.concat(parts) };
        current = s;
        await this.write(() => {
          this.durableSnapshot = s;
        });
        return info(s);
      },
    };
  }

  addressBook(): SmallFile {
    let current = this.durableBook;
    return {
      read: () => current,
      write: (bytes) => {
        const copy = Uint8Array.from(bytes);
        current = copy;
        return this.write(() => {
          this.durableBook = copy;
        });
      },
    };
  }
}
