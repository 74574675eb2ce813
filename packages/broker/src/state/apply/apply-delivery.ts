import { invariant } from '@fermata/base';
import {
  DEFAULT_GROUP,
  inQueue,
  isWaitingKey,
  leaseTag,
  queueHashBytes,
  RUN_TAG_BYTES,
  tagEntryKey,
  tagLease,
} from '../../keys.js';
import type { Command } from '../commands/commands.js';
import type { CommandResult, LeaseOutcome, SettleOutcome } from '../commands/results.js';
import {
  validateDuration,
  validateEntryKey,
  validateGroupName,
  validateLeaseAheadMs,
  validateLeaseMs,
  validateNackError,
  validateTag,
} from '../commands/validation.js';
import { LimitError, NotFoundError, ValidationError } from '../model/errors.js';
import {
  countedLease,
  deadlineAtLease,
  groupDeleting,
  groupPaused,
  leaseEndOf,
  leaseHeld,
  leaseNotStarted,
  leaseRunning,
  type MessageIndexRec,
  pendingAt,
  type QueueEntryRec,
  withoutLease,
} from '../model/records.js';
import type { TagEntries } from '../stores/entries.js';
import { ackRun, deadLetterAtLease, extendRun, keyOfRunTag, leaseRun, nackRun } from './apply-runs.js';
import type { ApplyContext } from './context.js';
import { heldOf } from './held.js';

type Of<K extends Command['kind']> = Extract<Command, { kind: K }>;

function checkCount(n: number, max: number): void {
  if (n === 0) throw new ValidationError('tags', 'names no tag');
  if (n > max) throw new LimitError('maxTagsPerCommand', max, n, 'tags');
}

/** A lease command names entries by their 24-byte queue keys. */
function checkKeys(keys: readonly Uint8Array[], max: number): void {
  checkCount(keys.length, max);
  keys.forEach((k, i) => {
    validateEntryKey(k, `tags[${i}]`);
  });
}

/** Delivery tags: a key and a lease number (a lease in place), or a key alone (a moved lease). */
function checkTags(tags: readonly Uint8Array[], max: number): void {
  checkCount(tags.length, max);
  tags.forEach((t, i) => {
    validateTag(t, `tags[${i}]`);
  });
}

/**
 * Whether `tag` names the entry's current lease: a lease in place by its
 * number, a moved lease by the key alone (which that lease gave the entry).
 * A tag of a lease that ran out (or was handed back) and was taken again
 * names a number the entry has left behind, so it settles nothing.
 */
function namesLease(entry: QueueEntryRec, tag: Uint8Array): boolean {
  const lease = tagLease(tag);
  return lease === undefined ? entry.leaseEndMs === 0 : entry.leaseEndMs > 0 && entry.leaseSerial === lease;
}

/**
 * Parallel reads of what the tags' commands will read: the entries they name,
 * then the index records of those whose index is not implied by the entry
 * (messages with a key or several groups; entries written before
 * `indexImplied`), and for an ack the dedup key records it ends (keyed
 * messages). A tag naming no entry reads nothing more.
 */
async function prefetchEntries(
  ctx: ApplyContext,
  keys: readonly Uint8Array[],
  ack: boolean,
): Promise<TagEntries> {
  const read = await ctx.entries.entriesOf(keys);
  let indexed: bigint[] | undefined;
  for (const entry of read.entries) {
    if (entry && !entry.indexImplied) (indexed ??= []).push(entry.id);
  }
  if (!indexed) return read; // every entry implies its index: no key either
  await ctx.prefetch(ctx.messages.indexReads(indexed));
  if (!ack) return read;
  const keyRecs: MessageIndexRec[] = [];
  for (const entry of read.entries) {
    if (!entry || entry.indexImplied) continue;
    const idx = await ctx.messages.getIndex(entry.id);
    if (idx && idx.key !== '') keyRecs.push(idx);
  }
  if (keyRecs.length > 0) await ctx.prefetch(ctx.messages.keyReads(keyRecs));
  return read;
}

/**
 * Lease: each due entry of the queue (pending and due by now + aheadMs, or in
 * flight under a lease that ran out) is leased from start = now, or its due
 * time when taken ahead (the leader pushes such a delivery at its due time,
 * never earlier), to start + leaseMs, attempt + 1. In place (`inPlace`), the
 * entry stays under its key and keeps the lease's end, and the delivery tag is
 * the key and the attempt; otherwise (the previous versions' lease) it moves
 * to a key at the lease's end, which is the tag. An entry that already had
 * maxAttempts deliveries is dead-lettered instead of leased.
 */
export async function applyLease(ctx: ApplyContext, cmd: Of<'lease'>): Promise<CommandResult> {
  const now = ctx.nowMs;
  const group = cmd.group || DEFAULT_GROUP;
  validateGroupName(group, ctx.limits);
  validateLeaseMs(cmd.leaseMs, ctx.limits);
  checkKeys(cmd.tags, ctx.limits.maxTagsPerCommand);
  const aheadMs = cmd.aheadMs ?? 0;
  validateLeaseAheadMs(aheadMs, ctx.limits);
  const topic = await ctx.topics.require(cmd.topic);
  const deleting = groupDeleting(topic, group);
  if (!deleting && !topic.groups.includes(group)) throw new NotFoundError('group', `${cmd.topic}/${group}`);
  ctx.claimIds(cmd.firstId, cmd.idCount, 'first_id');
  // A topic or group being deleted leases nothing: its entries are gone to every consumer.
  if (deleting) return { kind: 'lease', outcomes: cmd.tags.map((tag) => ({ tag, status: 'gone' as const })) };
  // A paused queue leases nothing: a leader that proposed this before the pause applied leases nothing after it.
  if ((ctx.hooks?.paused ?? groupPaused)(topic, group)) {
    if (cmd.leaseId) ctx.claimIds(cmd.leaseId, 1, 'lease_id');
    return { kind: 'lease', outcomes: cmd.tags.map((tag) => ({ tag, status: 'paused' as const })) };
  }
  ctx.deadLetters.reserveIds(cmd.firstId, cmd.idCount, cmd.deadLetterFallback ? [topic.name] : []);
  const hashBytes = queueHashBytes(ctx.queues.hash(topic.name, group));

  const read = await prefetchEntries(ctx, cmd.tags, false);
  if (cmd.leaseId)
    return {
      kind: 'lease',
      outcomes: await leaseRun(ctx, { ...cmd, leaseId: cmd.leaseId }, topic, group, hashBytes, read),
    };
  const outcomes: LeaseOutcome[] = [];
  for (let i = 0; i < cmd.tags.length; i++) {
    const key = cmd.tags[i]!;
    const stored = inQueue(key, hashBytes) ? ctx.entries.entryAt(read, i) : undefined;
    if (!stored || stored.topic !== topic.name || stored.group !== group) {
      outcomes.push({ tag: key, status: 'gone' });
      continue;
    }
    let entry = stored;
    // Held by a run lease (a leader that leased runs led before): while it runs, not due; once it
    // ran out, counted into the entry, which this lease then takes as any lapsed lease.
    const held = heldOf(ctx, key, stored);
    if (held.hold) {
      if (leaseHeld(held.view, now)) {
        outcomes.push({ tag: key, status: 'not-due', id: stored.id });
        continue;
      }
      ctx.leases.settle(held.hold);
      entry = countedLease(held.view);
      const counting = ctx.entries.rewrite(topic, key, held.view, entry, held.runTag);
      if (counting) await counting;
    }
    // A running lease is never taken ahead: its consumer may still ack it until it ends. A
    // message waiting for its ordering key is not due until it moves up.
    if (entry.inFlight ? leaseEndOf(entry) > now : entry.dueAtMs > now + aheadMs || isWaitingKey(key)) {
      outcomes.push({ tag: key, status: 'not-due', id: entry.id });
      continue;
    }
    // As a lease of a run: never at or after the entry's deadline.
    const deadline = (ctx.hooks?.deadline ?? deadlineAtLease)(entry, now);
    if (deadline === 'ahead') {
      outcomes.push({ tag: key, status: 'not-due', id: entry.id });
      continue;
    }
    if (deadline === 'passed' || entry.attempt >= topic.settings.maxAttempts) {
      const held = { view: entry, hold: undefined, runTag: undefined };
      outcomes.push(
        await deadLetterAtLease(ctx, topic, key, held, deadline ? 'deadline_exceeded' : 'max_attempts'),
      );
      continue;
    }
    // An entry that carries its body is written again whole: past this command's bound of bytes
    // the rest wait for the next lease (the leader reads them again).
    if (entry.body && !ctx.fits(1, entry.body.payload.length)) {
      outcomes.push({ tag: key, status: 'not-due', id: entry.id });
      continue;
    }
    const startMs = Math.max(now, entry.inFlight ? leaseEndOf(entry) : entry.dueAtMs);
    const leaseExpiresAtMs = startMs + cmd.leaseMs;
    const attempt = entry.attempt + 1;
    const deliveredAtMs = [...entry.deliveredAtMs, startMs];
    let newTag: Uint8Array;
    if (cmd.inPlace) {
      // One literal with every field (V8 gives a spread that changes fields a slower shape).
      const next: QueueEntryRec = {
        id: entry.id,
        topic: entry.topic,
        group: entry.group,
        dueAtMs: entry.dueAtMs,
        attempt,
        inFlight: true,
        deliveredAtMs,
        expireAtMs: entry.expireAtMs,
        indexImplied: entry.indexImplied,
        leaseEndMs: leaseExpiresAtMs,
        indexUnwritten: entry.indexUnwritten,
        leaseSerial: entry.leaseSerial + 1,
        leaseConsumer: cmd.consumerId ?? 0n,
        lastError: entry.lastError,
        orderingKey: entry.orderingKey,
        deliverBeforeMs: entry.deliverBeforeMs,
        ordered: entry.ordered,
        body: entry.body,
      };
      const counting = ctx.entries.rewrite(topic, key, entry, next);
      if (counting) await counting;
      newTag = leaseTag(key, next.leaseSerial);
    } else {
      const next = {
        ...entry,
        dueAtMs: leaseExpiresAtMs,
        attempt,
        inFlight: true,
        deliveredAtMs,
        leaseEndMs: 0,
        leaseConsumer: cmd.consumerId ?? 0n,
      };
      const moved = ctx.entries.move(topic, key, entry, next);
      newTag = moved instanceof Promise ? await moved : moved;
    }
    outcomes.push({
      tag: key,
      status: 'leased',
      id: entry.id,
      newTag,
      attempt,
      leaseExpiresAtMs,
      startsAtMs: startMs,
    });
  }
  return { kind: 'lease', outcomes };
}

/**
 * Lease of several runs (LeaseCommand.runs): each run is leased in order as
 * a lease with its lease id would be (`leaseRun`), the dead-letter ids taken
 * in order from the command's block. A run whose topic or group is gone, or
 * being deleted, leases nothing (its tags answer `gone`) and refuses nothing
 * else: one queue deleted while its round was proposed must not refuse the
 * other queues' runs. One result: every run's outcomes, in order.
 */
export async function applyLeaseRuns(ctx: ApplyContext, cmd: Of<'lease-runs'>): Promise<CommandResult> {
  ctx.claimIds(cmd.firstId, cmd.idCount, 'first_id');
  const topics = await Promise.all(cmd.runs.map((r) => ctx.topics.get(r.topic)));
  const fallback = new Set<string>();
  cmd.runs.forEach((r, i) => {
    if (r.deadLetterFallback && topics[i]) fallback.add(r.topic);
  });
  ctx.deadLetters.reserveIds(cmd.firstId, cmd.idCount, [...fallback]);
  // Every run's entries in one read (`entryAt` sees a run's writes when a later run names its key).
  const all = await prefetchEntries(
    ctx,
    cmd.runs.flatMap((r) => r.tags),
    false,
  );
  const outcomes: LeaseOutcome[] = [];
  let at = 0;
  for (let i = 0; i < cmd.runs.length; i++) {
    const run = cmd.runs[i]!;
    const from = at;
    at += run.tags.length;
    const group = run.group || DEFAULT_GROUP;
    const topic = topics[i];
    if (!topic || groupDeleting(topic, group) || !topic.groups.includes(group)) {
      ctx.claimIds(run.leaseId, 1, `runs[${i}].lease_id`);
      for (const tag of run.tags) outcomes.push({ tag, status: 'gone' });
      continue;
    }
    if ((ctx.hooks?.paused ?? groupPaused)(topic, group)) {
      ctx.claimIds(run.leaseId, 1, `runs[${i}].lease_id`);
      for (const tag of run.tags) outcomes.push({ tag, status: 'paused' });
      continue;
    }
    const hashBytes = queueHashBytes(ctx.queues.hash(topic.name, group));
    const read = {
      ids: all.ids.slice(from, at),
      raws: all.raws.slice(from, at),
      entries: all.entries.slice(from, at),
    };
    const spec = { ...run, ...(cmd.aheadMs ? { aheadMs: cmd.aheadMs } : {}) };
    for (const o of await leaseRun(ctx, spec, topic, group, hashBytes, read)) outcomes.push(o);
  }
  return { kind: 'lease', outcomes };
}

/** The entry a tag names, when the tag names its lease and that lease still runs; otherwise the lease is over. */
async function leasedEntry(ctx: ApplyContext, tag: Uint8Array) {
  return leased(ctx, await ctx.entries.get(tagEntryKey(tag)), tag);
}

/**
 * The entry and its topic when `tag` names the entry's running lease. The
 * entries of a topic or group being deleted settle nothing (its purge must
 * not find an entry moved behind its cursor): their leases are over.
 */
function leased(ctx: ApplyContext, entry: QueueEntryRec | undefined, tag: Uint8Array) {
  if (!entry || !leaseRunning(entry, ctx.nowMs) || !namesLease(entry, tag)) return undefined;
  const topic = ctx.topics.cached(entry.topic);
  if (topic) return groupDeleting(topic, entry.group) ? undefined : { entry, topic };
  return ctx.topics.get(entry.topic).then((t) => {
    invariant(t, () => `entry of message ${entry.id} names missing topic ${entry.topic}`);
    return groupDeleting(t, entry.group) ? undefined : { entry, topic: t };
  });
}

/** Ack: deletes each entry whose lease the tag names and still runs; any other tag gets "lease expired" and changes nothing. */
export async function applyAck(ctx: ApplyContext, cmd: Of<'ack'>): Promise<CommandResult> {
  checkTags(cmd.tags, ctx.limits.maxTagsPerCommand);
  // The entries the acks read, in one multi-get: a run tag's is the one its offset holds, unless
  // that entry is all its message has (deleted unread).
  const keys: Uint8Array[] = [];
  const readAt: number[] = new Array(cmd.tags.length);
  for (let i = 0; i < cmd.tags.length; i++) {
    const tag = cmd.tags[i]!;
    const key = tag.length === RUN_TAG_BYTES ? keyOfRunTag(ctx, tag) : tagEntryKey(tag);
    readAt[i] = key ? keys.push(key) - 1 : -1;
  }
  const read = await prefetchEntries(ctx, keys, true);
  const outcomes: SettleOutcome[] = [];
  for (let i = 0; i < cmd.tags.length; i++) {
    const tag = cmd.tags[i]!;
    const stored = readAt[i]! >= 0 ? ctx.entries.entryAt(read, readAt[i]!) : undefined;
    if (tag.length === RUN_TAG_BYTES) {
      outcomes.push(await ackRun(ctx, tag, stored));
      continue;
    }
    let found = leased(ctx, stored, tag);
    if (found instanceof Promise) found = await found;
    if (!found) {
      outcomes.push({ tag, status: 'lease-expired' });
      continue;
    }
    const removing = ctx.entries.remove(found.topic, keys[readAt[i]!]!, found.entry, 'done');
    if (removing) await removing;
    outcomes.push({ tag, status: 'ok' });
  }
  return { kind: 'ack', outcomes };
}

/**
 * Nack: the leased entry becomes pending again at now + delayMs (attempt
 * unchanged). A lease not started yet, or one the leader hands back
 * `uncounted` (no application was given it), is undone instead: pending at
 * its own due time or now + delayMs, the later, its attempt not counted.
 */
export async function applyNack(ctx: ApplyContext, cmd: Of<'nack'>): Promise<CommandResult> {
  validateTag(cmd.tag);
  validateDuration(cmd.delayMs, 'delay_ms', 'maxDelayMs', ctx.limits.maxDelayMs);
  validateNackError(cmd.error ?? '');
  if (cmd.tag.length === RUN_TAG_BYTES) return { kind: 'nack', outcome: await nackRun(ctx, cmd) };
  const key = tagEntryKey(cmd.tag);
  const ahead = await ctx.entries.get(key);
  if (
    ahead &&
    namesLease(ahead, cmd.tag) &&
    (leaseNotStarted(ahead, ctx.nowMs) || (cmd.uncounted === true && leaseHeld(ahead, ctx.nowMs)))
  ) {
    // The leader hands back a lease nobody will get or got (its consumer left before its start,
    // or it was never sent): the entry is pending again at its own due time, the attempt not counted.
    const topic = await ctx.topics.require(ahead.topic);
    if (groupDeleting(topic, ahead.group))
      return { kind: 'nack', outcome: { tag: cmd.tag, status: 'lease-expired' } };
    const pending = withoutLease(ahead);
    // Without a delay it keeps its due time (and its key): one past is due now.
    const dueAtMs = cmd.delayMs > 0 ? Math.max(pending.dueAtMs, ctx.nowMs + cmd.delayMs) : pending.dueAtMs;
    const next = { ...pending, dueAtMs };
    const at = await ctx.entries.update(topic, key, ahead, next);
    await ctx.entries.order.handedBack(topic, at, next);
    return { kind: 'nack', outcome: { tag: cmd.tag, status: 'ok', dueAtMs } };
  }
  const leased = await leasedEntry(ctx, cmd.tag);
  if (!leased) return { kind: 'nack', outcome: { tag: cmd.tag, status: 'lease-expired' } };
  const dueAtMs = ctx.nowMs + cmd.delayMs;
  // The failure's text stays with the entry (and goes into its dead letter): the last nack's.
  const next = { ...pendingAt(leased.entry, dueAtMs), lastError: cmd.error ?? '' };
  await ctx.entries.update(leased.topic, key, leased.entry, next);
  await ctx.nacked(leased.topic, leased.entry);
  return { kind: 'nack', outcome: { tag: cmd.tag, status: 'ok', dueAtMs } };
}

/**
 * Extend: the lease now ends at now + leaseMs. A lease in place keeps its tag;
 * a moved lease moves again, under a new tag.
 */
export async function applyExtend(ctx: ApplyContext, cmd: Of<'extend'>): Promise<CommandResult> {
  validateTag(cmd.tag);
  validateLeaseMs(cmd.leaseMs, ctx.limits);
  if (cmd.tag.length === RUN_TAG_BYTES) return { kind: 'extend', outcome: await extendRun(ctx, cmd) };
  const leased = await leasedEntry(ctx, cmd.tag);
  if (!leased) return { kind: 'extend', outcome: { tag: cmd.tag, status: 'lease-expired' } };
  const dueAtMs = ctx.nowMs + cmd.leaseMs;
  const key = tagEntryKey(cmd.tag);
  if (leased.entry.leaseEndMs > 0) {
    await ctx.entries.rewrite(leased.topic, key, leased.entry, { ...leased.entry, leaseEndMs: dueAtMs });
    return { kind: 'extend', outcome: { tag: cmd.tag, status: 'ok', newTag: cmd.tag, dueAtMs } };
  }
  const newTag = await ctx.entries.move(leased.topic, key, leased.entry, { ...leased.entry, dueAtMs });
  return { kind: 'extend', outcome: { tag: cmd.tag, status: 'ok', newTag, dueAtMs } };
}
