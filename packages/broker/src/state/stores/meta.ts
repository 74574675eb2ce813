/**
 * The state machine's own records (META, the `meta` namespace): the last
 * applied Raft index with the highest event id and leader time applied
 * (written with every batch), the restore marker, and the replicated apply
 * limits.
 */
import type { BatchOp, ReadView } from '@fermata/storage';
import { compareBytes } from '@fermata/storage';
import { type ApplyLimits, decodeApplyLimits, encodeApplyLimits } from '../commands/apply-limits.js';
import { META, NS, readU64, u64 } from '../model/layout.js';
import type { Txn } from './txn.js';

/** JSON of ApplyLimits: the replicated values (absent until the first apply-limits entry applies). */
const APPLY_LIMITS_KEY = NS.meta.key(new TextEncoder().encode('apply-limits'));

/** The applied index recorded in a view (0 when none). */
export async function readAppliedIndex(view: ReadView): Promise<number> {
  const raw = await view.get(META.appliedIndex);
  return raw ? Number(readU64(raw)) : 0;
}

/** The highest event id and leader time applied, recorded in a view (0 when none). */
export async function readAppliedClock(view: ReadView): Promise<{ lastId: bigint; lastNowMs: number }> {
  const [idRaw, nowRaw] = await Promise.all([view.get(META.lastId), view.get(META.lastNowMs)]);
  return { lastId: idRaw ? readU64(idRaw) : 0n, lastNowMs: nowRaw ? Number(readU64(nowRaw)) : 0 };
}

/** What a batch records of itself: the index applied, and the highest event id and leader time. */
export function putApplied(txn: Txn, appliedIndex: number, lastId: bigint, lastNowMs: number): void {
  txn.put(META.appliedIndex, u64(appliedIndex));
  txn.put(META.lastId, u64(lastId));
  txn.put(META.lastNowMs, u64(lastNowMs));
}

/** The write of the applied index alone (a flush). */
export function appliedIndexOp(appliedIndex: number): BatchOp {
  return { type: 'put', key: META.appliedIndex, value: u64(appliedIndex) };
}

/** Whether a view holds the restore marker: a restore was interrupted. */
export async function restoreMarked(view: ReadView): Promise<boolean> {
  return (await view.get(META.restoring)) !== undefined;
}

/** The write of the restore marker (first in a restore) and its delete (in the restore's last batch). */
export function restoreMarkOp(): BatchOp {
  return { type: 'put', key: META.restoring, value: Uint8Array.of(1) };
}

export function restoreDoneOp(): BatchOp {
  return { type: 'del', key: META.restoring };
}

/** Whether a stored key is the restore marker (a snapshot leaves it out). */
export function isRestoreMarker(key: Uint8Array): boolean {
  return compareBytes(key, META.restoring) === 0;
}

/** The replicated apply limits recorded in a view, undefined until an apply-limits entry applied. */
export async function readApplyLimits(view: ReadView): Promise<ApplyLimits | undefined> {
  const raw = await view.get(APPLY_LIMITS_KEY);
  return raw ? decodeApplyLimits(raw) : undefined;
}

export function putApplyLimits(txn: Txn, values: ApplyLimits): void {
  txn.put(APPLY_LIMITS_KEY, encodeApplyLimits(values));
}
