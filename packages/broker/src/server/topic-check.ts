/**
 * Topics come into being explicitly (CreateTopic), or by a publish where the
 * cluster allows it (`topics.autoCreate`); consuming never creates a topic or
 * a group. A name that does not exist is refused with the names closest to it,
 * so a typo says what was meant instead of creating a topic nobody reads.
 */
import { closestNames, editDistance } from '@fermata/protocol';
import { deadLetterTopicOf } from '../state/commands/validation.js';
import { AlreadyExistsError, NotFoundError } from '../state/model/errors.js';
import type { TopicRec } from '../state/model/records.js';
import type { ServerContext } from './context.js';

/** Most topic records a "did you mean" reads (it runs on the error path only). */
export const MAX_TOPICS_SUGGESTED_FROM = 10_000;

/**
 * Topics this node, as leader in `term`, saw exist: a publish checks them
 * without a read. A topic this node deletes leaves the set; a new term starts
 * it afresh (another leader may have deleted topics meanwhile).
 */
const known = new WeakMap<ServerContext, { term: number; names: Set<string> }>();

function knownTopics(ctx: ServerContext): Set<string> {
  const term = ctx.node.status().term;
  let k = known.get(ctx);
  if (k === undefined || k.term !== term) {
    k = { term, names: new Set() };
    known.set(ctx, k);
  }
  return k.names;
}

/** `name` was deleted (or is being): the next publish to it reads the store again. */
export function forgetTopic(ctx: ServerContext, name: string): void {
  known.get(ctx)?.names.delete(name);
}

/**
 * Refuses a publish naming a topic that does not exist, unless the cluster
 * lets a publish create it (`topics.autoCreate`); `field(i)` names message i's
 * topic. Synchronous (undefined) when every topic is known to exist: no
 * promise on the publish path.
 */
export function checkPublishTopics(
  ctx: ServerContext,
  messages: readonly { readonly topic: string }[],
  field: (i: number) => string,
): Promise<void> | undefined {
  if (ctx.config.topics.autoCreate) return undefined;
  const names = knownTopics(ctx);
  let previous: string | undefined;
  for (let i = 0; i < messages.length; i++) {
    const topic = messages[i]!.topic;
    if (topic === previous || names.has(topic)) {
      previous = topic;
      continue;
    }
    return readTopics(ctx, messages, i, field, names);
  }
  return undefined;
}

async function readTopics(
  ctx: ServerContext,
  messages: readonly { readonly topic: string }[],
  from: number,
  field: (i: number) => string,
  names: Set<string>,
): Promise<void> {
  for (let i = from; i < messages.length; i++) {
    const topic = messages[i]!.topic;
    if (names.has(topic)) continue;
    const t = await ctx.reader.getTopic(topic);
    if (!t) throw await unknownTopic(ctx, topic, field(i), true);
    // One being deleted is not remembered: apply refuses the publish, and once its records
    // are gone the name no longer exists.
    if (!t.deleting) names.add(topic);
  }
}

/** The topic `name`, or a NotFoundError naming the topics closest to it (consuming never creates one). */
export async function requireTopic(ctx: ServerContext, name: string, field: string): Promise<TopicRec> {
  const t = await ctx.reader.getTopic(name);
  if (t) return t;
  throw await unknownTopic(ctx, name, field, false);
}

/**
 * The topic a consumer names: an existing one, or the dead-letter topic of an
 * existing topic, created now with default settings (the topic declares it,
 * and its first dead letter would create it): a consumer of dead letters may
 * start before the first one. Anything else is a NotFoundError naming the
 * closest topics.
 */
export async function topicToConsume(ctx: ServerContext, name: string, field: string): Promise<TopicRec> {
  const t = await ctx.reader.getTopic(name);
  if (t) return t;
  const declaring = (await ctx.reader.listTopics(MAX_TOPICS_SUGGESTED_FROM)).find(
    (s) => s.name !== name && deadLetterTopicOf(s.name, s.settings) === name,
  );
  if (declaring === undefined) throw await unknownTopic(ctx, name, field, false);
  await ctx.proposer.run({ kind: 'create-topic', name }).catch((err: unknown) => {
    if (!(err instanceof AlreadyExistsError)) throw err;
  });
  return requireTopic(ctx, name, field);
}

/** The group of `topic`, or a NotFoundError naming the topic's groups. */
export function requireGroup(topic: TopicRec, group: string, field: string): void {
  if (topic.groups.includes(group)) return;
  const near = closestNames(group, topic.groups);
  const hint =
    `${field}: ${near.length > 0 ? `did you mean ${quoted(near)}? ` : ''}` +
    `topic "${topic.name}" has the groups ${quoted(topic.groups)}; create one with ` +
    '`fermata groups create` or createGroup';
  throw new NotFoundError('group', `${topic.name}/${group}`, hint);
}

async function unknownTopic(
  ctx: ServerContext,
  name: string,
  field: string,
  publishing: boolean,
): Promise<NotFoundError> {
  const existing: string[] = [];
  for (const t of await ctx.reader.listTopics(MAX_TOPICS_SUGGESTED_FROM)) existing.push(t.name);
  const near = closestNames(name, existing);
  const create = publishing
    ? 'create it with `fermata topics create` or createTopic (this cluster does not create topics on publish: topics.autoCreate is false)'
    : 'create it with `fermata topics create` or createTopic (consuming never creates a topic)';
  let known: string;
  if (near.length > 0) known = `did you mean ${quoted(near)}?`;
  else if (existing.length === 0) known = 'no topic exists yet;';
  else {
    const nearest = existing
      .map((t) => ({ t, d: editDistance(name.toLowerCase(), t.toLowerCase()) }))
      .sort((a, b) => a.d - b.d)
      .slice(0, 3)
      .map((x) => x.t);
    known = `the topics closest to it are ${quoted(nearest)};`;
  }
  return new NotFoundError('topic', name, `${field}: ${known} ${near.length > 0 ? 'or ' : ''}${create}`);
}

function quoted(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(', ');
}
