/**
 * Redrive: dead letters of a topic back into it (`Broker.Redrive`). A
 * command names at most limits.maxIdsPerCommand dead letters and moves those
 * that fit the bound on one apply (the leader proposes the rest again); with
 * `all` the leader pages through the dead-letter topic and
 * proposes one command per page, up to the call's limit, and answers a page
 * token to go on from.
 */

import { invariant } from '@fermata/base';
import { type pb, toBigInt, uint64ForWire, v1 } from '@fermata/protocol';
import type { RedriveOutcome } from '../state/commands/results.js';
import { deadLetterTopicOf, validateTopicName } from '../state/commands/validation.js';
import { LimitError, ValidationError } from '../state/model/errors.js';
import type { TopicRec } from '../state/model/records.js';
import { field, requireLeader, type ServerContext } from './context.js';
import { requireTopic } from './topic-check.js';

/** Most dead letters one Redrive call with `all` moves when it names no limit. */
export const DEFAULT_REDRIVE_LIMIT = 10_000;
/** Most dead letters one Redrive call with `all` moves (`maxRedrivePerCall`). */
export const MAX_REDRIVE_LIMIT = 100_000;

/** What a client is told of a dead letter (`deferred` is the leader's own business: it proposes it again). */
type Answered = RedriveOutcome & { readonly status: Exclude<RedriveOutcome['status'], 'deferred'> };

const STATUS: Record<Answered['status'], number> = {
  redriven: v1.RedriveStatus.REDRIVE_STATUS_REDRIVEN,
  'not-found': v1.RedriveStatus.REDRIVE_STATUS_NOT_FOUND,
  'not-a-dead-letter': v1.RedriveStatus.REDRIVE_STATUS_NOT_A_DEAD_LETTER,
  'in-flight': v1.RedriveStatus.REDRIVE_STATUS_IN_FLIGHT,
  'group-gone': v1.RedriveStatus.REDRIVE_STATUS_GROUP_GONE,
};

function toWire(o: Answered): pb.RedriveResult.$Properties {
  return { id: uint64ForWire(o.id), status: STATUS[o.status], newId: uint64ForWire(o.newId ?? 0n) };
}

/**
 * Where a topic's dead letters lie: its dead-letter topic, and its own
 * `<topic>.dlq` when that differs (dead letters go there while the token
 * that set the dead-letter topic may not publish to it: TopicSettings
 * dead_letter_authorized_by).
 */
function deadLetterTopics(topic: TopicRec): readonly string[] {
  const set = deadLetterTopicOf(topic.name, topic.settings);
  const own = deadLetterTopicOf(topic.name, topic.settings, true);
  return set === own ? [set] : [set, own];
}

export async function redrive(
  ctx: ServerContext,
  req: pb.RedriveRequest,
): Promise<pb.RedriveResponse.$Properties> {
  requireLeader(ctx);
  const limits = ctx.sm.limits;
  validateTopicName(req.topic, limits, 'topic');
  const topic = await requireTopic(ctx, req.topic, 'topic');
  const dlqs = deadLetterTopics(topic);
  const ids = (req.ids ?? []).map((x, i) => field(`ids[${i}]`, () => toBigInt(x)));
  if (!req.all) {
    if (ids.length === 0)
      throw new ValidationError('ids', 'name the dead letters to redrive by id, or set all');
    if (ids.length > limits.maxIdsPerCommand)
      throw new LimitError('maxIdsPerCommand', limits.maxIdsPerCommand, ids.length, 'ids');
    const answers = [...(await move(ctx, dlqs[0]!, topic.name, ids))];
    // Ids are unique over all topics: one not in the first dead-letter topic may be in the other.
    const other = dlqs[1];
    const again = answers.flatMap((o, at) => (o.status === 'not-found' ? [at] : []));
    if (other !== undefined && again.length > 0 && (await ctx.reader.getTopic(other))) {
      const second = await move(
        ctx,
        other,
        topic.name,
        again.map((at) => ids[at]!),
      );
      second.forEach((o, k) => {
        answers[again[k]!] = o;
      });
    }
    return { results: answers.map(toWire) };
  }
  if (ids.length > 0) throw new ValidationError('ids', 'give ids or all, not both');
  const limit = req.limit || DEFAULT_REDRIVE_LIMIT;
  if (limit > MAX_REDRIVE_LIMIT) throw new LimitError('maxRedrivePerCall', MAX_REDRIVE_LIMIT, limit, 'limit');
  const results: Answered[] = [];
  // The page token: which of the dead-letter topics (one byte), then where in it.
  let at = 0;
  let token: Uint8Array | undefined;
  if (req.pageToken && req.pageToken.length > 0) {
    at = req.pageToken[0]!;
    if (at >= dlqs.length) throw new ValidationError('page_token', 'is not one a Redrive of this topic gave');
    token = req.pageToken.length > 1 ? req.pageToken.subarray(1) : undefined;
  }
  while (results.length < limit && at < dlqs.length) {
    const dlq = dlqs[at]!;
    if (!(await ctx.reader.getTopic(dlq))) {
      at++;
      token = undefined;
      continue;
    }
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
    if (token === undefined) at++;
  }
  const nextPageToken =
    at < dlqs.length ? Buffer.concat([Uint8Array.of(at), token ?? new Uint8Array(0)]) : new Uint8Array(0);
  return { results: results.map(toWire), nextPageToken };
}

/**
 * Redrive commands for `ids` (at most limits.maxIdsPerCommand): one, and
 * another for those it left `deferred` (past the bound on one apply: large
 * payloads), until none is left. Answers one outcome per id, in order.
 */
async function move(
  ctx: ServerContext,
  dlq: string,
  sourceTopic: string,
  ids: readonly bigint[],
): Promise<readonly Answered[]> {
  const answers: Answered[] = new Array(ids.length);
  let left = ids.map((id, at) => ({ id, at }));
  while (left.length > 0) {
    const firstId = ctx.proposer.reserveIds(left.length);
    const r = await ctx.proposer.run({
      kind: 'redrive',
      topic: dlq,
      sourceTopic,
      ids: left.map((x) => x.id),
      firstId,
      idCount: left.length,
    });
    invariant(r.kind === 'redrive', () => `redrive answered with ${r.kind}`);
    invariant(
      r.outcomes.length === left.length,
      () => `redrive of ${left.length} ids answered ${r.outcomes.length}`,
    );
    const deferred: { id: bigint; at: number }[] = [];
    let moved = 0;
    r.outcomes.forEach((o, i) => {
      const x = left[i]!;
      if (o.status === 'deferred') deferred.push(x);
      else answers[x.at] = o as Answered;
      if (o.status === 'redriven') moved++;
    });
    ctx.metrics.redriven.inc({ topic: sourceTopic }, moved);
    // The first dead letter of a command always fits its bound (a payload is at most
    // limits.maxPayloadBytes): a command that took none would repeat forever.
    invariant(
      deferred.length < left.length,
      () => `a redrive of ${left.length} dead letters of ${dlq} took none within the bound on one apply`,
    );
    left = deferred;
  }
  return answers;
}
