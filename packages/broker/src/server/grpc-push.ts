/**
 * The push parts of the Admin service: where a push group's endpoint may
 * point (the node's push.allowedEndpoints, judged before proposing, since
 * apply cannot read a node's config), and TestPush.
 */
import { int64FromSafe, type pb } from '@fermata/protocol';
import type { GroupSettingsInput } from '../state/commands/commands.js';
import { endpointOfUpdate, parseEndpoint } from '../state/commands/validate-push.js';
import { NotFoundError, ValidationError } from '../state/model/errors.js';
import { groupSettingsOf } from '../state/model/records.js';
import { linearizable, requireLeader, type ServerContext } from './context.js';
import { RefusedByConfigError } from './errors.js';

const FIELD = 'settings.push.endpoint';

/** Refuses (FAILED_PRECONDITION, naming the setting) an endpoint the node's policy does not allow. */
export async function checkPushEndpoint(
  ctx: ServerContext,
  settings: GroupSettingsInput | undefined,
  mask: readonly string[] = [],
): Promise<void> {
  const endpoint = endpointOfUpdate(settings?.push, mask);
  if (endpoint === undefined) return;
  const why = await ctx.pushPolicy.check(parseEndpoint(endpoint, FIELD));
  if (why) throw new RefusedByConfigError(`${FIELD}: ${why}`);
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
