/**
 * Run leases as one apply batch sees and changes them: the state machine's
 * lease index (lease-index.ts) with this batch's changes over it. A lease
 * command makes one run, whose record is written once, at the end of the
 * command. Settling or extending offsets changes a copy of the run made
 * once per command (sharing the keys and starts, which never change), and
 * each run a command changed gets its settles record written once at the
 * command's end (`endCommand`), or both its records deleted once no offset
 * is open. A command that fails leaves nothing: every change has its undo
 * step.
 */
import { KEY_BYTES } from '../../keys.js';
import { encodeLease, encodeLeaseSettles } from '../codec/lease.js';
import { NS, u64 } from '../model/layout.js';
import {
  aloneInStore,
  type LeaseRun,
  offsetSettled,
  type QueueEntryRec,
  type RunHold,
} from '../model/records.js';
import { HeldMap, type HeldRef, type LeaseIndex } from './lease-index.js';
import type { Txn } from './txn.js';

type Draft = {
  -readonly [K in keyof LeaseRun]: LeaseRun[K];
} & {
  extendedEndMs: ReadonlyMap<number, number>;
  startOffsets: number[];
  /** Begun by the command being applied: its record is written at the command's end. */
  made: boolean;
};

/** What a run is made with: the lease command's fields. */
type RunHead = Omit<
  LeaseRun,
  'length' | 'keyBytes' | 'startOffsets' | 'sideRecords' | 'settled' | 'extendedEndMs' | 'open'
>;

/** A draft of `head` with `parts`: one literal with every field (one V8 shape for every run). */
function draftOf(head: RunHead, parts: Omit<Draft, keyof RunHead>): Draft {
  return {
    leaseId: head.leaseId,
    topic: head.topic,
    group: head.group,
    queueHash: head.queueHash,
    consumer: head.consumer,
    nowMs: head.nowMs,
    leaseMs: head.leaseMs,
    length: parts.length,
    keyBytes: parts.keyBytes,
    startOffsets: parts.startOffsets,
    sideRecords: parts.sideRecords,
    settled: parts.settled,
    extendedEndMs: parts.extendedEndMs,
    open: parts.open,
    made: parts.made,
  };
}

const recordKey = (leaseId: bigint): Uint8Array => NS.leases.key(u64(leaseId));
const settlesKey = (leaseId: bigint): Uint8Array => NS.leaseSettles.key(u64(leaseId));

/** A bitmap of `n` bits with the first `bytes.length * 8` of `bytes`. */
function grown(bytes: Uint8Array, n: number): Uint8Array {
  const out = new Uint8Array((n + 7) >> 3);
  out.set(bytes.subarray(0, out.length));
  return out;
}

export class LeaseStore {
  /** The runs this batch made or changed, as they are now (`open` 0: its records are deleted). */
  private readonly runs = new Map<bigint, LeaseRun>();
  /** Holds this batch made (a new run's offsets): read before the index. */
  private readonly holds = new HeldMap();
  /** What each hold of `holds` replaced there, in order: undone back to a mark when a command fails. */
  private readonly holdsUndo: { key: Uint8Array; before: HeldRef | undefined }[] = [];
  /** The Txn generation whose undo step restores `holds` (one step per command, not per key). */
  private holdsIn = -1;
  /** The runs the command being applied changed (drafts of its own, written at its end). */
  private readonly drafts = new Map<bigint, Draft>();

  constructor(
    private readonly txn: Txn,
    private readonly index: LeaseIndex,
  ) {}

  run(leaseId: bigint): LeaseRun | undefined {
    return this.runs.get(leaseId) ?? this.index.run(leaseId);
  }

  /** The open offset of a run lease that holds the entry under `key`, if one does. */
  holder(key: Uint8Array): RunHold | undefined {
    const ref = this.holds.get(key) ?? this.index.heldRef(key);
    const run = ref && this.run(ref.leaseId);
    if (!run || !ref || run.open === 0 || offsetSettled(run, ref.offset)) return undefined;
    return { run, offset: ref.offset };
  }

  /**
   * A new run of at most `capacity` offsets (the lease id is new: checked by
   * the lease command's id claim), written at the end of the command.
   * Returns the run to `add` to.
   */
  begin(run: RunHead, capacity: number): LeaseRun {
    const bitmap = (capacity + 7) >> 3;
    const draft = draftOf(run, {
      length: 0,
      keyBytes: new Uint8Array(capacity * KEY_BYTES),
      startOffsets: [],
      sideRecords: new Uint8Array(bitmap),
      settled: new Uint8Array(bitmap),
      extendedEndMs: NO_EXTENSIONS,
      open: 0,
      made: true,
    });
    this.track(draft);
    return draft;
  }

  /**
   * Adds the entry `entry` under `key` to a run `begin` made in this command;
   * returns its offset.
   */
  add(run: LeaseRun, key: Uint8Array, entry: QueueEntryRec, startMs: number): number {
    const draft = this.drafts.get(run.leaseId);
    if (!draft || draft !== run || !draft.made)
      throw new RangeError(`run ${run.leaseId} was not begun by this command`);
    const offset = draft.length;
    if ((offset + 1) * KEY_BYTES > draft.keyBytes.length) {
      throw new RangeError(`run ${run.leaseId} is full (${offset} offsets)`);
    }
    draft.keyBytes.set(key.subarray(0, KEY_BYTES), offset * KEY_BYTES);
    draft.startOffsets.push(startMs - draft.nowMs);
    if (!aloneInStore(entry)) {
      const at = offset >> 3;
      draft.sideRecords[at] = draft.sideRecords[at]! | (1 << (offset & 7));
    }
    draft.length++;
    draft.open++;
    if (this.holdsIn !== this.txn.generation) {
      this.holdsIn = this.txn.generation;
      const mark = this.holdsUndo.length;
      this.txn.onRollback(() => {
        while (this.holdsUndo.length > mark) {
          const { key: k, before } = this.holdsUndo.pop()!;
          this.holds.restore(k, before);
        }
        this.holdsIn = -1;
      });
    }
    const before = this.holds.set(draft.leaseId, offset, draft.keyBytes);
    this.holdsUndo.push({ key: key.subarray(0, KEY_BYTES), before });
    return offset;
  }

  /** The offset is over (acked, nacked, handed back, returned after it lapsed, its entry removed). */
  settle(hold: RunHold): void {
    const draft = this.draft(hold.run.leaseId);
    if (offsetSettled(draft, hold.offset)) return;
    const at = hold.offset >> 3;
    draft.settled[at] = draft.settled[at]! | (1 << (hold.offset & 7));
    draft.open--;
  }

  /** The offset's lease now ends at `endMs` (an extend). */
  extend(hold: RunHold, endMs: number): void {
    const draft = this.draft(hold.run.leaseId);
    const ends = new Map(draft.extendedEndMs);
    ends.set(hold.offset, endMs);
    draft.extendedEndMs = ends;
  }

  /** The command's copy of a run, made on its first change in the command. */
  private draft(leaseId: bigint): Draft {
    const mine = this.drafts.get(leaseId);
    if (mine) return mine;
    const run = this.run(leaseId);
    if (!run) throw new RangeError(`no run lease ${leaseId}`);
    // The parts no settle changes are shared, the bitmap copied.
    const draft = draftOf(run, {
      length: run.length,
      keyBytes: run.keyBytes,
      startOffsets: run.startOffsets as number[],
      sideRecords: run.sideRecords,
      settled: run.settled.slice(),
      extendedEndMs: run.extendedEndMs,
      open: run.open,
      made: false,
    });
    this.track(draft);
    return draft;
  }

  private track(draft: Draft): void {
    const had = this.runs.has(draft.leaseId);
    const before = this.runs.get(draft.leaseId);
    this.runs.set(draft.leaseId, draft);
    this.drafts.set(draft.leaseId, draft);
    this.txn.onRollback(() => {
      this.drafts.delete(draft.leaseId);
      if (had) this.runs.set(draft.leaseId, before!);
      else this.runs.delete(draft.leaseId);
    });
  }

  /** A command begins: nothing of it is changed yet. */
  beginCommand(): void {
    this.drafts.clear();
  }

  /**
   * The command applied: each run it made is written, each run it changed
   * gets its settles written, and a run with no open offset left loses both.
   */
  endCommand(): void {
    for (const draft of this.drafts.values()) {
      // A run that leased nothing was never written: it leaves nothing.
      if (draft.length === 0) continue;
      if (draft.made) {
        draft.made = false;
        // Its capacity was the command's tags: trimmed to what it leased (and kept so).
        if (draft.keyBytes.length > draft.length * KEY_BYTES) {
          draft.keyBytes = draft.keyBytes.slice(0, draft.length * KEY_BYTES);
          draft.sideRecords = grown(draft.sideRecords, draft.length);
          draft.settled = grown(draft.settled, draft.length);
        }
        // Over within the command that made it: never written.
        if (draft.open === 0) continue;
        this.txn.put(recordKey(draft.leaseId), encodeLease(draft));
        if (draft.open === draft.length && draft.extendedEndMs.size === 0) continue;
      }
      if (draft.open > 0) {
        this.txn.put(settlesKey(draft.leaseId), encodeLeaseSettles(draft));
      } else {
        this.txn.del(recordKey(draft.leaseId));
        this.txn.del(settlesKey(draft.leaseId));
      }
    }
    this.drafts.clear();
  }

  /** What the batch changed, for the index once the batch is written. */
  changes(): ReadonlyMap<bigint, LeaseRun> {
    return this.runs;
  }
}

const NO_EXTENSIONS: ReadonlyMap<number, number> = new Map();
