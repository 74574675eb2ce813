/**
 * The run leases of one state machine, in memory: every lease record
 * (records.proto LeaseRecord, with its LeaseSettles) with an open offset,
 * and which entry key each open offset holds. Rebuilt from the lease
 * namespaces at open and after a snapshot restore; changed only by the apply
 * batches, once each is written (`merge`). Apply reads it through the
 * batch's own changes (leases.ts); the reads outside apply (the dispatcher's
 * due read, GetMessage, lists) read it as it is, the committed state. Its
 * size is bounded by the open offsets: a lapsed offset stays open until the
 * leader leases its entry again, which settles it.
 */
import { invariant } from '@fermata/base';
import type { ReadView } from '@fermata/storage';
import { KEY_BYTES } from '../../keys.js';
import { decodeLease } from '../codec/lease.js';
import { NS, readU64 } from '../model/layout.js';
import { type LeaseRun, offsetSettled, type RunHold } from '../model/records.js';

/** An open offset: the run and the entry's place in it. */
export interface HeldRef {
  readonly leaseId: bigint;
  readonly offset: number;
  /** The run's keys: the entry's key is at `offset` (to tell apart keys that share a slot). */
  readonly keyBytes: Uint8Array;
  /** The next hold in the same slot. */
  next: HeldRef | undefined;
}

/**
 * The slot of an entry key in a `HeldMap`: the low 30 bits of its id (a
 * small integer, so the map hashes no string and makes none). Keys whose ids
 * share them (another group's entry of the same message; ids 2^30 apart)
 * share a slot, and are told apart by their bytes.
 */
function slotOf(key: Uint8Array, at: number): number {
  return ((key[at + 20]! & 0x3f) << 24) | (key[at + 21]! << 16) | (key[at + 22]! << 8) | key[at + 23]!;
}

/** Whether `ref` holds the key at `at` in `key`. */
function refIs(ref: HeldRef, key: Uint8Array, at: number): boolean {
  const from = ref.offset * KEY_BYTES;
  const bytes = ref.keyBytes;
  for (let i = KEY_BYTES - 1; i >= 0; i--) if (bytes[from + i] !== key[at + i]) return false;
  return true;
}

/**
 * Entry key -> the open offset that holds it: at most one per key. A key is
 * given as bytes and where in them it starts (a run's keys, read in place).
 */
export class HeldMap {
  private readonly slots = new Map<number, HeldRef>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  clear(): void {
    this.slots.clear();
    this.count = 0;
  }

  get(key: Uint8Array, at = 0): HeldRef | undefined {
    for (let ref = this.slots.get(slotOf(key, at)); ref; ref = ref.next) if (refIs(ref, key, at)) return ref;
    return undefined;
  }

  /**
   * Offset `offset` of lease `leaseId`, whose keys are `keyBytes`, holds its
   * key now (replacing what held it); returns what did.
   */
  set(leaseId: bigint, offset: number, keyBytes: Uint8Array): HeldRef | undefined {
    const at = offset * KEY_BYTES;
    const slot = slotOf(keyBytes, at);
    const before = this.unlink(slot, keyBytes, at);
    this.slots.set(slot, { leaseId, offset, keyBytes, next: this.slots.get(slot) });
    if (!before) this.count++;
    return before;
  }

  /** Puts back what `set` of `key` replaced (`before`; undefined: nothing held the key). */
  restore(key: Uint8Array, before: HeldRef | undefined): void {
    if (this.unlink(slotOf(key, 0), key, 0)) this.count--;
    if (before) this.set(before.leaseId, before.offset, before.keyBytes);
  }

  /** Forgets the hold of offset `offset` of lease `leaseId` (keys `keyBytes`), if it still holds its key. */
  delete(leaseId: bigint, offset: number, keyBytes: Uint8Array): void {
    const at = offset * KEY_BYTES;
    const ref = this.get(keyBytes, at);
    if (!ref || ref.leaseId !== leaseId || ref.offset !== offset) return;
    this.unlink(slotOf(keyBytes, at), keyBytes, at);
    this.count--;
  }

  /** Takes the hold of the key at `at` in `key` out of its slot's chain; returns it. */
  private unlink(slot: number, key: Uint8Array, at: number): HeldRef | undefined {
    let prev: HeldRef | undefined;
    for (let ref = this.slots.get(slot); ref; prev = ref, ref = ref.next) {
      if (!refIs(ref, key, at)) continue;
      if (prev) prev.next = ref.next;
      else if (ref.next) this.slots.set(slot, ref.next);
      else this.slots.delete(slot);
      return ref;
    }
    return undefined;
  }
}

export class LeaseIndex {
  private readonly runs = new Map<bigint, LeaseRun>();
  /** Per entry key, the open offset that holds it. */
  private readonly held = new HeldMap();

  /** Reads every lease record and its settles from the store (at open, and after a restore). */
  async build(view: ReadView): Promise<void> {
    this.runs.clear();
    this.held.clear();
    const settles = new Map<bigint, Uint8Array>();
    await view.scan(NS.leaseSettles.range(), (k, v) => {
      settles.set(readU64(NS.leaseSettles.strip(k)), v.slice());
    });
    const runs: LeaseRun[] = [];
    await view.scan(NS.leases.range(), (k, v) => {
      const leaseId = readU64(NS.leases.strip(k));
      // A copy: the run keeps views of its record's bytes (its keys), which the scan's slice
      // does not outlive.
      runs.push(decodeLease(leaseId, v.slice(), settles.get(leaseId)));
      settles.delete(leaseId);
    });
    invariant(settles.size === 0, () => `lease settles without a lease record: ${[...settles.keys()]}`);
    for (const run of runs) this.add(run);
  }

  run(leaseId: bigint): LeaseRun | undefined {
    return this.runs.get(leaseId);
  }

  /** The open offset that holds the entry under `key`. */
  heldRef(key: Uint8Array): HeldRef | undefined {
    return this.held.get(key);
  }

  /** The run lease that holds the entry under `key`, if one does. */
  holder(key: Uint8Array): RunHold | undefined {
    const ref = this.held.get(key);
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

  /** A written batch's runs (their state at its end; `open` 0: the records are gone). */
  merge(changed: ReadonlyMap<bigint, LeaseRun>): void {
    for (const run of changed.values()) {
      const before = this.runs.get(run.leaseId);
      if (before) this.settleHolds(before, run);
      else if (run.open > 0) this.add(run);
      if (run.open > 0) this.runs.set(run.leaseId, run);
      else this.runs.delete(run.leaseId);
    }
  }

  /** A run not in the index: its open offsets hold their keys. */
  private add(run: LeaseRun): void {
    if (run.open === 0) return;
    this.runs.set(run.leaseId, run);
    for (let offset = 0; offset < run.length; offset++) {
      if (!offsetSettled(run, offset)) this.held.set(run.leaseId, offset, run.keyBytes);
    }
  }

  /** Drops the holds of the offsets `after` settled that `before` had open: a byte of the bitmaps at a time. */
  private settleHolds(before: LeaseRun, after: LeaseRun): void {
    for (let at = 0; at < after.settled.length; at++) {
      let newly = after.settled[at]! & ~(before.settled[at] ?? 0);
      for (let bit = 0; newly !== 0; bit++, newly >>= 1) {
        const offset = at * 8 + bit;
        if ((newly & 1) !== 0 && offset < before.length)
          this.held.delete(before.leaseId, offset, before.keyBytes);
      }
    }
  }
}
