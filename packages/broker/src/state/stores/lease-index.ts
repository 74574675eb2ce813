/**
 * The run leases of one state machine, in memory: every lease record
 * (records.proto LeaseRecord) with an open offset, and which entry key each
 * open offset holds. Rebuilt from the lease namespace at open and after a
 * snapshot restore; changed only by the apply batches, once each is written
 * (`merge`). Apply reads it through the batch's own changes (leases.ts);
 * the reads outside apply (the dispatcher's due read, GetMessage, lists)
 * read it as it is, the committed state. Its size is bounded by the open
 * offsets: a lapsed offset stays open until the leader leases its entry
 * again, which settles it.
 */
import type { ReadView } from '@fermata/storage';
import { tagKeyOf } from '../../keys.js';
import { decodeLease } from '../codec/lease.js';
import { NS, readU64 } from '../model/layout.js';
import { type LeaseRun, offsetSettled, type RunHold } from '../model/records.js';

/** An open offset: the run and the entry's place in it. */
export interface HeldRef {
  readonly leaseId: bigint;
  readonly offset: number;
}

export class LeaseIndex {
  private readonly runs = new Map<bigint, LeaseRun>();
  /** Per entry key (`tagKeyOf`), the open offset that holds it. */
  private readonly held = new Map<string, HeldRef>();

  /** Reads every lease record of the store (at open, and after a restore). */
  async build(view: ReadView): Promise<void> {
    this.runs.clear();
    this.held.clear();
    const runs: LeaseRun[] = [];
    await view.scan(NS.leases.range(), (k, v) => {
      runs.push(decodeLease(readU64(NS.leases.strip(k)), v));
    });
    for (const run of runs) this.set(run);
  }

  run(leaseId: bigint): LeaseRun | undefined {
    return this.runs.get(leaseId);
  }

  /** The open offset that holds the entry under `keyId` (`tagKeyOf` of its key). */
  heldRef(keyId: string): HeldRef | undefined {
    return this.held.get(keyId);
  }

  /** The run lease that holds the entry under `key`, if one does. */
  holder(key: Uint8Array): RunHold | undefined {
    const ref = this.held.get(tagKeyOf(key));
    const run = ref && this.runs.get(ref.leaseId);
    return run && ref ? { run, offset: ref.offset } : undefined;
  }

  /** The runs of a queue with an open offset. */
  runsOf(queueHash: bigint): LeaseRun[] {
    const out: LeaseRun[] = [];
    for (const run of this.runs.values()) if (run.queueHash === queueHash) out.push(run);
    return out;
  }

  /** Open offsets, over every run. */
  get openOffsets(): number {
    return this.held.size;
  }

  /** A written batch's runs (their state at its end; `open` 0: the record is gone). */
  merge(changed: ReadonlyMap<bigint, LeaseRun>): void {
    for (const run of changed.values()) {
      const before = this.runs.get(run.leaseId);
      if (before) this.unset(before, run);
      if (run.open > 0) this.set(run);
      else this.runs.delete(run.leaseId);
    }
  }

  private set(run: LeaseRun): void {
    this.runs.set(run.leaseId, run);
    run.keys.forEach((key, offset) => {
      if (!offsetSettled(run, offset)) this.held.set(tagKeyOf(key), { leaseId: run.leaseId, offset });
    });
  }

  /** Drops the holds of `before` that `after` settled (or all of them, for a run gone). */
  private unset(before: LeaseRun, after: LeaseRun): void {
    before.keys.forEach((key, offset) => {
      if (offsetSettled(before, offset)) return;
      if (after.open > 0 && !offsetSettled(after, offset)) return;
      const id = tagKeyOf(key);
      const ref = this.held.get(id);
      if (ref?.leaseId === before.leaseId && ref.offset === offset) this.held.delete(id);
    });
  }
}
