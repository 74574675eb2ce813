/**
 * The leader's pusher built over a node's context: the push groups it
 * serves come from the state machine's topic records, and it settles its
 * leases through the same ack and nack as a consumer stream (settle.ts).
 */
import type { Clock } from '@fermata/base';
import { EndpointPolicy } from '../leader/push/endpoint-policy.js';
import { PushFilesPolicy } from '../leader/push/files-policy.js';
import type { PushMetrics } from '../leader/push/push-metrics.js';
import { Pusher, type PushGroup } from '../leader/push/pusher.js';
import { SecretFiles } from '../leader/push/signature.js';
import { groupDeleting, groupSettingsOf } from '../state/model/records.js';
import type { ServerContext } from './context.js';
import { ack, handBack, nack } from './settle.js';

/** How often the leader reads the push groups again, besides when a group changes through it. */
export const PUSH_RECONCILE_MS = 5_000;

export function assemblePusher(ctx: ServerContext, clock: Clock, metrics: PushMetrics): Pusher {
  return new Pusher({
    dispatcher: ctx.dispatcher,
    settle: {
      ack: (tag) => ack(ctx, [tag]),
      nack: (tag, delayMs, error) => nack(ctx, tag, delayMs, error),
      handBack: (tag) => handBack(ctx, tag),
    },
    policy: ctx.pushPolicy,
    secrets: new SecretFiles(ctx.pushFiles),
    files: ctx.pushFiles,
    metrics,
    clock,
    leaderNowMs: () => ctx.proposer.nowMs(),
    // The signature's `t`: receivers compare it with their wall clock.
    wallMs: () => Date.now(),
    log: ctx.log,
    limits: () => ctx.sm.limits,
    reconcileMs: PUSH_RECONCILE_MS,
    isLeading: () => ctx.node.isLeader() && ctx.dispatcher.isActive,
    listPushGroups: () => listPushGroups(ctx),
  });
}

/** The push groups of the topics now, those of topics or groups being deleted left out. */
export async function listPushGroups(ctx: ServerContext): Promise<PushGroup[]> {
  const out: PushGroup[] = [];
  for (const t of await ctx.reader.listTopics()) {
    if (!t.groupSettings) continue;
    for (const group of t.groups) {
      const push = groupSettingsOf(t, group).push;
      if (!push || groupDeleting(t, group)) continue;
      out.push({ topic: t.name, group, queue: ctx.reader.queueHash(t.name, group), push });
    }
  }
  return out;
}

export { EndpointPolicy, PushFilesPolicy };
