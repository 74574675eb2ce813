import { performance } from 'node:perf_hooks';
import { invariant } from '@fermata/base';
import type { AdminHandlers, ClusterHandlers } from '@fermata/protocol';
import { int64FromSafe, type pb, toUint64, v1 } from '@fermata/protocol';
import type { MemberStatus } from '@fermata/raft';
import type * as grpc from '@grpc/grpc-js';
import { DEFAULT_GROUP } from '../keys.js';
import {
  groupSettingsFromProto,
  groupSettingsToProto,
  settingsFromProto,
  settingsToProto,
} from '../state/commands/commands.js';
import { deadLetterTopicOf } from '../state/commands/validation.js';
import { ValidationError } from '../state/model/errors.js';
import type { GroupSettings } from '../state/model/group-settings.js';
import { groupSettingsOf, type TopicRec } from '../state/model/records.js';
import { parseAddress } from './config.js';
import { ID_PATTERN } from './config-schema.js';
import {
  adminOf,
  callerName,
  field,
  linearizable,
  requireLeader,
  type ServerContext,
  topicFilter,
  unary,
} from './context.js';
import { checkPushSettings, pushStatsOf, testPush } from './grpc-push.js';
import { forgetTopic } from './topic-check.js';

/** The value a push group's header shows a caller without admin on its topic. */
export const REDACTED = '(redacted)';

/**
 * A group's settings as an answer shows them: a push group's header values
 * only to a caller with admin on the topic (they may carry credentials),
 * their names to everyone who may read.
 */
function shownSettings(s: GroupSettings, admin: boolean): pb.GroupSettings {
  if (admin || !s.push || Object.keys(s.push.headers).length === 0) return groupSettingsToProto(s);
  const headers = Object.fromEntries(Object.keys(s.push.headers).map((k) => [k, REDACTED]));
  return groupSettingsToProto({ ...s, push: { ...s.push, headers } });
}

function topicProto(t: TopicRec, admin: boolean): pb.Topic.$Properties {
  const groupSettings: Record<string, pb.GroupSettings> = {};
  for (const g of t.groups) groupSettings[g] = shownSettings(groupSettingsOf(t, g), admin);
  return {
    name: t.name,
    // Settings come back resolved: an empty dead-letter topic means the default one.
    settings: settingsToProto({ ...t.settings, deadLetterTopic: deadLetterTopicOf(t.name, t.settings) }),
    groups: [...t.groups],
    createdAtMs: int64FromSafe(t.createdAtMs),
    deleting: t.deleting === true,
    groupSettings,
  };
}

function address(value: string | null | undefined, fieldName: string): string {
  const text = name(value, fieldName);
  if (!parseAddress(text)) throw new ValidationError(fieldName, 'must be host:port');
  return text;
}

function name(value: string | null | undefined, fieldName: string): string {
  if (!value) throw new ValidationError(fieldName, 'must not be empty');
  return value;
}

export function adminHandlers(ctx: ServerContext): AdminHandlers {
  const run = async (body: Parameters<ServerContext['proposer']['run']>[0]) => {
    requireLeader(ctx);
    return ctx.proposer.run(body);
  };
  /**
   * The settings of a create or update, with the dead-letter topic's authority
   * set by the server: the calling token's name (the interceptor checked that
   * it may publish to the target), never what the client sent.
   */
  const settingsOf = (req: { settings?: pb.TopicSettings.$Properties | null }, metadata: grpc.Metadata) => {
    const settings = field('settings.', () => settingsFromProto(req.settings));
    const { deadLetterAuthorizedBy: _ignored, ...rest } = settings;
    if (!rest.deadLetterTopic) return rest;
    return { ...rest, deadLetterAuthorizedBy: callerName(ctx, metadata) };
  };
  return {
    createTopic: unary(ctx, async (req, call) => {
      const settings = settingsOf(req, call.metadata);
      const r = await run({ kind: 'create-topic', name: name(req.name, 'name'), settings });
      invariant(r.kind === 'create-topic', () => `create-topic answered with ${r.kind}`);
      return { topic: topicProto(r.topic, true) };
    }),
    updateTopic: unary(ctx, async (req, call) => {
      const settings = settingsOf(req, call.metadata);
      const r = await run({
        kind: 'update-topic',
        name: name(req.name, 'name'),
        settings,
        updateMask: req.updateMask,
      });
      invariant(r.kind === 'update-topic', () => `update-topic answered with ${r.kind}`);
      return { topic: topicProto(r.topic, true) };
    }),
    deleteTopic: unary(ctx, async (req) => {
      forgetTopic(ctx, req.name);
      const r = await run({ kind: 'delete-topic', name: name(req.name, 'name') });
      invariant(r.kind === 'delete-topic', () => `delete-topic answered with ${r.kind}`);
      return { removedMessages: toUint64(BigInt(r.removedMessages)) };
    }),
    listTopics: unary(ctx, async (_req, call) => {
      await linearizable(ctx);
      const visible = topicFilter(ctx, call.metadata);
      const admin = adminOf(ctx, call.metadata);
      return {
        topics: (await ctx.reader.listTopics())
          .filter((t) => visible(t.name))
          .map((t) => topicProto(t, admin(t.name))),
      };
    }),
    getTopicStats: unary(ctx, async (req, call) => {
      await linearizable(ctx);
      const stats = await ctx.reader.topicStats(name(req.topic, 'topic'));
      const admin = adminOf(ctx, call.metadata)(stats.topic.name);
      return {
        topic: stats.topic.name,
        groups: stats.groups.map((g) => ({
          group: g.group,
          pending: toUint64(BigInt(g.pending)),
          inFlight: toUint64(BigInt(g.inFlight)),
          deadLettered: toUint64(BigInt(g.deadLettered)),
          nextDueMs: int64FromSafe(g.nextDueMs ?? 0),
          settings: shownSettings(g.settings, admin),
          paused: g.settings.paused,
          // The leader's figure since it became leader (stats are answered by the leader only).
          throttled: toUint64(
            BigInt(ctx.dispatcher.throttled(ctx.reader.queueHash(stats.topic.name, g.group))),
          ),
          ...(g.settings.push ? { push: pushStatsOf(ctx, stats.topic.name, g.group) } : {}),
        })),
        deletions: stats.deletions.map((d) => ({
          group: d.group,
          startedAtMs: int64FromSafe(d.startedAtMs),
          entriesAtStart: toUint64(BigInt(d.entriesAtStart)),
          removedEntries: toUint64(BigInt(d.removedEntries)),
          removedRecords: toUint64(BigInt(d.removedRecords)),
        })),
      };
    }),
    createGroup: unary(ctx, async (req) => {
      const settings = req.settings ? groupSettingsFromProto(req.settings) : undefined;
      await checkPushSettings(ctx, settings);
      const r = await run({
        kind: 'create-group',
        topic: name(req.topic, 'topic'),
        group: name(req.group, 'group'),
        ...(settings ? { settings } : {}),
      });
      invariant(r.kind === 'create-group', () => `create-group answered with ${r.kind}`);
      ctx.pusher?.wake();
      return { topic: topicProto(r.topic, true) };
    }),
    updateGroup: unary(ctx, async (req) => {
      const settings = groupSettingsFromProto(req.settings);
      await checkPushSettings(ctx, settings, req.updateMask);
      const r = await run({
        kind: 'update-group',
        topic: name(req.topic, 'topic'),
        group: name(req.group, 'group'),
        settings,
        updateMask: req.updateMask,
      });
      invariant(r.kind === 'update-group', () => `update-group answered with ${r.kind}`);
      ctx.pusher?.wake();
      return { topic: topicProto(r.topic, true) };
    }),
    testPush: unary(ctx, (req) => testPush(ctx, req)),
    deleteGroup: unary(ctx, async (req) => {
      const group = name(req.group, 'group');
      if (group === DEFAULT_GROUP) throw new ValidationError('group', 'the default group cannot be deleted');
      const r = await run({ kind: 'delete-group', topic: name(req.topic, 'topic'), group });
      invariant(r.kind === 'delete-group', () => `delete-group answered with ${r.kind}`);
      return { removedMessages: toUint64(BigInt(r.removedMessages)) };
    }),
  };
}

const ROLE: Record<string, number> = {
  leader: v1.MemberRole.MEMBER_ROLE_LEADER,
  follower: v1.MemberRole.MEMBER_ROLE_FOLLOWER,
  candidate: v1.MemberRole.MEMBER_ROLE_CANDIDATE,
  'pre-candidate': v1.MemberRole.MEMBER_ROLE_PRE_CANDIDATE,
  learner: v1.MemberRole.MEMBER_ROLE_LEARNER,
  unreachable: v1.MemberRole.MEMBER_ROLE_UNREACHABLE,
};

function memberProto(m: MemberStatus): pb.Member.$Properties {
  return {
    id: m.id,
    address: m.clientAddress,
    peerAddress: m.peerAddress,
    role: ROLE[m.role] ?? v1.MemberRole.MEMBER_ROLE_UNSPECIFIED,
    voter: m.voter,
    matchIndex: toUint64(BigInt(m.matchIndex)),
    lag: toUint64(BigInt(m.lag)),
  };
}

/** Longest `GetClusterInfo.wait_for_leader_ms` honoured. */
export const MAX_LEADER_WAIT_MS = 10_000;

/**
 * Waits for `GetClusterInfo.wait_for_leader_ms`: resolves once this node
 * knows a leader it can vouch for, after `waitMs`, or when the call is
 * cancelled, whichever is first. A leader counts unless its client address is
 * the one the client could not reach and no message from it has arrived here
 * since the request did (itself, when it leads, always counts): a client that
 * failed to reach a live leader is answered with its next heartbeat, one that
 * lost a dead leader when the next is elected. Checked on every leader change
 * and every heartbeat interval.
 */
class LeaderWait {
  private readonly waiters = new Set<() => void>();
  private poll: NodeJS.Timeout | undefined;

  constructor(private readonly ctx: ServerContext) {
    ctx.node.on('leader-changed', () => this.checkAll());
  }

  private get heartbeatMs(): number {
    return this.ctx.config.raft.heartbeatTicks * this.ctx.config.raft.tickMs;
  }

  private known(unreachable: string, askedAtMs: number): boolean {
    const { node } = this.ctx;
    const s = node.status();
    if (s.leaderAddress === '') return false;
    if (s.leaderAddress !== unreachable || s.leader === node.id) return true;
    return (node.lastHeardFrom(s.leader) ?? Number.NEGATIVE_INFINITY) > askedAtMs;
  }

  until(
    unreachable: string,
    waitMs: number,
    call: {
      on(event: 'cancelled', fn: () => void): unknown;
      off(event: 'cancelled', fn: () => void): unknown;
    },
  ): Promise<void> {
    const askedAtMs = performance.now();
    if (this.ctx.stopping || this.known(unreachable, askedAtMs)) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (this.ctx.stopping || this.known(unreachable, askedAtMs)) done();
      };
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
        if (this.waiters.size === 0) this.stopPolling();
        call.off('cancelled', done);
        resolve();
      };
      const timer = setTimeout(done, waitMs);
      timer.unref();
      this.waiters.add(check);
      call.on('cancelled', done);
      this.poll ??= setInterval(() => this.checkAll(), this.heartbeatMs);
      this.poll.unref();
    });
  }

  private checkAll(): void {
    for (const check of [...this.waiters]) check();
  }

  private stopPolling(): void {
    clearInterval(this.poll);
    this.poll = undefined;
  }
}

export function clusterHandlers(ctx: ServerContext): ClusterHandlers {
  const leaderWait = new LeaderWait(ctx);
  return {
    getClusterInfo: unary(ctx, async (req, call) => {
      const waitMs = Math.min(req.waitForLeaderMs ?? 0, MAX_LEADER_WAIT_MS);
      if (waitMs > 0) {
        await leaderWait.until(req.unreachableLeaderAddress ?? '', waitMs, call);
      }
      const s = ctx.node.status();
      return {
        clusterId: s.clusterId,
        nodeId: s.id,
        leaderId: s.leader,
        leaderAddress: s.leaderAddress,
        term: toUint64(BigInt(s.term)),
        commitIndex: toUint64(BigInt(s.commit)),
        appliedIndex: toUint64(BigInt(s.applied)),
        members: s.members.map(memberProto),
      };
    }),
    addMember: unary(ctx, async (req) => {
      requireLeader(ctx);
      const id = name(req.id, 'id');
      if (!ID_PATTERN.test(id)) {
        throw new ValidationError('id', 'must be 1-63 letters, digits, dots, dashes or underscores');
      }
      const members = await ctx.node.addMember(
        id,
        address(req.peerAddress, 'peer_address'),
        address(req.address, 'address'),
        { learnerOnly: req.learnerOnly ?? false },
      );
      return { members: members.map(memberProto) };
    }),
    removeMember: unary(ctx, async (req) => {
      requireLeader(ctx);
      const members = await ctx.node.removeMember(name(req.id, 'id'));
      return { members: members.map(memberProto) };
    }),
    transferLeadership: unary(ctx, async (req) => {
      requireLeader(ctx);
      const to = req.toId || undefined;
      if (to && !ctx.node.status().members.some((m) => m.id === to && m.voter)) {
        throw new ValidationError('to_id', `"${to}" is not a voting member`);
      }
      return { leaderId: await ctx.node.transferLeadership(to) };
    }),
  };
}
