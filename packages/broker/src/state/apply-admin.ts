import { DEFAULT_GROUP, queueLowerBound, queueUpperBound } from '../keys.js';
import type { Command } from './commands.js';
import type { ApplyContext } from './context.js';
import { AlreadyExistsError, ConflictError, LimitError, NotFoundError } from './errors.js';
import { expirySuffix, idKey, keyWindowSuffix, NS, splitTopicKey, topicKeySuffix } from './layout.js';
import { decodeEntry, decodeKeyRec, type TopicRec } from './records.js';
import type { CommandResult } from './results.js';
import { settingsForCreate, settingsForUpdate, validateGroupName, validateTopicName } from './validation.js';

type Of<K extends Command['kind']> = Extract<Command, { kind: K }>;

export async function applyCreateTopic(ctx: ApplyContext, cmd: Of<'create-topic'>): Promise<CommandResult> {
  validateTopicName(cmd.name, ctx.limits, 'name');
  const settings = settingsForCreate(cmd.settings, ctx.limits);
  if (await ctx.getTopic(cmd.name)) throw new AlreadyExistsError('topic', cmd.name);
  await ctx.registerQueue(cmd.name, DEFAULT_GROUP);
  const topic: TopicRec = { name: cmd.name, settings, groups: [DEFAULT_GROUP], createdAtMs: ctx.nowMs };
  ctx.putTopic(topic);
  return { kind: 'create-topic', topic };
}

/** Changing time_bucket_ms re-keys nothing, so it is refused while the topic holds entries. */
export async function applyUpdateTopic(ctx: ApplyContext, cmd: Of<'update-topic'>): Promise<CommandResult> {
  const current = await ctx.requireTopic(cmd.name, 'name');
  const settings = settingsForUpdate(current.settings, cmd.settings, cmd.updateMask ?? [], ctx.limits);
  if (settings.timeBucketMs !== current.settings.timeBucketMs) {
    for (const group of current.groups) {
      const q = await ctx.getQueue(ctx.queueHash(current.name, group));
      if (q && q.pending + q.inFlight > 0) {
        throw new ConflictError(
          'not-empty',
          `time_bucket_ms can change only while topic "${current.name}" is empty`,
        );
      }
    }
  }
  const topic: TopicRec = { ...current, settings };
  ctx.putTopic(topic);
  return { kind: 'update-topic', topic };
}

/** Removes every entry of one queue; returns the ids (each once). */
async function clearQueue(
  ctx: ApplyContext,
  topic: TopicRec,
  group: string,
): Promise<{ tag: Uint8Array; id: bigint }[]> {
  const hash = ctx.queueHash(topic.name, group);
  const upper = queueUpperBound(hash);
  const range = NS.queue.range(queueLowerBound(hash), upper);
  const rows = await ctx.txn.scan(range);
  return rows.map((r) => ({ tag: NS.queue.strip(r.key), id: decodeEntry(r.value).id }));
}

/**
 * Deletes a topic with everything it holds: entries of every group, bodies,
 * index records, expiry entries, keys (reserved or not). Its dead-letter topic stays.
 */
export async function applyDeleteTopic(ctx: ApplyContext, cmd: Of<'delete-topic'>): Promise<CommandResult> {
  const topic = await ctx.requireTopic(cmd.name, 'name');
  const ids = new Set<bigint>();
  for (const group of topic.groups) {
    for (const { tag, id } of await clearQueue(ctx, topic, group)) {
      ctx.txn.del(NS.queue.key(tag));
      ids.add(id);
    }
    ctx.dropQueue(ctx.queueHash(topic.name, group));
  }
  for (const id of ids) {
    const index = await ctx.getIndex(id);
    ctx.txn.del(NS.body.key(idKey(id)));
    ctx.txn.del(NS.index.key(idKey(id)));
    if (index && index.expireAtMs > 0) ctx.txn.del(NS.expiry.key(expirySuffix(index.expireAtMs, id)));
  }
  // Keys: prefix "topic NUL" in the keys namespace.
  const prefix = topicKeySuffix(topic.name, '');
  const after = prefix.slice();
  after[after.length - 1] = 1;
  for (const row of await ctx.txn.scan(NS.keys.range(prefix, after))) {
    const { key } = splitTopicKey(NS.keys.strip(row.key));
    const rec = decodeKeyRec(row.value);
    ctx.txn.del(row.key);
    if (rec.endedAtMs > 0) {
      ctx.txn.del(NS.keyWindow.key(keyWindowSuffix(rec.windowEndMs, topic.name, key)));
      ctx.txn.del(NS.index.key(idKey(rec.id)));
    }
  }
  ctx.delTopic(topic.name);
  return { kind: 'delete-topic', removedMessages: ids.size };
}

/** A new group receives every message published after it was created. */
export async function applyCreateGroup(ctx: ApplyContext, cmd: Of<'create-group'>): Promise<CommandResult> {
  validateGroupName(cmd.group, ctx.limits);
  const topic = await ctx.requireTopic(cmd.topic);
  if (topic.groups.includes(cmd.group)) throw new AlreadyExistsError('group', `${cmd.topic}/${cmd.group}`);
  if (topic.groups.length >= ctx.limits.maxGroupsPerTopic) {
    throw new LimitError('maxGroupsPerTopic', 'group', topic.groups.length + 1, ctx.limits.maxGroupsPerTopic);
  }
  await ctx.registerQueue(topic.name, cmd.group);
  const next: TopicRec = { ...topic, groups: [...topic.groups, cmd.group] };
  ctx.putTopic(next);
  return { kind: 'create-group', topic: next };
}

/** Removes a group and its entries; a message no other group holds ends. `default` cannot be deleted. */
export async function applyDeleteGroup(ctx: ApplyContext, cmd: Of<'delete-group'>): Promise<CommandResult> {
  validateGroupName(cmd.group, ctx.limits);
  const topic = await ctx.requireTopic(cmd.topic);
  if (cmd.group === DEFAULT_GROUP)
    throw new ConflictError('default-group', 'the default group cannot be deleted');
  if (!topic.groups.includes(cmd.group)) throw new NotFoundError('group', `${cmd.topic}/${cmd.group}`);
  const rows = await clearQueue(ctx, topic, cmd.group);
  for (const { tag } of rows) {
    const entry = await ctx.getEntry(tag);
    if (entry) await ctx.removeEntry(topic, tag, entry, 'removed');
  }
  ctx.dropQueue(ctx.queueHash(topic.name, cmd.group));
  ctx.putTopic({ ...topic, groups: topic.groups.filter((g) => g !== cmd.group) });
  return { kind: 'delete-group', removedMessages: rows.length };
}
