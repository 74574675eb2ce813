// TopicRecord (records.proto) through protobufjs: read once per topic per batch, not on a hot path.
import { type pb, v1 } from '@fermata/protocol';
import {
  decodePush,
  encodePush,
  type GroupSettings,
  orderingFromProto,
  orderingToProto,
} from '../model/group-settings.js';
import type { TopicRec, TopicSettings } from '../model/records.js';
import { i64, n64 } from './shared.js';

export function encodeSettings(s: TopicSettings): pb.TopicSettings.$Properties {
  return {
    maxAttempts: s.maxAttempts,
    defaultLeaseMs: i64(s.defaultLeaseMs),
    deadLetterTopic: s.deadLetterTopic,
    expiryAction:
      s.expiryAction === 'drop'
        ? v1.ExpiryAction.EXPIRY_ACTION_DROP
        : v1.ExpiryAction.EXPIRY_ACTION_DEAD_LETTER,
    timeBucketMs: i64(s.timeBucketMs),
    dedupWindowMs: i64(s.dedupWindowMs),
    deadLetterAuthorizedBy: s.deadLetterAuthorizedBy,
    // Defaults left out, so a record of a topic that sets none is as before.
    ordering: s.ordering === 'key' ? v1.Ordering.ORDERING_KEY : v1.Ordering.ORDERING_UNSPECIFIED,
    orderingKeyFromKey: s.orderingKeyFromKey,
    maxLatenessMs: i64(s.maxLatenessMs),
    deadlineAction:
      s.deadlineAction === 'drop'
        ? v1.DeadlineAction.DEADLINE_ACTION_DROP
        : v1.DeadlineAction.DEADLINE_ACTION_UNSPECIFIED,
    paused: s.paused,
  };
}

/** Absent fields (a record written before them) read as their defaults. */
function decodeSettings(s: pb.TopicSettings.$Properties | null | undefined): TopicSettings {
  return {
    maxAttempts: s?.maxAttempts ?? 0,
    defaultLeaseMs: n64(s?.defaultLeaseMs),
    deadLetterTopic: s?.deadLetterTopic ?? '',
    expiryAction: s?.expiryAction === v1.ExpiryAction.EXPIRY_ACTION_DEAD_LETTER ? 'dead-letter' : 'drop',
    timeBucketMs: n64(s?.timeBucketMs),
    dedupWindowMs: n64(s?.dedupWindowMs),
    deadLetterAuthorizedBy: s?.deadLetterAuthorizedBy ?? '',
    ordering: s?.ordering === v1.Ordering.ORDERING_KEY ? 'key' : 'none',
    orderingKeyFromKey: s?.orderingKeyFromKey === true,
    maxLatenessMs: n64(s?.maxLatenessMs),
    deadlineAction: s?.deadlineAction === v1.DeadlineAction.DEADLINE_ACTION_DROP ? 'drop' : 'dead-letter',
    paused: s?.paused === true,
  };
}

export function encodeGroupSettings(g: GroupSettings): pb.GroupSettings.$Properties {
  return {
    maxDeliveriesPerSecond: g.maxDeliveriesPerSecond,
    burst: g.burst,
    maxInFlight: g.maxInFlight,
    ordering: orderingToProto(g.ordering),
    paused: g.paused,
    // Absent when unset, so a record of a group that pushes nowhere is as before.
    ...(g.push ? { push: encodePush(g.push) } : {}),
  };
}

export function decodeGroupSettings(g: pb.GroupSettings.$Properties | null | undefined): GroupSettings {
  return {
    maxDeliveriesPerSecond: g?.maxDeliveriesPerSecond ?? 0,
    burst: g?.burst ?? 0,
    maxInFlight: g?.maxInFlight ?? 0,
    ordering: orderingFromProto(g?.ordering),
    paused: g?.paused === true,
    ...(g?.push ? { push: decodePush(g.push) } : {}),
  };
}

export function encodeTopic(t: TopicRec): Uint8Array {
  const groupSettings: Record<string, pb.GroupSettings.$Properties> = {};
  for (const [group, g] of Object.entries(t.groupSettings ?? {}))
    groupSettings[group] = encodeGroupSettings(g);
  return v1.TopicRecord.encode({
    name: t.name,
    settings: encodeSettings(t.settings),
    groups: [...t.groups],
    createdAtMs: i64(t.createdAtMs),
    deleting: t.deleting === true,
    deletingGroups: [...(t.deletingGroups ?? [])],
    groupSettings,
  }).finish();
}

export function decodeTopic(bytes: Uint8Array): TopicRec {
  const m = v1.TopicRecord.decode(bytes);
  const names = Object.keys(m.groupSettings ?? {});
  const groupSettings: Record<string, GroupSettings> = {};
  for (const group of names) groupSettings[group] = decodeGroupSettings(m.groupSettings[group]);
  return {
    name: m.name,
    settings: decodeSettings(m.settings),
    groups: m.groups,
    createdAtMs: n64(m.createdAtMs),
    ...(m.deleting ? { deleting: true } : {}),
    ...(m.deletingGroups.length > 0 ? { deletingGroups: m.deletingGroups } : {}),
    ...(names.length > 0 ? { groupSettings } : {}),
  };
}
