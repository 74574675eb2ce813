/**
 * Deleting a topic or a group, in bounded steps (docs/design.md, "Every
 * apply is bounded"). DeleteTopic and DeleteGroup only mark the deletion:
 * the topic (or group) takes no publish, lease or settle from then on, and a
 * purge record says what is left to remove. The leader then proposes purge
 * steps (leader/purger.ts), each removing at most `maxRecords` records from
 * where the last one stopped; the record and its cursor are replicated, so a
 * new leader (or a restarted one) resumes where the log says. The last step
 * removes the queue records, the purge record, and for a topic its record:
 * the name is then free again.
 */
import { invariant } from '@fermata/base';
import { DEFAULT_GROUP } from '../../keys.js';
import type { Command } from '../commands/commands.js';
import type { CommandResult } from '../commands/results.js';
import { validateGroupName } from '../commands/validation.js';
import { ConflictError, NotFoundError, topicDeleting } from '../model/errors.js';
import { NO_GROUP_SETTINGS } from '../model/group-settings.js';
import { maybeOrdered, type PurgeRec, type TopicRec, withGroupSettings } from '../model/records.js';
import type { ApplyContext } from './context.js';
import { heldOf, letGo } from './held.js';

/** A purge cursor at the start of what its phase walks. */
const START = new Uint8Array(0);

type Of<K extends Command['kind']> = Extract<Command, { kind: K }>;

/** Entries of each group (pending and in flight), read from the queue records. */
async function entryCounts(ctx: ApplyContext, topic: TopicRec, groups: readonly string[]): Promise<number[]> {
  const out: number[] = [];
  for (const g of groups) {
    const q = await ctx.queues.get(ctx.queues.hash(topic.name, g));
    out.push(q ? q.pending + q.inFlight : 0);
  }
  return out;
}

/**
 * Marks a topic deleted, with everything it holds: entries of every group,
 * bodies, index records, expiry entries, keys, schedules (its dead-letter
 * topic stays). Answers the messages it held, counted in its fullest group.
 * A topic already being deleted answers what is left (a retried call).
 */
export async function applyDeleteTopic(ctx: ApplyContext, cmd: Of<'delete-topic'>): Promise<CommandResult> {
  const topic = await ctx.topics.require(cmd.name, 'name');
  const groups = [...topic.groups, ...(topic.deletingGroups ?? [])];
  const counts = await entryCounts(ctx, topic, groups);
  const removedMessages = Math.max(0, ...counts);
  if (topic.deleting) return { kind: 'delete-topic', removedMessages };
  // The whole topic's purge empties the groups being deleted too: their own purges end here.
  for (const g of topic.deletingGroups ?? []) ctx.purges.del(topic.name, g);
  ctx.purges.put(
    {
      topic: topic.name,
      group: '',
      startedAtMs: ctx.nowMs,
      groups,
      phase: 'entries',
      groupIndex: 0,
      cursor: START,
      entriesAtStart: counts.reduce((a, b) => a + b, 0),
      removedEntries: 0,
      removedRecords: 0,
    },
    true,
  );
  ctx.topics.put({ ...topic, deleting: true });
  return { kind: 'delete-topic', removedMessages };
}

/**
 * Marks a group deleted (not `default`): it receives nothing from now on and
 * its entries are removed in steps, each ending the messages no other group
 * holds. Answers the entries it held; a group already being deleted answers
 * what is left.
 */
export async function applyDeleteGroup(ctx: ApplyContext, cmd: Of<'delete-group'>): Promise<CommandResult> {
  validateGroupName(cmd.group, ctx.limits);
  const topic = await ctx.topics.require(cmd.topic);
  if (cmd.group === DEFAULT_GROUP)
    throw new ConflictError('default-group', 'the default group cannot be deleted');
  if (topic.deleting) throw topicDeleting(topic.name);
  const [entries] = await entryCounts(ctx, topic, [cmd.group]);
  if (topic.deletingGroups?.includes(cmd.group)) return { kind: 'delete-group', removedMessages: entries! };
  if (!topic.groups.includes(cmd.group)) throw new NotFoundError('group', `${cmd.topic}/${cmd.group}`);
  ctx.purges.put(
    {
      topic: topic.name,
      group: cmd.group,
      startedAtMs: ctx.nowMs,
      groups: [cmd.group],
      phase: 'entries',
      groupIndex: 0,
      cursor: START,
      entriesAtStart: entries!,
      removedEntries: 0,
      removedRecords: 0,
    },
    true,
  );
  // Its settings go with it: a group created again under the name starts with none.
  ctx.topics.put(
    withGroupSettings(
      {
        ...topic,
        groups: topic.groups.filter((g) => g !== cmd.group),
        deletingGroups: [...(topic.deletingGroups ?? []), cmd.group],
      },
      cmd.group,
      NO_GROUP_SETTINGS,
    ),
  );
  return { kind: 'delete-group', removedMessages: entries! };
}

/**
 * One step of a deletion: removes at most `maxRecords` records (queue entries
 * with their messages, then for a topic its key records, then its schedules)
 * after the record's cursor, and finishes the deletion once nothing is left.
 * A step for a deletion that is over (a step proposed twice) changes nothing.
 */
export async function applyPurge(ctx: ApplyContext, cmd: Of<'purge'>): Promise<CommandResult> {
  const rec = await ctx.purges.get(cmd.topic, cmd.group);
  if (!rec) return { kind: 'purge', removedEntries: 0, removedRecords: 0, done: true };
  const topic = await ctx.topics.get(rec.topic);
  invariant(topic, () => `purge of "${rec.topic}/${rec.group}" whose topic is gone`);
  let state: PurgeRec = rec;
  let left = cmd.maxRecords;
  let entries = 0;
  let records = 0;
  while (left > 0) {
    if (state.phase === 'entries') {
      const group = state.groups[state.groupIndex];
      if (group === undefined) {
        if (state.group !== '') return finishGroup(ctx, topic, state, entries);
        state = { ...state, phase: 'keys', cursor: START };
        continue;
      }
      const n = await purgeEntries(ctx, topic, state, group, left);
      entries += n.count;
      left -= n.count;
      state =
        n.count < n.asked
          ? { ...state, groupIndex: state.groupIndex + 1, cursor: START }
          : { ...state, cursor: n.last };
    } else if (state.phase === 'keys') {
      const asked = left;
      const n = await ctx.messages.purgeKeysOf(topic.name, state.cursor, asked);
      records += n.count;
      left -= n.count;
      state =
        n.count < asked ? { ...state, phase: 'schedules', cursor: START } : { ...state, cursor: n.last };
    } else {
      const after = new TextDecoder().decode(state.cursor);
      const asked = left;
      const n = await ctx.schedules.purgeTopic(topic.name, after, asked);
      records += n.count;
      left -= n.count;
      if (n.count < asked) return finishTopic(ctx, topic, state, entries, records);
      state = { ...state, cursor: new TextEncoder().encode(n.last) };
    }
  }
  ctx.purges.put({
    ...state,
    removedEntries: state.removedEntries + entries,
    removedRecords: state.removedRecords + records,
  });
  return { kind: 'purge', removedEntries: entries, removedRecords: records, done: false };
}

/**
 * Removes up to `limit` entries of `group` after the cursor. A topic's are
 * deleted with their messages' records as they are (every group goes); a
 * group's are removed as an ack would, ending the messages no other group holds.
 */
async function purgeEntries(
  ctx: ApplyContext,
  topic: TopicRec,
  state: PurgeRec,
  group: string,
  limit: number,
): Promise<{ count: number; asked: number; last: Uint8Array }> {
  const hash = ctx.queues.hash(topic.name, group);
  const rows = await ctx.entries.scanQueue(hash, state.cursor, limit);
  if (state.group !== '') {
    // A group's entries end as an ack would: their index records are read in one round first.
    await ctx.prefetch(
      ctx.messages.indexAndBodyReads(rows.filter((r) => !r.entry.indexImplied).map((r) => r.entry.id)),
    );
    for (const { tag, entry } of rows) {
      const held = heldOf(ctx, tag, entry);
      await ctx.entries.remove(topic, tag, held.view, 'removed', held.runTag);
      letGo(ctx, held);
    }
  } else {
    // A topic's go with their messages' records. An entry that implies its index carries the
    // message's expiry: nothing to read. Others read their index records, in one round.
    await ctx.prefetch(
      ctx.messages.indexReads(rows.filter((r) => !r.entry.indexImplied).map((r) => r.entry.id)),
    );
    for (const { tag, entry } of rows) {
      ctx.entries.deleteForTopic(tag);
      // Its key's records go with the topic's entries (docs/design.md, "Per-key ordering").
      if (maybeOrdered(entry)) ctx.entries.order.purged(hash, tag, entry);
      if (entry.indexImplied) ctx.messages.deleteImpliedForTopic(entry);
      else
        await ctx.messages.deleteForTopic(
          entry.id,
          entry.expireAtMs,
          entry.body !== undefined,
          entry.deliverBeforeMs,
        );
      // A run lease that holds it lets go: its record goes with its last open offset.
      const held = heldOf(ctx, tag, entry);
      letGo(ctx, held);
      const inFlight = held.view.inFlight;
      if (!inFlight) ctx.queues.dueLoad.moved(hash, held.view.dueAtMs, undefined);
      const counting = ctx.queues.count(hash, inFlight ? 0 : -1, inFlight ? -1 : 0, 0);
      if (counting) await counting;
    }
  }
  const last = rows.length > 0 ? rows[rows.length - 1]!.tag : state.cursor;
  return { count: rows.length, asked: limit, last };
}

function finishGroup(ctx: ApplyContext, topic: TopicRec, state: PurgeRec, entries: number): CommandResult {
  ctx.queues.drop(ctx.queues.hash(topic.name, state.group));
  const deletingGroups = (topic.deletingGroups ?? []).filter((g) => g !== state.group);
  const { deletingGroups: _, ...rest } = topic;
  ctx.topics.put(deletingGroups.length > 0 ? { ...rest, deletingGroups } : rest);
  ctx.purges.del(topic.name, state.group);
  return { kind: 'purge', removedEntries: entries, removedRecords: 0, done: true };
}

function finishTopic(
  ctx: ApplyContext,
  topic: TopicRec,
  state: PurgeRec,
  entries: number,
  records: number,
): CommandResult {
  for (const g of state.groups) ctx.queues.drop(ctx.queues.hash(topic.name, g));
  ctx.topics.del(topic.name);
  ctx.purges.del(topic.name, '');
  return { kind: 'purge', removedEntries: entries, removedRecords: records, done: true };
}
