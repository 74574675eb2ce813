/**
 * Redrive: dead letters of a topic back into it (`Broker.Redrive`). The
 * command moves at most limits.maxIdsPerCommand dead letters (its apply is
 * bounded); with `all` the leader pages through the dead-letter topic and
 * proposes one command per page, up to the call's limit, and answers a page
 * token to go on from.
 */
import { type pb, toBigInt, uint64ForWire, v1 } from '@fermata/protocol';
import { invariant } from '@fermata/raft';
import { LimitError, ValidationError } from '../state/errors.js';
import type { RedriveOutcome } from '../state/results.js';
import { deadLetterTopicOf, validateTopicName } from '../state/validation.js';
import { field, requireLeader, type ServerContext } from './context.js';
import { requireTopic } from './topic-check.js';

/** Most dead letters one Redrive call with `all` moves when it names no limit. */
export const DEFAULT_REDRIVE_LIMIT = 10_000;
/** Most dead letters one Redrive call with `all` moves (`maxRedrivePerCall`). */
export const MAX_REDRIVE_LIMIT = 100_000;

const STATUS: Record<RedriveOutcome['status'], number> = {
  redriven: v1.RedriveStatus.REDRIVE_STATUS_REDRIVEN,
  'not-found': v1.RedriveStatus.REDRIVE_STATUS_NOT_FOUND,
  'not-a-dead-letter': v1.RedriveStatus.REDRIVE_STATUS_NOT_A_DEAD_LETTER,
  'in-flight': v1.RedriveStatus.REDRIVE_STATUS_IN_FLIGHT,
  'group-gone': v1.RedriveStatus.REDRIVE_STATUS_GROUP_GONE,
};

function toWire(o: RedriveOutcome): pb.RedriveResult.$Properties {
  return { id: uint64ForWire(o.id), status: STATUS[o.status], newId: uint64ForWire(o.newId ?? 0n) };
}

export async function redrive(
  ctx: ServerContext,
  req: pb.RedriveRequest,
): Promise<pb.RedriveResponse.$Properties> {
  requireLeader(ctx);
  const limits = ctx.sm.limits;
  validateTopicName(req.topic, limits, 'topic');
  const topic = await requireTopic(ctx, req.topic, 'topic');
  const dlq = deadLetterTopicOf(topic.name, topic.settings);
  const ids = (req.ids ?? []).map((x, i) => field(`ids[${i}]`, () => toBigInt(x)));
  if (!req.all) {
    if (ids.length === 0)
      throw new ValidationError('ids', 'name the dead letters to redrive by id, or set all');
    if (ids.length > limits.maxIdsPerCommand)
      throw new LimitError('maxIdsPerCommand', limits.maxIdsPerCommand, ids.length, 'ids');
    return { results: (await move(ctx, dlq, topic.name, ids)).map(toWire) };
  }
  if (ids.length > 0) throw new ValidationError('ids', 'give ids or all, not both');
  const limit = req.limit || DEFAULT_REDRIVE_LIMIT;
  if (limit > MAX_REDRIVE_LIMIT) throw new LimitError('maxRedrivePerCall', MAX_REDRIVE_LIMIT, limit, 'limit');
  const results: RedriveOutcome[] = [];
  let token: Uint8Array | undefined = req.pageToken && req.pageToken.length > 0 ? req.pageToken : undefined;
  if (!(await ctx.reader.getTopic(dlq))) return { results: [], nextPageToken: new Uint8Array(0) };
  while (results.length < limit) {
    const page = await ctx.reader.listMessages(
      dlq,
      { limit: Math.min(limits.maxIdsPerCommand, limit - results.length), pageToken: token },
      ctx.proposer.nowMs(),
    );
    // Others' dead letters (a dead-letter topic may serve several) and ones a consumer holds stay.
    const mine = page.items
      .filter((it) => it.state === 'pending' && it.message?.deadLetter?.sourceTopic === topic.name)
      .map((it) => it.entry.id);
    if (mine.length > 0) {
      for (const o of await move(ctx, dlq, topic.name, mine)) if (o.status === 'redriven') results.push(o);
    }
    token = page.nextPageToken;
    if (token === undefined) break;
  }
  return { results: results.map(toWire), nextPageToken: token ?? new Uint8Array(0) };
}

/** One Redrive command: at most limits.maxIdsPerCommand dead letters, new ids reserved for each. */
async function move(
  ctx: ServerContext,
  dlq: string,
  sourceTopic: string,
  ids: readonly bigint[],
): Promise<readonly RedriveOutcome[]> {
  const firstId = ctx.proposer.reserveIds(ids.length);
  const r = await ctx.proposer.run({
    kind: 'redrive',
    topic: dlq,
    sourceTopic,
    ids,
    firstId,
    idCount: ids.length,
  });
  invariant(r.kind === 'redrive', () => `redrive answered with ${r.kind}`);
  ctx.metrics.redriven.inc({ topic: sourceTopic }, r.outcomes.filter((o) => o.status === 'redriven').length);
  return r.outcomes;
}
