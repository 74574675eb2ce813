/**
 * Leases of runs (docs/state-machine.md, "Run leases"): a lease command with
 * a lease id takes its entries into one lease record and writes none of them;
 * a delivery tag is the queue, the lease id and the entry's offset in the run.
 * Settling an offset changes the record (once per command) and, for an ack,
 * deletes the entry; a nack writes the entry back with the lease counted; a
 * lapsed offset is counted into its entry when the entry is leased again (or
 * cancelled, rescheduled, expired). Attempts and histories stay exact: a
 * stored entry counts the leases that ended, its held view the running one.
 */
import { invariant } from '@fermata/base';
import { inQueue, isWaitingKey, RUN_TAG_BYTES, runTagMaker, runTagOffset } from '../../keys.js';
import type { Command } from '../commands/commands.js';
import type { LeaseOutcome, SettleOutcome } from '../commands/results.js';
import {
  countedLease,
  deadlineAtLease,
  entryAlone,
  groupDeleting,
  heldView,
  leaseEndOf,
  leaseHeld,
  leaseNotStarted,
  leaseRunning,
  offsetSettled,
  type QueueEntryRec,
  type RunHold,
  runEndMs,
  runKey,
  runStartMs,
  type TopicRec,
  withoutLease,
} from '../model/records.js';
import type { TagEntries } from '../stores/entries.js';
import type { ApplyContext } from './context.js';
import { type Held, heldOf, letGo, tagOfHold } from './held.js';

type Of<K extends Command['kind']> = Extract<Command, { kind: K }>;

/** What leasing one run reads of its command: a lease with a lease id, or one run of a lease of runs. */
export interface RunLease {
  readonly tags: readonly Uint8Array[];
  readonly leaseMs: number;
  readonly leaseId: bigint;
  readonly aheadMs?: number;
  readonly consumerId?: bigint;
}

/**
 * The lease command's entries, leased into one run under `cmd.leaseId`.
 * Per key, as the lease in place does (gone, not-due, dead-lettered,
 * leased), but the entry is not written: only an entry whose earlier lease
 * ran out is, with that lease counted (its run's offset settled, or, for an
 * earlier version's lease, its in-flight fields cleared).
 */
export async function leaseRun(
  ctx: ApplyContext,
  cmd: RunLease,
  topic: TopicRec,
  group: string,
  hashBytes: Uint8Array,
  read: TagEntries,
): Promise<LeaseOutcome[]> {
  const now = ctx.nowMs;
  const aheadMs = cmd.aheadMs ?? 0;
  const leaseId = cmd.leaseId;
  ctx.claimIds(leaseId, 1, 'lease_id');
  const queueHash = ctx.queues.hash(topic.name, group);
  const run = ctx.leases.begin(
    {
      leaseId,
      topic: topic.name,
      group,
      queueHash,
      consumer: cmd.consumerId ?? 0n,
      nowMs: now,
      leaseMs: cmd.leaseMs,
    },
    cmd.tags.length,
  );
  const tagOf = runTagMaker(queueHash, leaseId);
  const outcomes: LeaseOutcome[] = [];
  // Due times of the entries newly in flight (not held by a run already) and the earliest end: counted once.
  const newlyInFlight: number[] = [];
  let earliestEndMs = Number.POSITIVE_INFINITY;
  for (let i = 0; i < cmd.tags.length; i++) {
    const key = cmd.tags[i]!;
    const stored = inQueue(key, hashBytes) ? ctx.entries.entryAt(read, i) : undefined;
    if (!stored || stored.topic !== topic.name || stored.group !== group) {
      outcomes.push({ tag: key, status: 'gone' });
      continue;
    }
    const hold = ctx.leases.holder(key);
    const view = hold ? heldView(stored, hold) : stored;
    // A running lease is never taken ahead: its consumer may still ack it until it ends. A
    // message waiting for its ordering key is not due until it moves up (no due read meets it).
    if (view.inFlight ? leaseEndOf(view) > now : view.dueAtMs > now + aheadMs || isWaitingKey(key)) {
      outcomes.push({ tag: key, status: 'not-due', id: stored.id });
      continue;
    }
    // Never leased at or after its deadline: ended instead (or, taken ahead, left for its due time).
    const deadline = (ctx.hooks?.deadline ?? deadlineAtLease)(view, now);
    if (deadline === 'ahead') {
      outcomes.push({ tag: key, status: 'not-due', id: stored.id });
      continue;
    }
    if (deadline === 'passed' || view.attempt >= topic.settings.maxAttempts) {
      const held = { view, hold, runTag: hold && tagOfHold(hold) };
      outcomes.push(
        await deadLetterAtLease(ctx, topic, key, held, deadline ? 'deadline_exceeded' : 'max_attempts'),
      );
      continue;
    }
    // An earlier lease that ran out is counted into the entry now: a write (the failure path).
    const counted = hold !== undefined || stored.inFlight;
    if (counted && stored.body && !ctx.fits(1, stored.body.payload.length)) {
      outcomes.push({ tag: key, status: 'not-due', id: stored.id });
      continue;
    }
    const startMs = Math.max(now, view.inFlight ? leaseEndOf(view) : view.dueAtMs);
    let base = stored;
    if (counted) {
      base = countedLease(view);
      if (hold) ctx.leases.settle(hold);
      const counting = ctx.entries.rewrite(topic, key, stored, base);
      if (counting) await counting;
    }
    const offset = ctx.leases.add(run, key, base, startMs);
    const leaseExpiresAtMs = startMs + cmd.leaseMs;
    // In flight from now unless a run lease held it already (an earlier version's lease is pending now).
    if (hold === undefined) newlyInFlight.push(base.dueAtMs);
    if (leaseExpiresAtMs < earliestEndMs) earliestEndMs = leaseExpiresAtMs;
    outcomes.push({
      tag: key,
      status: 'leased',
      id: stored.id,
      newTag: tagOf(offset),
      attempt: base.attempt + 1,
      leaseExpiresAtMs,
      startsAtMs: startMs,
    });
  }
  if (earliestEndMs !== Number.POSITIVE_INFINITY) {
    const holding = ctx.entries.hold(topic, group, newlyInFlight, earliestEndMs);
    if (holding) await holding;
  }
  return outcomes;
}

/**
 * An entry that had its `maxAttempts` deliveries, or whose deadline passed
 * (`deadline_exceeded`), met by a lease or by the janitor: moved to the
 * dead-letter topic (or dropped: no dead-letter topic, or a deadline under
 * the topic's `deadlineAction: drop`), its run's offset settled if one held
 * it. A dead letter copies the payload: past the command's bound it waits
 * for the next lease (`not-due`).
 */
export async function deadLetterAtLease(
  ctx: ApplyContext,
  topic: TopicRec,
  key: Uint8Array,
  held: Held,
  reason: 'max_attempts' | 'deadline_exceeded' = 'max_attempts',
): Promise<LeaseOutcome> {
  const { view } = held;
  const deadline = reason === 'deadline_exceeded' ? { deadlineExceeded: true } : {};
  if (reason === 'deadline_exceeded' && topic.settings.deadlineAction === 'drop') {
    const removing = ctx.entries.remove(topic, key, view, 'expired', held.runTag);
    if (removing) await removing;
    letGo(ctx, held);
    return { tag: key, status: 'dropped', id: view.id, ...deadline };
  }
  const body = await ctx.messages.bodyOf(view);
  if (!ctx.fits(1, body?.payload.length ?? 0)) return { tag: key, status: 'not-due', id: view.id };
  const deadLetterId = await ctx.deadLetters.deadLetter(topic, key, view, reason, held.runTag);
  letGo(ctx, held);
  return deadLetterId !== undefined
    ? { tag: key, status: 'dead-lettered', id: view.id, deadLetterId, ...deadline }
    : { tag: key, status: 'dropped', id: view.id, ...deadline };
}

/** What a run lease's tag names: the open offset (still open) and its entry's key; undefined otherwise. */
export function runOfTag(
  ctx: ApplyContext,
  tag: Uint8Array,
): { readonly hold: RunHold; readonly key: Uint8Array } | undefined {
  if (tag.length !== RUN_TAG_BYTES) return undefined;
  const run = ctx.leases.run(tagLeaseId(tag));
  if (!run || run.open === 0 || run.length === 0) return undefined;
  // Its queue, compared as bytes with its keys' (every key of a run is in its queue).
  for (let i = 0; i < 8; i++) if (tag[i] !== run.keyBytes[i]) return undefined;
  const offset = runTagOffset(tag);
  if (offset >= run.length || offsetSettled(run, offset)) return undefined;
  const named = { run, offset };
  const hold = ctx.hooks?.runTagHold?.(ctx, named) ?? named;
  return { hold, key: runKey(hold.run, hold.offset) };
}

/** The last lease id `tagLeaseId` read, and its 8 bytes: an ack command's tags mostly name one lease. */
let lastLeaseBytes = new Uint8Array(8);
let lastLeaseId = 0n;

/** The lease id a run tag names (bytes 8..16), as a bigint made once per run of tags of one lease. */
function tagLeaseId(tag: Uint8Array): bigint {
  let same = true;
  for (let i = 0; i < 8 && same; i++) same = tag[8 + i] === lastLeaseBytes[i];
  if (!same) {
    // A copy of its own (a Buffer's `slice` is a view).
    lastLeaseBytes = new Uint8Array(tag.subarray(8, 16));
    lastLeaseId = new DataView(lastLeaseBytes.buffer).getBigUint64(0);
  }
  return lastLeaseId;
}

/**
 * The open offset a run tag names, when its lease has started and still
 * runs and its topic and group take settles; undefined otherwise (the lease
 * is over for the tag's holder). Told from the run alone: while an offset is
 * open its entry is as the lease found it (whatever changes or removes the
 * entry settles the offset first).
 */
async function runningRunOffset(
  ctx: ApplyContext,
  tag: Uint8Array,
): Promise<{ topic: TopicRec; key: Uint8Array; hold: RunHold } | undefined> {
  const named = runOfTag(ctx, tag);
  if (!named) return undefined;
  const { run, offset } = named.hold;
  const now = ctx.nowMs;
  if (runStartMs(run, offset) > now || runEndMs(run, offset) <= now) return undefined;
  const topic = ctx.topics.cached(run.topic) ?? (await ctx.topics.get(run.topic));
  if (!topic || groupDeleting(topic, run.group)) return undefined;
  return { topic, key: named.key, hold: named.hold };
}

/**
 * The entry key a run tag's open offset names, for one read of every tag's
 * entry; undefined when its ack needs no read (the entry is all its message
 * has: `entryAlone`); the tag itself when it names no open offset.
 */
export function keyOfRunTag(ctx: ApplyContext, tag: Uint8Array): Uint8Array | undefined {
  const named = runOfTag(ctx, tag);
  if (!named) return tag;
  return entryAlone(named.hold.run, named.hold.offset) ? undefined : named.key;
}

/**
 * Ack of a run tag: the entry is deleted and the offset settled;
 * `lease-expired` otherwise. An entry that is all its message has is deleted
 * unread; another is read (`stored`) to end its message's other records.
 */
export async function ackRun(
  ctx: ApplyContext,
  tag: Uint8Array,
  stored: QueueEntryRec | undefined,
): Promise<SettleOutcome> {
  const found = await runningRunOffset(ctx, tag);
  if (!found) return { tag, status: 'lease-expired' };
  const { topic, key, hold } = found;
  let removing: Promise<void> | undefined;
  if (entryAlone(hold.run, hold.offset)) {
    removing = ctx.entries.removeAlone(hold.run.queueHash, key);
  } else {
    invariant(stored, () => `run lease ${hold.run.leaseId} holds a missing entry at offset ${hold.offset}`);
    removing = ctx.entries.remove(topic, key, heldView(stored, hold), 'done', tagOfHold(hold));
  }
  if (removing) await removing;
  ctx.leases.settle(hold);
  const hooked = ctx.hooks?.acked?.(ctx, topic, hold);
  if (hooked) await hooked;
  return { tag, status: 'ok' };
}

/**
 * Nack of a run tag. A lease not started, or one handed back `uncounted`
 * while it holds the entry: the offset is settled and the entry, never
 * written, is pending at its own due time (or now + delayMs, the later).
 * A running lease: the entry is written pending at now + delayMs with the
 * lease counted and the error kept.
 */
export async function nackRun(ctx: ApplyContext, cmd: Of<'nack'>): Promise<SettleOutcome> {
  const tag = cmd.tag;
  const named = runOfTag(ctx, tag);
  const stored = named && (await ctx.entries.get(named.key));
  if (!named || !stored) return { tag, status: 'lease-expired' };
  const held = heldOf(ctx, named.key, stored);
  const now = ctx.nowMs;
  if (held.hold?.run.leaseId !== named.hold.run.leaseId) return { tag, status: 'lease-expired' };
  const topic = await ctx.topics.require(stored.topic);
  if (groupDeleting(topic, stored.group)) return { tag, status: 'lease-expired' };
  const { view } = held;
  if (leaseNotStarted(view, now) || (cmd.uncounted === true && leaseHeld(view, now))) {
    const dueAtMs = cmd.delayMs > 0 ? Math.max(stored.dueAtMs, now + cmd.delayMs) : stored.dueAtMs;
    ctx.leases.settle(held.hold);
    if (dueAtMs === stored.dueAtMs) {
      const releasing = ctx.entries.release(topic, named.key, view, held.runTag!);
      if (releasing) await releasing;
      await ctx.entries.order.handedBack(topic, named.key, stored);
    } else {
      const next = { ...withoutLease(view), dueAtMs };
      const at = await ctx.entries.update(topic, named.key, view, next, held.runTag);
      await ctx.entries.order.handedBack(topic, at, next);
    }
    return { tag, status: 'ok', dueAtMs };
  }
  if (!leaseRunning(view, now)) return { tag, status: 'lease-expired' };
  const dueAtMs = now + cmd.delayMs;
  ctx.leases.settle(held.hold);
  const next = { ...countedLease(view), dueAtMs, lastError: cmd.error ?? '' };
  await ctx.entries.update(topic, named.key, view, next, held.runTag);
  await ctx.nacked(topic, view);
  return { tag, status: 'ok', dueAtMs };
}

/** Extend of a run tag: the offset's lease ends at now + leaseMs; the tag stays. */
export async function extendRun(ctx: ApplyContext, cmd: Of<'extend'>): Promise<SettleOutcome> {
  const found = await runningRunOffset(ctx, cmd.tag);
  if (!found) return { tag: cmd.tag, status: 'lease-expired' };
  const dueAtMs = ctx.nowMs + cmd.leaseMs;
  ctx.leases.extend(found.hold, dueAtMs);
  ctx.entries.extended(found.topic, found.hold.run.group, dueAtMs);
  return { tag: cmd.tag, status: 'ok', newTag: cmd.tag, dueAtMs };
}
