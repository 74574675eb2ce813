/**
 * Settling deliveries on the leader (ack, nack, extend), shared by the unary
 * Broker calls and the Consume stream: the dispatcher frees the consumer's
 * slot, the proposer carries the command, and settled tags are counted per
 * topic.
 */

import { invariant } from '@fermata/base';
import { numberAsInt64, type pb, v1 } from '@fermata/protocol';
import { inQueue, tagQueue } from '../keys.js';
import type { SettleOutcome } from '../state/commands/results.js';
import { validateLeaseMs, validateNackError, validateTag } from '../state/commands/validation.js';
import { ValidationError } from '../state/model/errors.js';
import { requireLeader, type ServerContext } from './context.js';

const NO_TAG = new Uint8Array(0);

/** An outcome for the wire: one per settled tag, so no Long and no empty array of its own. */
export function settleOutcome(o: SettleOutcome): pb.SettleOutcome.$Properties {
  return {
    tag: o.tag,
    status:
      o.status === 'ok' ? v1.SettleStatus.SETTLE_STATUS_OK : v1.SettleStatus.SETTLE_STATUS_LEASE_EXPIRED,
    newTag: o.newTag ?? NO_TAG,
    dueAtMs: numberAsInt64(o.dueAtMs ?? 0),
  };
}

export async function ack(ctx: ServerContext, tags: readonly Uint8Array[]): Promise<SettleOutcome[]> {
  requireLeader(ctx);
  if (tags.length === 0) throw new ValidationError('tags', 'name at least one delivery tag');
  tags.forEach((t, i) => {
    validateTag(t, `tags[${i}]`);
  });
  // The consumer no longer holds what it acks: its window slots free now, not a Raft round later
  // (a failed ack changes nothing stored: the delivery comes back when its lease ends).
  for (const t of tags) ctx.dispatcher.settled(t);
  const outcomes = await ctx.proposer.ack(tags);
  // Applied: the leases no longer count against their group's in-flight limit.
  ctx.dispatcher.settleApplied(tags);
  await countSettled(
    ctx,
    ctx.metrics.acks,
    outcomes.filter((o) => o.status === 'ok').map((o) => o.tag),
  );
  return [...outcomes];
}

export async function nack(
  ctx: ServerContext,
  tag: Uint8Array,
  delayMs: number,
  error = '',
): Promise<SettleOutcome> {
  requireLeader(ctx);
  validateTag(tag, 'tag');
  validateNackError(error);
  if (!Number.isInteger(delayMs) || delayMs < 0) throw new ValidationError('delay_ms', 'must be >= 0');
  if (delayMs > ctx.sm.limits.maxDelayMs)
    throw new ValidationError('delay_ms', `exceeds maxDelayMs = ${ctx.sm.limits.maxDelayMs}`);
  ctx.dispatcher.settled(tag); // like ack: the slot frees when the consumer lets go
  const r = await ctx.proposer.run({ kind: 'nack', tag, delayMs, ...(error !== '' ? { error } : {}) });
  invariant(r.kind === 'nack', () => `nack answered with ${r.kind}`);
  ctx.dispatcher.settleApplied([tag]);
  if (r.outcome.status === 'ok') await countSettled(ctx, ctx.metrics.nacks, [tag]);
  return r.outcome;
}

/**
 * Hands back a delivery its consumer never sent on (a push group's request
 * not started): a nack `uncounted`, pending again at its due time with its
 * attempt not counted. The slot frees at once, as for a nack.
 */
export async function handBack(ctx: ServerContext, tag: Uint8Array): Promise<SettleOutcome> {
  requireLeader(ctx);
  validateTag(tag, 'tag');
  ctx.dispatcher.settled(tag);
  const r = await ctx.proposer.run({ kind: 'nack', tag, delayMs: 0, uncounted: true });
  invariant(r.kind === 'nack', () => `nack answered with ${r.kind}`);
  ctx.dispatcher.settleApplied([tag]);
  return r.outcome;
}

export async function extend(ctx: ServerContext, tag: Uint8Array, leaseMs: number): Promise<SettleOutcome> {
  requireLeader(ctx);
  validateTag(tag, 'tag');
  validateLeaseMs(leaseMs, ctx.sm.limits, 'lease_ms');
  // Until it is answered its lease counts against its group's in-flight limit, whatever its old end.
  ctx.dispatcher.extending(tag);
  let r: Awaited<ReturnType<typeof ctx.proposer.run>>;
  try {
    r = await ctx.proposer.run({ kind: 'extend', tag, leaseMs });
  } finally {
    ctx.dispatcher.extendAnswered(tag);
  }
  invariant(r.kind === 'extend', () => `extend answered with ${r.kind}`);
  if (r.outcome.status === 'ok' && r.outcome.newTag) {
    ctx.dispatcher.settled(tag, { tag: r.outcome.newTag, leaseEndMs: r.outcome.dueAtMs ?? 0 });
  }
  return r.outcome;
}

/** Queue hash -> topic name, per server (a hash always names the same queue). */
const topicNames = new WeakMap<ServerContext, Map<bigint, string>>();

/** Counts settled tags per topic (the topic is found from the tag's queue hash). */
async function countSettled(
  ctx: ServerContext,
  counter: ServerContext['metrics']['acks'],
  tags: readonly Uint8Array[],
): Promise<void> {
  if (tags.length === 0) return;
  let names = topicNames.get(ctx);
  if (!names) {
    names = new Map();
    topicNames.set(ctx, names);
  }
  const perQueue = new Map<bigint, number>();
  // Tags of one queue come in runs (one consumer's acks): its hash is read once per run.
  let queue = 0n;
  let prev: Uint8Array | undefined;
  for (const t of tags) {
    if (!prev || !inQueue(t, prev)) queue = queueOfTag(t);
    prev = t;
    perQueue.set(queue, (perQueue.get(queue) ?? 0) + 1);
  }
  for (const [queue, n] of perQueue) {
    let topic = names.get(queue);
    if (topic === undefined) {
      topic = (await ctx.reader.getQueue(queue).catch(() => undefined))?.topic;
      if (topic !== undefined) names.set(queue, topic);
    }
    counter.inc({ topic: topic ?? '' }, n);
  }
}

/** The queue hash is the first 8 bytes of a tag (of every kind). */
const queueOfTag = tagQueue;
