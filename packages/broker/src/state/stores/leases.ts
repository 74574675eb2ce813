/**
 * Run leases as one apply batch sees and changes them: the state machine's
 * lease index (lease-index.ts) with this batch's changes over it. A lease
 * command makes one run; settling or extending offsets changes a copy of the
 * run made once per command, and each run a command changed is written once
 * at its end (`endCommand`: the record, or its delete once no offset is
 * open). A command that fails leaves nothing: every change has its undo step.
 */
import { tagKeyOf } from '../../keys.js';
import { encodeLease } from '../codec/lease.js';
import { NS, u64 } from '../model/layout.js';
import { type LeaseRun, offsetSettled, type RunHold } from '../model/records.js';
import type { HeldRef, LeaseIndex } from './lease-index.js';
import type { Txn } from './txn.js';

type Draft = {
  -readonly [K in keyof LeaseRun]: LeaseRun[K];
} & { extendedEndMs: Map<number, number>; keys: Uint8Array[]; startOffsets: number[] };

const recordKey = (leaseId: bigint): Uint8Array => NS.leases.key(u64(leaseId));

export class LeaseStore {
  /** The runs this batch made or changed, as they are now (`open` 0: its record is deleted). */
  private readonly runs = new Map<bigint, LeaseRun>();
  /** Holds this batch made (a new run's offsets), by entry key: read before the index. */
  private readonly holds = new Map<string, HeldRef>();
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
    const id = tagKeyOf(key);
    const ref = this.holds.get(id) ?? this.index.heldRef(id);
    const run = ref && this.run(ref.leaseId);
    if (!run || !ref || run.open === 0 || offsetSettled(run, ref.offset)) return undefined;
    return { run, offset: ref.offset };
  }

  /**
   * A new run (the lease id is new: checked by the lease command's id
   * claim), written at the end of the command. Returns the run to `add` to.
   */
  begin(run: Omit<LeaseRun, 'keys' | 'startOffsets' | 'settled' | 'extendedEndMs' | 'open'>): LeaseRun {
    const draft: Draft = {
      ...run,
      keys: [],
      startOffsets: [],
      settled: new Uint8Array(0),
      extendedEndMs: new Map(),
      open: 0,
    };
    this.track(draft);
    return draft;
  }

  /** Adds the entry under `key` to a run `begin` made in this command; returns its offset. */
  add(run: LeaseRun, key: Uint8Array, startMs: number): number {
    const draft = this.drafts.get(run.leaseId);
    if (!draft || draft !== run) throw new RangeError(`run ${run.leaseId} was not begun by this command`);
    const offset = draft.keys.length;
    draft.keys.push(key.slice());
    draft.startOffsets.push(startMs - draft.nowMs);
    if ((offset & 7) === 0) {
      const settled = new Uint8Array((offset >> 3) + 1);
      settled.set(draft.settled);
      draft.settled = settled;
    }
    draft.open++;
    const id = tagKeyOf(key);
    const before = this.holds.get(id);
    this.holds.set(id, { leaseId: draft.leaseId, offset });
    this.txn.onRollback(() => {
      if (before) this.holds.set(id, before);
      else this.holds.delete(id);
    });
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
    this.draft(hold.run.leaseId).extendedEndMs.set(hold.offset, endMs);
  }

  /** The command's copy of a run, made on its first change in the command. */
  private draft(leaseId: bigint): Draft {
    const mine = this.drafts.get(leaseId);
    if (mine) return mine;
    const run = this.run(leaseId);
    if (!run) throw new RangeError(`no run lease ${leaseId}`);
    const draft: Draft = {
      ...run,
      keys: run.keys as Uint8Array[],
      startOffsets: run.startOffsets as number[],
      settled: run.settled.slice(),
      extendedEndMs: new Map(run.extendedEndMs),
    };
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

  /** The command applied: each run it changed is written once, or deleted once no offset is open. */
  endCommand(): void {
    for (const draft of this.drafts.values()) {
      if (draft.open > 0) this.txn.put(recordKey(draft.leaseId), encodeLease(draft));
      else if (draft.keys.length > 0) this.txn.del(recordKey(draft.leaseId));
      // A run that leased nothing was never written: it leaves nothing.
    }
    this.drafts.clear();
  }

  /** What the batch changed, for the index once the batch is written. */
  changes(): ReadonlyMap<bigint, LeaseRun> {
    return this.runs;
  }
}
