import { type pb, toBigInt, toInt64, toSafeNumber, v1 } from '@fermata/protocol';
import {
  type PushSettings,
  type PushSettingsView,
  pushFromWire,
  pushToWire,
  pushUpdateMask,
} from './push.js';

/** What happens to a message whose TTL runs out. */
export type ExpiryAction = 'drop' | 'dead-letter';

/** What happens to a message not leased before its deadline. */
export type DeadlineAction = 'dead-letter' | 'drop';

/** How due messages are ordered: `key` = at most one message of an ordering key leased at a time per group. */
export type Ordering = 'none' | 'key';

/** A topic's settings. On create, an omitted field takes the server's default. */
export interface TopicSettings {
  /** Deliveries before a message is dead-lettered. */
  maxAttempts?: number;
  /** Lease of a delivery when the consumer asks for none, in ms. */
  defaultLeaseMs?: number;
  /** Where dead letters go (default `<topic>.dlq`). */
  deadLetterTopic?: string;
  /** What happens to an expired message. */
  expiryAction?: ExpiryAction;
  /** Granularity of the time index in ms; 0 = exact milliseconds. */
  timeBucketMs?: number;
  /** How long a key stays reserved after its message ends, in ms. */
  dedupWindowMs?: number;
  /** The ordering of the topic's groups that set none (default `none`). */
  ordering?: Ordering;
  /** A message's dedup key is its ordering key when it names none. */
  orderingKeyFromKey?: boolean;
  /** A message's default deadline: its due time plus this many ms (0 = none), fixed when it is published. */
  maxLatenessMs?: number;
  /** What becomes of a message past its deadline (default `dead-letter`, reason `deadline_exceeded`). */
  deadlineAction?: DeadlineAction;
  /** Nothing new is delivered to any group of the topic (deliveries in flight finish). */
  paused?: boolean;
}

/** A group's own settings. Omitted: no limit, the topic's ordering, not paused. */
export interface GroupSettings {
  /** Most deliveries a second to the group's consumers together (0 = unlimited; at most 100,000). */
  maxDeliveriesPerSecond?: number;
  /** Deliveries the rate lets through at once (0 = the rate); only with `maxDeliveriesPerSecond`. */
  burst?: number;
  /** Most deliveries in flight at once across the group's consumers (0 = unlimited). */
  maxInFlight?: number;
  /** Undefined = the topic's. */
  ordering?: Ordering;
  /** Nothing new is delivered to the group (deliveries in flight finish). */
  paused?: boolean;
  /**
   * Makes it a push group: the leader POSTs each message to the endpoint.
   * On update, the push fields given change; `null` ends the push.
   */
  push?: PushSettings | null;
}

/** A group's settings as the cluster holds them: every limit present (0 = none). */
export interface GroupSettingsView {
  maxDeliveriesPerSecond: number;
  burst: number;
  maxInFlight: number;
  /** Its own ordering; undefined = the topic's (in {@link GroupStats.settings}: the effective one). */
  ordering: Ordering | undefined;
  paused: boolean;
  /** Set for a push group. */
  push?: PushSettingsView;
}

/** A topic as the cluster holds it. */
export interface Topic {
  /** The topic's name. */
  name: string;
  /** Every setting, with the server's defaults filled in. */
  settings: Required<TopicSettings>;
  /** Consumer groups; always includes `default`. */
  groups: string[];
  /** When it was created, epoch ms. */
  createdAtMs: number;
  /** Each group's own settings, by group name. */
  groupSettings: Record<string, GroupSettingsView>;
}

/** Counts of one group of a topic. */
export interface GroupStats {
  /** The group's name. */
  group: string;
  /** Messages waiting for their due time or for a consumer. */
  pending: number;
  /** Messages leased to a consumer and not yet settled. */
  inFlight: number;
  /** Messages moved to the dead-letter topic. */
  deadLettered: number;
  /** Earliest time something in the group falls due (a pending message, or a running lease's end), epoch ms; undefined when the group holds nothing. */
  nextDueMs: number | undefined;
  /** The group's settings as they take effect: the topic's ordering when it sets none, burst resolved, paused by the topic or itself. */
  settings: GroupSettingsView;
  /** The topic or the group is paused: nothing new is delivered. */
  paused: boolean;
  /** Deliveries a rate or in-flight limit held back past their due time. */
  throttled: number;
  /** A push group's requests, as the current leader counted them since it became leader; absent for a group without push. */
  push?: PushStats;
}

/** What the leader sent for a push group since it became leader. */
export interface PushStats {
  /** Requests by how they ended: `2xx`..`5xx` (the answer's status class), `timeout`, `error` (no answer). */
  requests: Record<string, number>;
  /** Requests not acknowledged, so nacked for a retry (or, the last attempt, a dead letter). */
  retries: number;
  /** Nacks of a last attempt: the message went to the dead-letter topic. */
  deadLetters: number;
  /**
   * Why the group sends nothing now: its secret or CA file cannot be read
   * (the field and the path); '' when it can. Its messages wait, their
   * attempts unspent, and it goes on once the file can be read.
   */
  blocked: string;
}

/** {@link FermataClient.topicStats}'s answer. */
export interface TopicStats {
  /** The topic's name. */
  topic: string;
  /** One entry per group. */
  groups: GroupStats[];
  /** Deletions of the topic, or of one of its groups, whose records are still being removed. */
  deletions: DeletionProgress[];
}

/** A deletion under way: its records are removed in steps by the leader. */
export interface DeletionProgress {
  /** The group being deleted; '' when the whole topic is. */
  group: string;
  /** When it was deleted, epoch ms. */
  startedAtMs: number;
  /** Queue entries it held when deleted. */
  entriesAtStart: number;
  /** Queue entries removed since. */
  removedEntries: number;
  /** Key and schedule records removed since. */
  removedRecords: number;
}

/** A node's role as the leader sees it. */
export type MemberRole =
  | 'unspecified'
  | 'leader'
  | 'follower'
  | 'candidate'
  | 'pre-candidate'
  | 'learner'
  | 'unreachable';

/** One cluster member. */
export interface Member {
  /** The node's id. */
  id: string;
  /** Client gRPC address. */
  address: string;
  /** Raft peer address. */
  peerAddress: string;
  /** Its role, as the answering node sees it. */
  role: MemberRole;
  /** False for a learner (replicated to, not counted for quorum). */
  voter: boolean;
  /** Highest log index known to be on this member. */
  matchIndex: bigint;
  /** Entries behind the leader's log. */
  lag: bigint;
}

/** {@link FermataClient.clusterInfo}'s answer. */
export interface ClusterInfo {
  /** The cluster's configured name. */
  clusterId: string;
  /** The node that answered. */
  nodeId: string;
  /** Empty when the answering node knows no leader. */
  leaderId: string;
  /** The leader's client address; empty when no leader is known. */
  leaderAddress: string;
  /** The current Raft term. */
  term: bigint;
  /** Highest log index known committed. */
  commitIndex: bigint;
  /** Highest log index applied to the broker's state. */
  appliedIndex: bigint;
  /** Every member with role, address and lag. */
  members: Member[];
}

/** Options of {@link FermataClient.addMember}. */
export interface AddMemberOptions {
  /** Raft peer address (host:port). */
  peerAddress: string;
  /** Client address (host:port). */
  address: string;
  /** Keep it a non-voting learner (default: promoted once caught up). */
  learnerOnly?: boolean;
}

const SETTINGS_FIELDS = {
  maxAttempts: 'max_attempts',
  defaultLeaseMs: 'default_lease_ms',
  deadLetterTopic: 'dead_letter_topic',
  expiryAction: 'expiry_action',
  timeBucketMs: 'time_bucket_ms',
  dedupWindowMs: 'dedup_window_ms',
  ordering: 'ordering',
  orderingKeyFromKey: 'ordering_key_from_key',
  maxLatenessMs: 'max_lateness_ms',
  deadlineAction: 'deadline_action',
  paused: 'paused',
} as const satisfies Record<keyof TopicSettings, string>;

const GROUP_SETTINGS_FIELDS = {
  maxDeliveriesPerSecond: 'max_deliveries_per_second',
  burst: 'burst',
  maxInFlight: 'max_in_flight',
  ordering: 'ordering',
  paused: 'paused',
  push: 'push',
} as const satisfies Record<keyof GroupSettings, string>;

function orderingToWire(o: Ordering | undefined): pb.Ordering {
  if (o === 'key') return v1.Ordering.ORDERING_KEY;
  if (o === 'none') return v1.Ordering.ORDERING_NONE;
  return v1.Ordering.ORDERING_UNSPECIFIED;
}

function orderingFromWire(o: number | null | undefined): Ordering | undefined {
  return o === v1.Ordering.ORDERING_KEY ? 'key' : o === v1.Ordering.ORDERING_NONE ? 'none' : undefined;
}

function expiryToWire(a: ExpiryAction | undefined): pb.ExpiryAction {
  if (a === 'drop') return v1.ExpiryAction.EXPIRY_ACTION_DROP;
  if (a === 'dead-letter') return v1.ExpiryAction.EXPIRY_ACTION_DEAD_LETTER;
  return v1.ExpiryAction.EXPIRY_ACTION_UNSPECIFIED;
}

function ms(value: number | undefined): ReturnType<typeof toInt64> | undefined {
  return value === undefined ? undefined : toInt64(BigInt(value));
}

export function settingsToWire(s: TopicSettings): pb.TopicSettings.$Properties {
  return {
    maxAttempts: s.maxAttempts ?? 0,
    defaultLeaseMs: ms(s.defaultLeaseMs),
    deadLetterTopic: s.deadLetterTopic ?? '',
    expiryAction: expiryToWire(s.expiryAction),
    timeBucketMs: ms(s.timeBucketMs),
    dedupWindowMs: ms(s.dedupWindowMs),
    ordering: orderingToWire(s.ordering),
    orderingKeyFromKey: s.orderingKeyFromKey,
    maxLatenessMs: ms(s.maxLatenessMs),
    deadlineAction:
      s.deadlineAction === 'drop'
        ? v1.DeadlineAction.DEADLINE_ACTION_DROP
        : s.deadlineAction === 'dead-letter'
          ? v1.DeadlineAction.DEADLINE_ACTION_DEAD_LETTER
          : v1.DeadlineAction.DEADLINE_ACTION_UNSPECIFIED,
    paused: s.paused,
  };
}

export function groupSettingsToWire(s: GroupSettings): pb.GroupSettings.$Properties {
  return {
    maxDeliveriesPerSecond: s.maxDeliveriesPerSecond ?? 0,
    burst: s.burst ?? 0,
    maxInFlight: s.maxInFlight ?? 0,
    ordering: orderingToWire(s.ordering),
    paused: s.paused,
    ...(s.push ? { push: pushToWire(s.push) } : {}),
  };
}

function maskOf<T extends object>(s: T, fields: Record<keyof T, string>): string[] {
  return (Object.keys(fields) as (keyof T)[]).filter((k) => s[k] !== undefined).map((k) => fields[k]);
}

/** The update mask naming exactly the settings given (proto field names). */
export function updateMask(s: TopicSettings): string[] {
  return maskOf(s, SETTINGS_FIELDS);
}

/** The update mask naming exactly the group settings given (proto field names). */
export function groupUpdateMask(s: GroupSettings): string[] {
  const { push, ...rest } = s;
  return [...maskOf(rest, GROUP_SETTINGS_FIELDS), ...(push !== undefined ? pushUpdateMask(push) : [])];
}

function groupSettingsFromWire(g: pb.GroupSettings.$Properties | null | undefined): GroupSettingsView {
  return {
    maxDeliveriesPerSecond: g?.maxDeliveriesPerSecond ?? 0,
    burst: g?.burst ?? 0,
    maxInFlight: g?.maxInFlight ?? 0,
    ordering: orderingFromWire(g?.ordering),
    paused: g?.paused === true,
    ...(g?.push ? { push: pushFromWire(g.push) } : {}),
  };
}

export function topicFromWire(t: pb.Topic.$Properties | null | undefined): Topic {
  const s = t?.settings ?? {};
  return {
    name: t?.name ?? '',
    settings: {
      maxAttempts: s.maxAttempts ?? 0,
      defaultLeaseMs: toSafeNumber(s.defaultLeaseMs, 'default_lease_ms'),
      deadLetterTopic: s.deadLetterTopic ?? '',
      expiryAction: s.expiryAction === v1.ExpiryAction.EXPIRY_ACTION_DEAD_LETTER ? 'dead-letter' : 'drop',
      timeBucketMs: toSafeNumber(s.timeBucketMs, 'time_bucket_ms'),
      dedupWindowMs: toSafeNumber(s.dedupWindowMs, 'dedup_window_ms'),
      ordering: orderingFromWire(s.ordering) ?? 'none',
      orderingKeyFromKey: s.orderingKeyFromKey === true,
      maxLatenessMs: toSafeNumber(s.maxLatenessMs, 'max_lateness_ms'),
      deadlineAction: s.deadlineAction === v1.DeadlineAction.DEADLINE_ACTION_DROP ? 'drop' : 'dead-letter',
      paused: s.paused === true,
    },
    groups: [...(t?.groups ?? [])],
    createdAtMs: toSafeNumber(t?.createdAtMs, 'created_at_ms'),
    groupSettings: Object.fromEntries(
      Object.entries(t?.groupSettings ?? {}).map(([g, gs]) => [g, groupSettingsFromWire(gs)]),
    ),
  };
}

function pushStatsFromWire(p: pb.IPushStats): PushStats {
  const requests: Record<string, number> = {};
  for (const [c, n] of Object.entries(p.requests ?? {}))
    requests[c] = toSafeNumber(n, `push.requests["${c}"]`);
  return {
    requests,
    retries: toSafeNumber(p.retries, 'push.retries'),
    deadLetters: toSafeNumber(p.deadLetters, 'push.dead_letters'),
    blocked: p.blocked ?? '',
  };
}

export function statsFromWire(r: pb.GetTopicStatsResponse): TopicStats {
  return {
    topic: r.topic,
    groups: r.groups.map((g) => {
      const next = toSafeNumber(g.nextDueMs, 'next_due_ms');
      return {
        group: g.group ?? '',
        pending: toSafeNumber(g.pending, 'pending'),
        inFlight: toSafeNumber(g.inFlight, 'in_flight'),
        deadLettered: toSafeNumber(g.deadLettered, 'dead_lettered'),
        nextDueMs: next === 0 ? undefined : next,
        settings: groupSettingsFromWire(g.settings),
        paused: g.paused === true,
        throttled: toSafeNumber(g.throttled, 'throttled'),
        ...(g.push ? { push: pushStatsFromWire(g.push) } : {}),
      };
    }),
    deletions: (r.deletions ?? []).map((d) => ({
      group: d.group ?? '',
      startedAtMs: toSafeNumber(d.startedAtMs, 'started_at_ms'),
      entriesAtStart: toSafeNumber(d.entriesAtStart, 'entries_at_start'),
      removedEntries: toSafeNumber(d.removedEntries, 'removed_entries'),
      removedRecords: toSafeNumber(d.removedRecords, 'removed_records'),
    })),
  };
}

const ROLES: Record<number, MemberRole> = {
  [v1.MemberRole.MEMBER_ROLE_LEADER]: 'leader',
  [v1.MemberRole.MEMBER_ROLE_FOLLOWER]: 'follower',
  [v1.MemberRole.MEMBER_ROLE_CANDIDATE]: 'candidate',
  [v1.MemberRole.MEMBER_ROLE_PRE_CANDIDATE]: 'pre-candidate',
  [v1.MemberRole.MEMBER_ROLE_LEARNER]: 'learner',
  [v1.MemberRole.MEMBER_ROLE_UNREACHABLE]: 'unreachable',
};

export function memberFromWire(m: pb.Member.$Properties): Member {
  return {
    id: m.id ?? '',
    address: m.address ?? '',
    peerAddress: m.peerAddress ?? '',
    role: ROLES[m.role ?? 0] ?? 'unspecified',
    voter: m.voter === true,
    matchIndex: toBigInt(m.matchIndex),
    lag: toBigInt(m.lag),
  };
}

export function clusterInfoFromWire(r: pb.GetClusterInfoResponse): ClusterInfo {
  return {
    clusterId: r.clusterId,
    nodeId: r.nodeId,
    leaderId: r.leaderId,
    leaderAddress: r.leaderAddress,
    term: toBigInt(r.term),
    commitIndex: toBigInt(r.commitIndex),
    appliedIndex: toBigInt(r.appliedIndex),
    members: r.members.map(memberFromWire),
  };
}
