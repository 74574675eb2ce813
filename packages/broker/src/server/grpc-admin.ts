import type { AdminHandlers, ClusterHandlers } from '@fermata/protocol';
import { int64FromSafe, type pb, toUint64, v1 } from '@fermata/protocol';
import type { MemberStatus } from '@fermata/raft';
import { DEFAULT_GROUP } from '../keys.js';
import { settingsFromProto, settingsToProto } from '../state/commands.js';
import { ValidationError } from '../state/errors.js';
import type { TopicRec } from '../state/records.js';
import { deadLetterTopicOf } from '../state/validation.js';
import { parseAddress } from './config.js';
import { ID_PATTERN } from './config-schema.js';
import { field, linearizable, requireLeader, type ServerContext, unary } from './context.js';

function topicProto(t: TopicRec): pb.Topic.$Properties {
  return {
    name: t.name,
    // Settings come back resolved: an empty dead-letter topic means the default one.
    settings: settingsToProto({ ...t.settings, deadLetterTopic: deadLetterTopicOf(t.name, t.settings) }),
    groups: [...t.groups],
    createdAtMs: int64FromSafe(t.createdAtMs),
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
  return {
    createTopic: unary(ctx, async (req) => {
      const settings = field('settings.', () => settingsFromProto(req.settings));
      const r = await run({ kind: 'create-topic', name: name(req.name, 'name'), settings });
      if (r.kind !== 'create-topic') throw new Error(`invariant: create-topic answered with ${r.kind}`);
      return { topic: topicProto(r.topic) };
    }),
    updateTopic: unary(ctx, async (req) => {
      const settings = field('settings.', () => settingsFromProto(req.settings));
      const r = await run({
        kind: 'update-topic',
        name: name(req.name, 'name'),
        settings,
        updateMask: req.updateMask,
      });
      if (r.kind !== 'update-topic') throw new Error(`invariant: update-topic answered with ${r.kind}`);
      return { topic: topicProto(r.topic) };
    }),
    deleteTopic: unary(ctx, async (req) => {
      const r = await run({ kind: 'delete-topic', name: name(req.name, 'name') });
      if (r.kind !== 'delete-topic') throw new Error(`invariant: delete-topic answered with ${r.kind}`);
      return { removedMessages: toUint64(BigInt(r.removedMessages)) };
    }),
    listTopics: unary(ctx, async () => {
      await linearizable(ctx);
      return { topics: (await ctx.reader.listTopics()).map(topicProto) };
    }),
    getTopicStats: unary(ctx, async (req) => {
      await linearizable(ctx);
      const stats = await ctx.reader.topicStats(name(req.topic, 'topic'));
      return {
        topic: stats.topic.name,
        groups: stats.groups.map((g) => ({
          group: g.group,
          pending: toUint64(BigInt(g.pending)),
          inFlight: toUint64(BigInt(g.inFlight)),
          deadLettered: toUint64(BigInt(g.deadLettered)),
          nextDueMs: int64FromSafe(g.nextDueMs ?? 0),
        })),
      };
    }),
    createGroup: unary(ctx, async (req) => {
      const r = await run({
        kind: 'create-group',
        topic: name(req.topic, 'topic'),
        group: name(req.group, 'group'),
      });
      if (r.kind !== 'create-group') throw new Error(`invariant: create-group answered with ${r.kind}`);
      return { topic: topicProto(r.topic) };
    }),
    deleteGroup: unary(ctx, async (req) => {
      const group = name(req.group, 'group');
      if (group === DEFAULT_GROUP) throw new ValidationError('group', 'the default group cannot be deleted');
      const r = await run({ kind: 'delete-group', topic: name(req.topic, 'topic'), group });
      if (r.kind !== 'delete-group') throw new Error(`invariant: delete-group answered with ${r.kind}`);
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

export function clusterHandlers(ctx: ServerContext): ClusterHandlers {
  return {
    getClusterInfo: unary(ctx, async () => {
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
