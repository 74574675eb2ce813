import { DEFAULT_GROUP } from '../keys.js';
import type { Command } from './commands.js';
import type { ApplyContext } from './context.js';
import { AlreadyExistsError, ConflictError, LimitError, NotFoundError } from './errors.js';
import type { TopicRec } from './records.js';
import type { CommandResult } from './results.js';
import { settingsForCreate, settingsForUpdate, validateGroupName, validateTopicName } from './validation.js';

type Of<K extends Command['kind']> = Extract<Command, { kind: K }>;

export async function applyCreateTopic(ctx: ApplyContext, cmd: Of<'create-topic'>): Promise<CommandResult> {
  validateTopicName(cmd.name, ctx.limits, 'name');
  const settings = settingsForCreate(cmd.settings, ctx.limits);
  if (await ctx.topics.get(cmd.name)) throw new AlreadyExistsError('topic', cmd.name);
  await ctx.queues.register(cmd.name, DEFAULT_GROUP);
  const topic: TopicRec = { name: cmd.name, settings, groups: [DEFAULT_GROUP], createdAtMs: ctx.nowMs };
  ctx.topics.put(topic);
  return { kind: 'create-topic', topic };
}

/** Changing time_bucket_ms re-keys nothing, so it is refused while the topic holds entries. */
export async function applyUpdateTopic(ctx: ApplyContext, cmd: Of<'update-topic'>): Promise<CommandResult> {
  const current = await ctx.topics.require(cmd.name, 'name');
  const settings = settingsForUpdate(current.settings, cmd.settings, cmd.updateMask ?? [], ctx.limits);
  if (settings.timeBucketMs !== current.settings.timeBucketMs) {
    for (const group of current.groups) {
      const q = await ctx.queues.get(ctx.queues.hash(current.name, group));
      if (q && q.pending + q.inFlight > 0) {
        throw new ConflictError(
          'not-empty',
          `time_bucket_ms can change only while topic "${current.name}" is empty`,
        );
      }
    }
  }
  const topic: TopicRec = { ...current, settings };
  ctx.topics.put(topic);
  return { kind: 'update-topic', topic };
}

/**
 * Deletes a topic with everything it holds: entries of every group, bodies,
 * index records, expiry entries, keys (reserved or not). Its dead-letter topic stays.
 */
export async function applyDeleteTopic(ctx: ApplyContext, cmd: Of<'delete-topic'>): Promise<CommandResult> {
  const topic = await ctx.topics.require(cmd.name, 'name');
  const ids = new Set<bigint>();
  for (const group of topic.groups) {
    for (const { tag, id } of await ctx.entries.scanQueue(ctx.queues.hash(topic.name, group))) {
      ctx.entries.deleteForTopic(tag);
      ids.add(id);
    }
    ctx.queues.drop(ctx.queues.hash(topic.name, group));
  }
  for (const id of ids) await ctx.messages.deleteForTopic(id);
  await ctx.messages.deleteKeysOf(topic.name);
  await ctx.schedules.deleteTopic(topic.name);
  ctx.topics.del(topic.name);
  return { kind: 'delete-topic', removedMessages: ids.size };
}

/** A new group receives every message published after it was created. */
export async function applyCreateGroup(ctx: ApplyContext, cmd: Of<'create-group'>): Promise<CommandResult> {
  validateGroupName(cmd.group, ctx.limits);
  const topic = await ctx.topics.require(cmd.topic);
  if (topic.groups.includes(cmd.group)) throw new AlreadyExistsError('group', `${cmd.topic}/${cmd.group}`);
  if (topic.groups.length >= ctx.limits.maxGroupsPerTopic) {
    throw new LimitError('maxGroupsPerTopic', ctx.limits.maxGroupsPerTopic, topic.groups.length + 1, 'group');
  }
  await ctx.queues.register(topic.name, cmd.group);
  const next: TopicRec = { ...topic, groups: [...topic.groups, cmd.group] };
  ctx.topics.put(next);
  return { kind: 'create-group', topic: next };
}

/** Removes a group and its entries; a message no other group holds ends. `default` cannot be deleted. */
export async function applyDeleteGroup(ctx: ApplyContext, cmd: Of<'delete-group'>): Promise<CommandResult> {
  validateGroupName(cmd.group, ctx.limits);
  const topic = await ctx.topics.require(cmd.topic);
  if (cmd.group === DEFAULT_GROUP)
    throw new ConflictError('default-group', 'the default group cannot be deleted');
  if (!topic.groups.includes(cmd.group)) throw new NotFoundError('group', `${cmd.topic}/${cmd.group}`);
  const rows = await ctx.entries.scanQueue(ctx.queues.hash(topic.name, cmd.group));
  for (const { tag } of rows) {
    const entry = await ctx.entries.get(tag);
    if (entry) await ctx.entries.remove(topic, tag, entry, 'removed');
  }
  ctx.queues.drop(ctx.queues.hash(topic.name, cmd.group));
  ctx.topics.put({ ...topic, groups: topic.groups.filter((g) => g !== cmd.group) });
  return { kind: 'delete-group', removedMessages: rows.length };
}
