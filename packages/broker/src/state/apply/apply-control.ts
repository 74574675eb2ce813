import { invariant } from '@fermata/base';
import type { Command, Target } from '../commands/commands.js';
import type {
  CommandResult,
  DeadlineEnd,
  ExpireOutcome,
  GroupChange,
  RedriveOutcome,
} from '../commands/results.js';
import { resolveDue } from '../commands/validation.js';
import { LimitError, topicDeleting, ValidationError } from '../model/errors.js';
import {
  groupDeleting,
  leaseEndOf,
  leaseHeld,
  type MessageIndexRec,
  maybeOrdered,
  pendingAt,
  type QueueEntryRec,
  type TopicRec,
} from '../model/records.js';
import { deadLetterAtLease } from './apply-runs.js';
import type { ApplyContext } from './context.js';
import { type Held, heldOf, letGo } from './held.js';

type Of<K extends Command['kind']> = Extract<Command, { kind: K }>;

type Located =
  | { readonly state: 'not-found' }
  | { readonly state: 'done'; readonly id: bigint }
  | {
      readonly state: 'live';
      readonly id: bigint;
      readonly index: MessageIndexRec;
      /** Each live group's entry as it stands (`held.view`: its held view when a run lease holds it). */
      readonly entries: readonly { tag: Uint8Array; entry: QueueEntryRec; held: Held }[];
      readonly changes: readonly GroupChange[];
      /** Some group holds it under a lease that still runs. */
      readonly inFlight: boolean;
    };

/** Finds a message of `topic` by id or key, with every group's live entry. */
async function locate(ctx: ApplyContext, topic: TopicRec, target: Target): Promise<Located> {
  let id: bigint;
  if ('key' in target) {
    const rec = await ctx.messages.getKey(topic.name, target.key);
    if (!rec) return { state: 'not-found' };
    if (rec.endedAtMs > 0)
      return rec.windowEndMs > ctx.nowMs ? { state: 'done', id: rec.id } : { state: 'not-found' };
    id = rec.id;
  } else {
    id = target.id;
  }
  const index = await ctx.messages.getIndex(id);
  if (!index || index.topic !== topic.name) return { state: 'not-found' };
  if (index.done) return { state: 'done', id };
  // A group being deleted has let go of the message: its entry is left to the purge.
  const live = index.groups.filter((g) => g.outcome === 'live' && !groupDeleting(topic, g.group));
  await ctx.prefetch(ctx.entries.reads(live.map((g) => g.tag)));
  const entries: { tag: Uint8Array; entry: QueueEntryRec; held: Held }[] = [];
  const changes: GroupChange[] = [];
  let inFlight = false;
  for (const g of index.groups) {
    if (g.outcome !== 'live' || groupDeleting(topic, g.group)) {
      changes.push({ group: g.group, state: 'ended' });
      continue;
    }
    const stored = await ctx.entries.get(g.tag);
    invariant(stored, () => `message ${id} group ${g.group} names a missing entry`);
    const held = heldOf(ctx, g.tag, stored);
    const running = leaseHeld(held.view, ctx.nowMs);
    inFlight ||= running;
    entries.push({ tag: g.tag, entry: held.view, held });
    changes.push({ group: g.group, state: running ? 'in-flight' : 'pending' });
  }
  return { state: 'live', id, index, entries, changes, inFlight };
}

/**
 * Cancel is all-or-nothing across groups: if any group holds the message under
 * a running lease the answer is IN_FLIGHT and nothing changes; otherwise every
 * group's remaining entry is removed (groups that already finished stay
 * finished) and the answer is CANCELLED.
 */
export async function applyCancel(ctx: ApplyContext, cmd: Of<'cancel'>): Promise<CommandResult> {
  const topic = await ctx.topics.require(cmd.topic);
  if (topic.deleting) throw topicDeleting(topic.name);
  const found = await locate(ctx, topic, cmd.target);
  if (found.state === 'not-found') return { kind: 'cancel', result: { status: 'not-found', groups: [] } };
  if (found.state === 'done')
    return { kind: 'cancel', result: { status: 'already-done', id: found.id, groups: [] } };
  if (found.inFlight) {
    return { kind: 'cancel', result: { status: 'in-flight', id: found.id, groups: found.changes } };
  }
  // A run lease that ran out lets go of its entry (counted: the entry goes).
  for (const { tag, entry, held } of found.entries) {
    await ctx.entries.remove(topic, tag, entry, 'removed', held.runTag);
    letGo(ctx, held);
  }
  return { kind: 'cancel', result: { status: 'cancelled', id: found.id, groups: found.changes } };
}

/** Reschedule is all-or-nothing like cancel: every remaining entry moves to the new due time. */
export async function applyReschedule(ctx: ApplyContext, cmd: Of<'reschedule'>): Promise<CommandResult> {
  const dueAtMs = resolveDue(cmd, ctx.nowMs, ctx.limits);
  const topic = await ctx.topics.require(cmd.topic);
  if (topic.deleting) throw topicDeleting(topic.name);
  const found = await locate(ctx, topic, cmd.target);
  if (found.state === 'not-found') return { kind: 'reschedule', result: { status: 'not-found', groups: [] } };
  if (found.state === 'done') {
    return { kind: 'reschedule', result: { status: 'already-done', id: found.id, groups: [] } };
  }
  if (found.inFlight) {
    return { kind: 'reschedule', result: { status: 'in-flight', id: found.id, groups: found.changes } };
  }
  // A lease that ran out stays counted in the entry's attempt and history.
  for (const { tag, entry, held } of found.entries) {
    const next = pendingAt(entry, dueAtMs);
    // A message ordered by its key moves as its key's order says (key-order.ts).
    const ordered = maybeOrdered(entry) && (await ctx.entries.order.reschedule(topic, tag, entry, next));
    if (!ordered) await ctx.entries.update(topic, tag, entry, next, held.runTag);
    letGo(ctx, held);
  }
  return {
    kind: 'reschedule',
    result: { status: 'rescheduled', id: found.id, dueAtMs, groups: found.changes },
  };
}

/**
 * Expire (proposed by the janitor from the expiry index): a message whose
 * expireAt has passed leaves every group, in flight or not; per the topic's
 * expiry action each group's entry is removed or dead-lettered.
 */
export async function applyExpire(ctx: ApplyContext, cmd: Of<'expire'>): Promise<CommandResult> {
  if (cmd.ids.length === 0) throw new ValidationError('ids', 'names no id');
  if (cmd.ids.length > ctx.limits.maxIdsPerCommand) {
    throw new LimitError('maxIdsPerCommand', ctx.limits.maxIdsPerCommand, cmd.ids.length, 'ids');
  }
  ctx.claimIds(cmd.firstId, cmd.idCount, 'first_id');
  ctx.deadLetters.reserveIds(cmd.firstId, cmd.idCount, cmd.deadLetterFallbackTopics ?? []);
  // The entry an expiry record names (a message of one entry that carries its body), or else the
  // index and body records: a message whose entry never moved has no index record.
  const keys = cmd.keys ?? [];
  const named = (i: number): Uint8Array | undefined => (keys[i]?.length ? keys[i] : undefined);
  const unnamed = cmd.ids.filter((_, i) => named(i) === undefined);
  await ctx.prefetch([
    ...ctx.entries.reads(keys.filter((k) => k.length > 0)),
    ...ctx.messages.indexAndBodyReads(unnamed),
  ]);
  const outcomes: ExpireOutcome[] = [];
  for (const [i, id] of cmd.ids.entries()) {
    const key = named(i);
    const atMs = cmd.atMs?.[i] ?? 0;
    const index = key
      ? await ctx.messages.indexAt(id, key, await ctx.entries.get(key))
      : await ctx.messages.getIndex(id);
    if (!index || index.done) {
      // A record moved to a lease's end (below) outlives its message: it stands for nothing now.
      ctx.messages.delExpiry(atMs, id);
      outcomes.push({ id, status: 'gone' });
      continue;
    }
    if (index.expireAtMs === 0 || index.expireAtMs > ctx.nowMs) {
      outcomes.push(atMs > 0 ? await expireAtDeadline(ctx, id, index, key, atMs) : { id, status: 'not-due' });
      continue;
    }
    const topic = await ctx.topics.get(index.topic);
    invariant(topic, () => `message ${id} names missing topic ${index.topic}`);
    const deadLetter = topic.settings.expiryAction === 'dead-letter';
    const live = index.groups.filter((g) => g.outcome === 'live');
    await ctx.prefetch(ctx.entries.reads(live.map((g) => g.tag)));
    const entries: { tag: Uint8Array; entry: QueueEntryRec; held: Held }[] = [];
    for (const g of live) {
      const stored = await ctx.entries.get(g.tag);
      invariant(stored, () => `message ${id} group ${g.group} names a missing entry`);
      const held = heldOf(ctx, g.tag, stored);
      entries.push({ tag: g.tag, entry: held.view, held });
    }
    // Dead letters copy the payload once per group: past this command's bound the message
    // waits for the janitor's next expire.
    const copies = deadLetter && !topic.deleting ? live.length : 0;
    const first = entries[0]?.entry;
    const payload = copies > 0 && first ? ((await ctx.messages.bodyOf(first))?.payload.length ?? 0) : 0;
    if (!ctx.fits(live.length + 1, copies * payload)) {
      outcomes.push({ id, status: 'not-due' });
      continue;
    }
    for (const { tag, entry, held } of entries) {
      // A topic or group being deleted sends nothing on: its expired entries just go.
      if (deadLetter && !groupDeleting(topic, entry.group))
        await ctx.deadLetters.deadLetter(topic, tag, entry, 'expired', held.runTag);
      else await ctx.entries.remove(topic, tag, entry, 'expired', held.runTag);
      letGo(ctx, held);
    }
    outcomes.push({ id, status: deadLetter && !topic.deleting ? 'dead-lettered' : 'expired' });
  }
  return { kind: 'expire', outcomes };
}

/**
 * An expiry record at `atMs` of a message whose TTL has not run out: its
 * deadline (or the record of it moved to a lease's end). Past the deadline,
 * each group's entry that no running lease holds ends as a lease would end
 * it (dead-lettered with reason `deadline_exceeded`, or dropped); one that a
 * lease taken before the deadline holds goes on, and the record moves to the
 * latest end of those leases, when the message is looked at again (a lease
 * never starts at or after the deadline, so the one that lapses there is
 * not taken again). Before it, nothing. In a topic or group being deleted
 * the entry goes, as an expired one does.
 */
async function expireAtDeadline(
  ctx: ApplyContext,
  id: bigint,
  index: MessageIndexRec,
  key: Uint8Array | undefined,
  atMs: number,
): Promise<ExpireOutcome> {
  const now = ctx.nowMs;
  const live = index.groups.filter((g) => g.outcome === 'live');
  await ctx.prefetch(ctx.entries.reads(live.map((g) => g.tag)));
  const held: { tag: Uint8Array; held: Held }[] = [];
  for (const g of live) {
    const stored = await ctx.entries.get(g.tag);
    invariant(stored, () => `message ${id} group ${g.group} names a missing entry`);
    held.push({ tag: g.tag, held: heldOf(ctx, g.tag, stored) });
  }
  const deadlineMs = held[0]?.held.view.deliverBeforeMs ?? 0;
  if (deadlineMs === 0 || deadlineMs > now) {
    // A record moved to a lease's end, of a message with no deadline any more: nothing to wait for.
    if (deadlineMs === 0 && atMs !== index.expireAtMs) ctx.messages.delExpiry(atMs, id);
    return { id, status: 'not-due' };
  }
  const topic = await ctx.topics.get(index.topic);
  invariant(topic, () => `message ${id} names missing topic ${index.topic}`);
  const ended: DeadlineEnd[] = [];
  let heldUntilMs = 0;
  let deferred = false;
  for (const { tag, held: h } of held) {
    if (groupDeleting(topic, h.view.group)) {
      // As an expiry there: a topic or group being deleted sends nothing on, its entries just go.
      const removing = ctx.entries.remove(topic, tag, h.view, 'expired', h.runTag);
      if (removing) await removing;
      letGo(ctx, h);
      continue;
    }
    if (leaseHeld(h.view, now)) {
      heldUntilMs = Math.max(heldUntilMs, leaseEndOf(h.view));
      continue;
    }
    const o = await deadLetterAtLease(ctx, topic, tag, h, 'deadline_exceeded');
    if (o.status === 'not-due')
      deferred = true; // past this command's bound: the next sweep goes on
    else ended.push({ group: h.view.group, action: o.status === 'dead-lettered' ? 'dead-letter' : 'drop' });
  }
  // The message's own records (TTL, deadline) go with it; a moved one is this command's to delete.
  const own = atMs === index.expireAtMs || atMs === deadlineMs;
  if (deferred) {
    // The record at atMs stays: the janitor reads it again.
  } else if (heldUntilMs > 0) {
    // Looked at again when the latest lease that holds it ends (the record at atMs, due, would
    // be read at every sweep until then; a TTL's is not due, so it is not this one).
    ctx.messages.delExpiry(atMs, id);
    if (heldUntilMs !== index.expireAtMs) ctx.messages.putExpiry(heldUntilMs, id, key);
  } else if (!own) {
    ctx.messages.delExpiry(atMs, id);
  }
  const deadline = { topic: topic.name, groups: ended };
  if (ended.length === 0) return { id, status: 'not-due', deadline };
  return {
    id,
    status: ended.some((e) => e.action === 'dead-letter') ? 'dead-lettered' : 'expired',
    deadline,
  };
}

/**
 * Deletes publish records the leader's janitor found no longer needed: none
 * of their messages was at its published key when it read them. That stays
 * true (a message away from its published key ended, or moved and has an
 * index record until it ends), so the records are deleted without being read
 * again. A first id above every id assigned names no record: refused.
 */
export function applyForgetPublishes(ctx: ApplyContext, cmd: Of<'forget-publishes'>): CommandResult {
  cmd.firstIds.forEach((id, i) => {
    if (id > ctx.ids.lastId)
      throw new ValidationError(`first_ids[${i}]`, `${id} is above the last id ${ctx.ids.lastId}`);
  });
  for (const id of cmd.firstIds) ctx.publishes.forget(id);
  return { kind: 'forget-publishes', forgotten: cmd.firstIds.length };
}

/** Ends the reservation of keys whose dedup window has passed (proposed by the janitor). */
export async function applyPurgeKeys(ctx: ApplyContext, cmd: Of<'purge-keys'>): Promise<CommandResult> {
  // The command was validated as a whole before it got here (state-machine.ts `execute`).
  const requests = cmd.requests ?? [];
  await ctx.prefetch([...ctx.messages.keyReads(cmd.keys), ...ctx.requests.reads(requests)]);
  let purged = 0;
  for (const k of cmd.keys) {
    const rec = await ctx.messages.getKey(k.topic, k.key);
    if (!rec || rec.endedAtMs === 0 || rec.windowEndMs > ctx.nowMs) continue;
    await ctx.messages.forgetKey(k.topic, k.key, rec);
    purged++;
  }
  for (const k of requests) {
    const rec = await ctx.requests.get(k);
    if (!rec || rec.windowEndMs > ctx.nowMs) continue;
    ctx.requests.forget(k, rec);
    purged++;
  }
  return { kind: 'purge-keys', purged };
}

/**
 * Redrive: each dead letter (a message of `topic`, a dead-letter topic) of
 * `sourceTopic` goes back to the group it was dead-lettered from, as a new
 * message with an id from the block the command reserved, due now, no
 * attempt counted, no key (the key was the dead letter's source's), and
 * leaves the dead-letter topic. One held by a consumer of the dead-letter
 * topic stays (`in-flight`). Nothing goes back to a topic or group being
 * deleted (`group-gone`), and a dead-letter topic being deleted gives
 * nothing back (`not-found`). Bounded: at most maxIdsPerCommand ids (checked
 * by validateCommand), each a fixed number of reads and writes, and each
 * copies its payload: past the command's bound the rest answer `deferred`
 * (the leader proposes them again).
 */
export async function applyRedrive(ctx: ApplyContext, cmd: Of<'redrive'>): Promise<CommandResult> {
  ctx.claimIds(cmd.firstId, cmd.idCount, 'first_id');
  let nextId = cmd.firstId;
  const endId = cmd.firstId + BigInt(cmd.idCount);
  const named = await ctx.topics.get(cmd.topic);
  // A dead-letter topic being deleted has let go of its messages: they are left to its purge.
  const dlq = named?.deleting ? undefined : named;
  const outcomes: RedriveOutcome[] = [];
  let full = false;
  for (const id of cmd.ids) {
    if (full) {
      outcomes.push({ id, status: 'deferred' });
      continue;
    }
    const found = dlq ? await locate(ctx, dlq, { id }) : ({ state: 'not-found' } as const);
    if (found.state !== 'live') {
      outcomes.push({ id, status: 'not-found' });
      continue;
    }
    // The body its entry carries, or its body record (a topic of several groups keeps one).
    const body = found.entries[0]
      ? await ctx.messages.bodyOf(found.entries[0].entry)
      : await ctx.messages.getBody(id);
    const dead = body?.deadLetter;
    if (!dead || dead.sourceTopic !== cmd.sourceTopic) {
      outcomes.push({ id, status: 'not-a-dead-letter' });
      continue;
    }
    if (found.inFlight) {
      outcomes.push({ id, status: 'in-flight' });
      continue;
    }
    const source = await ctx.topics.get(dead.sourceTopic);
    if (!source?.groups.includes(dead.sourceGroup) || groupDeleting(source, dead.sourceGroup)) {
      outcomes.push({ id, status: 'group-gone' });
      continue;
    }
    // Two items (the message written, the dead letter removed) and the payload copied: past the
    // command's bound this one and the rest wait for the next command.
    if (!ctx.fits(2, body!.payload.length)) {
      full = true;
      outcomes.push({ id, status: 'deferred' });
      continue;
    }
    if (nextId >= endId)
      throw new ValidationError('id_count', `reserves ${cmd.idCount} ids for ${cmd.ids.length} dead letters`);
    const newId = nextId++;
    const adding = ctx.entries.addMessage(
      source,
      {
        id: newId,
        topic: source.name,
        payload: body!.payload,
        headers: body!.headers,
        key: '',
        enqueuedAtMs: ctx.nowMs,
        dueAtMs: ctx.nowMs,
        expireAtMs: 0,
        deadLetter: undefined,
        indexImplied: undefined,
        // A redriven message keeps its ordering key; its deadline passed or never was.
        orderingKey: body!.orderingKey,
        deliverBeforeMs: 0,
      },
      dead.sourceGroup,
    );
    if (adding) await adding;
    for (const { tag, entry, held } of found.entries) {
      await ctx.entries.remove(dlq!, tag, entry, 'removed', held.runTag);
      letGo(ctx, held);
    }
    outcomes.push({ id, status: 'redriven', newId });
  }
  return { kind: 'redrive', outcomes };
}
