/**
 * An entry as apply must see it: a run lease may hold it (stores/leases.ts),
 * and then its stored form counts only the leases that ended. Every check
 * and every change of an entry goes through its view: in flight under the
 * run's offset, its attempt and history counting that lease.
 */
import { runTag } from '../../keys.js';
import { heldView, type QueueEntryRec, type RunHold } from '../model/records.js';
import type { ApplyContext } from './context.js';

export interface Held {
  /** The entry as it stands: its held view when a run lease holds it, else as stored. */
  readonly view: QueueEntryRec;
  /** The run lease's open offset that holds it, if one does. */
  readonly hold: RunHold | undefined;
  /** That offset's delivery tag. */
  readonly runTag: Uint8Array | undefined;
}

/** The tag of a run lease's offset. */
export function tagOfHold(hold: RunHold): Uint8Array {
  return runTag(hold.run.queueHash, hold.run.leaseId, hold.offset);
}

/** The entry stored under `key`, as it stands. */
export function heldOf(ctx: ApplyContext, key: Uint8Array, entry: QueueEntryRec): Held {
  const hold = ctx.leases.holder(key);
  if (!hold) return { view: entry, hold: undefined, runTag: undefined };
  return { view: heldView(entry, hold), hold, runTag: tagOfHold(hold) };
}

/** The entry leaves its run lease, if one held it (its offset is settled). */
export function letGo(ctx: ApplyContext, held: Held): void {
  if (held.hold) ctx.leases.settle(held.hold);
}
