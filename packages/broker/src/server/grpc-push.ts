/**
 * The push parts of the Admin service: where a push group's endpoint may
 * point and which files it may name (the node's push.allowedEndpoints and
 * push.filesDir, judged before proposing, since apply cannot read a node's
 * config), a push group's figures in GetTopicStats, and TestPush.
 */
import { int64FromSafe, type pb, toUint64 } from '@fermata/protocol';
import type { GroupSettingsInput } from '../state/commands/commands.js';
import { checkHeaderValues, parseEndpoint, pushFieldOfUpdate } from '../state/commands/validate-push.js';
import { NotFoundError, ValidationError } from '../state/model/errors.js';
import { groupSettingsOf } from '../state/model/records.js';
import { linearizable, requireLeader, type ServerContext } from './context.js';
import { RefusedByConfigError } from './errors.js';

const F = 'settings.push';

/**
 * Refuses (FAILED_PRECONDITION, naming the field and the setting) an
 * endpoint or a secret or CA file the node's policies do not allow, and
 * (INVALID_ARGUMENT) header values an HTTP request cannot carry: a rule
 * newer than apply's, so judged here, before proposing.
 */
export async function checkPushSettings(
  ctx: ServerContext,
  settings: GroupSettingsInput | undefined,
  mask: readonly string[] = [],
): Promise<void> {
  const headers = settings?.push?.headers;
  if (headers && (mask.length === 0 || mask.includes('push') || mask.includes('push.headers')))
    checkHeaderValues(headers);
  const endpoint = pushFieldOfUpdate(settings?.push, mask, 'endpoint');
  if (endpoint !== undefined) {
    const why = await ctx.pushPolicy.check(parseEndpoint(endpoint, `${F}.endpoint`));
    if (why) throw new RefusedByConfigError(`${F}.endpoint: ${why}`);
  }
  for (const field of ['secret_file', 'ca_file'] as const) {
    const path = pushFieldOfUpdate(settings?.push, mask, field);
    if (path === undefined) continue;
    // The state machine checks the form (absolute, its length) after; judge only a path it would accept.
    if (!path.startsWith('/')) continue;
    const why = await ctx.pushFiles.check(path, `${F}.${field}`);
    if (why) throw new RefusedByConfigError(why);
  }
}

/** The leader's figures for a push group (zeros before its first request), for GroupStats.push. */
export function pushStatsOf(ctx: ServerContext, topic: string, group: string): pb.PushStats.$Properties {
  const f = ctx.pusher?.figures(topic, group);
  const requests: Record<string, ReturnType<typeof toUint64>> = {};
  for (const [c, n] of Object.entries(f?.requests ?? {})) requests[c] = toUint64(BigInt(n));
  return {
    requests,
    retries: toUint64(BigInt(f?.retries ?? 0)),
    deadLetters: toUint64(BigInt(f?.deadLetters ?? 0)),
    blocked: f?.blocked ?? '',
  };
}

export async function testPush(
  ctx: ServerContext,
  req: pb.TestPushRequest,
): Promise<pb.TestPushResponse.$Properties> {
  requireLeader(ctx);
  if (!req.topic) throw new ValidationError('topic', 'must not be empty');
  if (!req.group) throw new ValidationError('group', 'must not be empty');
  await linearizable(ctx);
  const t = await ctx.reader.getTopic(req.topic);
  if (!t || t.deleting) throw new NotFoundError('topic', req.topic);
  if (!t.groups.includes(req.group)) throw new NotFoundError('group', `${req.topic}/${req.group}`);
  const push = groupSettingsOf(t, req.group).push;
  if (!push)
    throw new ValidationError('group', `${req.topic}/${req.group} is not a push group (it has no endpoint)`);
  const pusher = ctx.pusher;
  if (!pusher) throw new ValidationError('group', 'this node pushes nothing');
  const a = await pusher.test({
    topic: t.name,
    group: req.group,
    queue: ctx.reader.queueHash(t.name, req.group),
    push,
  });
  return {
    status: a.status,
    body: a.body,
    latencyMs: int64FromSafe(a.latencyMs),
    error: a.error,
    signature: a.signature,
  };
}
