import { invariant } from '@fermata/raft';
import { DEFAULT_GROUP, inQueue, queueHashBytes } from '../keys.js';
import type { Command } from './commands.js';
import type { ApplyContext } from './context.js';
import { LimitError, NotFoundError, ValidationError } from './errors.js';
import {
  leaseNotStarted,
  leaseRunning,
  type MessageIndexRec,
  type QueueEntryRec,
  withoutLease,
} from './records.js';
import type { CommandResult, LeaseOutcome, SettleOutcome } from './results.js';
import type { TagEntries } from './stores/entries.js';
import {
  validateDuration,
  validateGroupName,
  validateLeaseAheadMs,
  validateLeaseMs,
  validateTag,
} from './validation.js';

type Of<K extends Command['kind']> = Extract<Command, { kind: K }>;

function checkTags(tags: readonly Uint8Array[], max: number): void {
  if (tags.length === 0) throw new ValidationError('tags', 'names no tag');
  if (tags.length > max) throw new LimitError('maxTagsPerCommand', max, tags.length, 'tags');
  tags.forEach((t, i) => {
    validateTag(t, `tags[${i}]`);
  });
}

/**
 * Parallel reads of what the tags' commands will read: the entries they name,
 * then the index records of those whose index is not implied by the entry
 * (messages with a key or several groups; entries written before
 * `indexImplied`), and for an ack the dedup key records it ends (keyed
 * messages). A tag naming no entry reads nothing more.
 */
async function prefetchTags(
  ctx: ApplyContext,
  tags: readonly Uint8Array[],
  ack: boolean,
): Promise<TagEntries> {
  const read = await ctx.entries.entriesOf(tags);
  let indexed: bigint[] | undefined;
  for (const entry of read.entries) {
    if (entry && !entry.indexImplied) (indexed ??= []).push(entry.id);
  }
  if (!indexed) return read; // every entry implies its index: no key either
  await ctx.prefetch(ctx.messages.indexReads(indexed));
  if (!ack) return read;
  const keys: MessageIndexRec[] = [];
  for (const entry of read.entries) {
    if (!entry || entry.indexImplied) continue;
    const idx = await ctx.messages.getIndex(entry.id);
    if (idx && idx.key !== '') keys.push(idx);
  }
  if (keys.length > 0) await ctx.prefetch(ctx.messages.keyReads(keys));
  return read;
}

/**
 * Lease: each due entry of the queue moves to due = start + leaseMs under a new
 * key (the delivery tag) with attempt + 1, where start is now, or the entry's
 * due time when the lease is taken ahead (`aheadMs`: entries due by now +
 * aheadMs; the leader pushes such a delivery at its due time, never earlier).
 * An entry that already had maxAttempts deliveries is dead-lettered instead of
 * leased.
 */
export async function applyLease(ctx: ApplyContext, cmd: Of<'lease'>): Promise<CommandResult> {
  const now = ctx.nowMs;
  const group = cmd.group || DEFAULT_GROUP;
  validateGroupName(group, ctx.limits);
  validateLeaseMs(cmd.leaseMs, ctx.limits);
  checkTags(cmd.tags, ctx.limits.maxTagsPerCommand);
  const aheadMs = cmd.aheadMs ?? 0;
  validateLeaseAheadMs(aheadMs, ctx.limits);
  const topic = await ctx.topics.require(cmd.topic);
  if (!topic.groups.includes(group)) throw new NotFoundError('group', `${cmd.topic}/${group}`);
  ctx.claimIds(cmd.firstId, cmd.idCount, 'first_id');
  ctx.deadLetters.reserveIds(cmd.firstId, cmd.idCount);
  const hashBytes = queueHashBytes(ctx.queues.hash(topic.name, group));

  const read = await prefetchTags(ctx, cmd.tags, false);
  const outcomes: LeaseOutcome[] = [];
  for (let i = 0; i < cmd.tags.length; i++) {
    const tag = cmd.tags[i]!;
    const entry = inQueue(tag, hashBytes) ? ctx.entries.entryAt(read, i) : undefined;
    if (!entry || entry.topic !== topic.name || entry.group !== group) {
      outcomes.push({ tag, status: 'gone' });
      continue;
    }
    // A running lease is never taken ahead: its consumer may still ack it until it ends.
    if (entry.dueAtMs > (entry.inFlight ? now : now + aheadMs)) {
      outcomes.push({ tag, status: 'not-due', id: entry.id });
      continue;
    }
    if (entry.attempt >= topic.settings.maxAttempts) {
      const deadLetterId = await ctx.deadLetters.deadLetter(topic, tag, entry, 'max_attempts');
      outcomes.push(
        deadLetterId !== undefined
          ? { tag, status: 'dead-lettered', id: entry.id, deadLetterId }
          : { tag, status: 'dropped', id: entry.id },
      );
      continue;
    }
    const startMs = Math.max(now, entry.dueAtMs);
    const leaseExpiresAtMs = startMs + cmd.leaseMs;
    const next = {
      ...entry,
      dueAtMs: leaseExpiresAtMs,
      attempt: entry.attempt + 1,
      inFlight: true,
      deliveredAtMs: [...entry.deliveredAtMs, startMs],
    };
    let newTag = ctx.entries.move(topic, tag, entry, next);
    if (newTag instanceof Promise) newTag = await newTag;
    outcomes.push({
      tag,
      status: 'leased',
      id: entry.id,
      newTag,
      attempt: next.attempt,
      leaseExpiresAtMs,
      startsAtMs: startMs,
    });
  }
  return { kind: 'lease', outcomes };
}

/** The entry a tag names, when its lease still runs; otherwise the lease is over. */
async function leasedEntry(ctx: ApplyContext, tag: Uint8Array) {
  return leased(ctx, await ctx.entries.get(tag));
}

function leased(ctx: ApplyContext, entry: QueueEntryRec | undefined) {
  if (!entry || !leaseRunning(entry, ctx.nowMs)) return undefined;
  const topic = ctx.topics.cached(entry.topic);
  if (topic) return { entry, topic };
  return ctx.topics.get(entry.topic).then((t) => {
    invariant(t, () => `entry of message ${entry.id} names missing topic ${entry.topic}`);
    return { entry, topic: t };
  });
}

/** Ack: deletes each entry whose lease still runs; any other tag gets "lease expired" and changes nothing. */
export async function applyAck(ctx: ApplyContext, cmd: Of<'ack'>): Promise<CommandResult> {
  checkTags(cmd.tags, ctx.limits.maxTagsPerCommand);
  const read = await prefetchTags(ctx, cmd.tags, true);
  const outcomes: SettleOutcome[] = [];
  for (let i = 0; i < cmd.tags.length; i++) {
    const tag = cmd.tags[i]!;
    let found = leased(ctx, ctx.entries.entryAt(read, i));
    if (found instanceof Promise) found = await found;
    if (!found) {
      outcomes.push({ tag, status: 'lease-expired' });
      continue;
    }
    const removing = ctx.entries.remove(found.topic, tag, found.entry, 'done');
    if (removing) await removing;
    outcomes.push({ tag, status: 'ok' });
  }
  return { kind: 'ack', outcomes };
}

/** Nack: the leased entry becomes pending again at now + delayMs (attempt unchanged). */
export async function applyNack(ctx: ApplyContext, cmd: Of<'nack'>): Promise<CommandResult> {
  validateTag(cmd.tag);
  validateDuration(cmd.delayMs, 'delay_ms', 'maxDelayMs', ctx.limits.maxDelayMs);
  const ahead = await ctx.entries.get(cmd.tag);
  if (ahead && leaseNotStarted(ahead, ctx.nowMs)) {
    // The leader hands back a lease taken ahead that nobody will get (its consumer left):
    // the entry is pending again at its own due time, the attempt not counted.
    const topic = await ctx.topics.require(ahead.topic);
    const pending = withoutLease(ahead);
    const dueAtMs = Math.max(pending.dueAtMs, ctx.nowMs + cmd.delayMs);
    await ctx.entries.move(topic, cmd.tag, ahead, { ...pending, dueAtMs });
    return { kind: 'nack', outcome: { tag: cmd.tag, status: 'ok', dueAtMs } };
  }
  const leased = await leasedEntry(ctx, cmd.tag);
  if (!leased) return { kind: 'nack', outcome: { tag: cmd.tag, status: 'lease-expired' } };
  const dueAtMs = ctx.nowMs + cmd.delayMs;
  await ctx.entries.move(leased.topic, cmd.tag, leased.entry, { ...leased.entry, dueAtMs, inFlight: false });
  return { kind: 'nack', outcome: { tag: cmd.tag, status: 'ok', dueAtMs } };
}

/** Extend: the lease now ends at now + leaseMs, under a new tag. */
export async function applyExtend(ctx: ApplyContext, cmd: Of<'extend'>): Promise<CommandResult> {
  validateTag(cmd.tag);
  validateLeaseMs(cmd.leaseMs, ctx.limits);
  const leased = await leasedEntry(ctx, cmd.tag);
  if (!leased) return { kind: 'extend', outcome: { tag: cmd.tag, status: 'lease-expired' } };
  const dueAtMs = ctx.nowMs + cmd.leaseMs;
  const newTag = await ctx.entries.move(leased.topic, cmd.tag, leased.entry, { ...leased.entry, dueAtMs });
  return { kind: 'extend', outcome: { tag: cmd.tag, status: 'ok', newTag, dueAtMs } };
}
