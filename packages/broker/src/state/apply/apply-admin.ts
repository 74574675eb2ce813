import { DEFAULT_GROUP } from '../../keys.js';
import type { Command } from '../commands/commands.js';
import type { CommandResult } from '../commands/results.js';
import {
  groupSettingsForCreate,
  groupSettingsForUpdate,
  settingsForCreate,
  settingsForUpdate,
  validateGroupName,
  validateTopicName,
} from '../commands/validation.js';
import {
  AlreadyExistsError,
  ConflictError,
  LimitError,
  NotFoundError,
  topicDeleting,
} from '../model/errors.js';
import { groupPaused, groupSettingsOf, type TopicRec, withGroupSettings } from '../model/records.js';
import type { ApplyContext } from './context.js';

type Of<K extends Command['kind']> = Extract<Command, { kind: K }>;

export async function applyCreateTopic(ctx: ApplyContext, cmd: Of<'create-topic'>): Promise<CommandResult> {
  validateTopicName(cmd.name, ctx.limits, 'name');
  const settings = settingsForCreate(cmd.settings, ctx.limits);
  const existing = await ctx.topics.get(cmd.name);
  if (existing?.deleting) throw topicDeleting(existing.name);
  if (existing) throw new AlreadyExistsError('topic', cmd.name);
  await ctx.queues.register(cmd.name, DEFAULT_GROUP);
  const topic: TopicRec = { name: cmd.name, settings, groups: [DEFAULT_GROUP], createdAtMs: ctx.nowMs };
  ctx.topics.put(topic);
  return { kind: 'create-topic', topic };
}

/** Changing time_bucket_ms re-keys nothing, so it is refused while the topic holds entries. */
export async function applyUpdateTopic(ctx: ApplyContext, cmd: Of<'update-topic'>): Promise<CommandResult> {
  const current = await ctx.topics.require(cmd.name, 'name');
  if (current.deleting) throw topicDeleting(current.name);
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
  noteResumed(ctx, current, topic, topic.groups);
  return { kind: 'update-topic', topic };
}

/** The groups of `groups` that `before` paused and `after` does not: their queues are due again. */
function noteResumed(ctx: ApplyContext, before: TopicRec, after: TopicRec, groups: readonly string[]): void {
  for (const g of groups) if (groupPaused(before, g) && !groupPaused(after, g)) ctx.entries.resumed(after, g);
}

/** A new group receives every message published after it was created. */
export async function applyCreateGroup(ctx: ApplyContext, cmd: Of<'create-group'>): Promise<CommandResult> {
  validateGroupName(cmd.group, ctx.limits);
  const topic = await ctx.topics.require(cmd.topic);
  if (topic.deleting) throw topicDeleting(topic.name);
  if (topic.deletingGroups?.includes(cmd.group)) {
    throw new ConflictError(
      'group-deleting',
      `group "${cmd.topic}/${cmd.group}" is being deleted: create it again once its entries are removed`,
    );
  }
  if (topic.groups.includes(cmd.group)) throw new AlreadyExistsError('group', `${cmd.topic}/${cmd.group}`);
  if (topic.groups.length >= ctx.limits.maxGroupsPerTopic) {
    throw new LimitError('maxGroupsPerTopic', ctx.limits.maxGroupsPerTopic, topic.groups.length + 1, 'group');
  }
  const settings = groupSettingsForCreate(cmd.settings);
  await ctx.queues.register(topic.name, cmd.group);
  const next = withGroupSettings({ ...topic, groups: [...topic.groups, cmd.group] }, cmd.group, settings);
  ctx.topics.put(next);
  return { kind: 'create-group', topic: next };
}

/** A group's settings change as the mask says (`groupSettingsForUpdate`); the group must exist. */
export async function applyUpdateGroup(ctx: ApplyContext, cmd: Of<'update-group'>): Promise<CommandResult> {
  validateGroupName(cmd.group, ctx.limits);
  const topic = await ctx.topics.require(cmd.topic);
  if (topic.deleting) throw topicDeleting(topic.name);
  if (!topic.groups.includes(cmd.group)) throw new NotFoundError('group', `${cmd.topic}/${cmd.group}`);
  const before = groupSettingsOf(topic, cmd.group);
  const settings = groupSettingsForUpdate(before, cmd.settings, cmd.updateMask ?? []);
  const next = withGroupSettings(topic, cmd.group, settings);
  ctx.topics.put(next);
  noteResumed(ctx, topic, next, [cmd.group]);
  if (
    before.maxDeliveriesPerSecond !== settings.maxDeliveriesPerSecond ||
    before.burst !== settings.burst ||
    before.maxInFlight !== settings.maxInFlight
  )
    ctx.entries.limitsChanged(next, cmd.group);
  return { kind: 'update-group', topic: next };
}
