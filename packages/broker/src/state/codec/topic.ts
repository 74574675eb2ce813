// TopicRecord (records.proto) through protobufjs: read once per topic per batch, not on a hot path.
import { type pb, v1 } from '@fermata/protocol';
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
  };
}

function decodeSettings(s: pb.TopicSettings.$Properties | null | undefined): TopicSettings {
  return {
    maxAttempts: s?.maxAttempts ?? 0,
    defaultLeaseMs: n64(s?.defaultLeaseMs),
    deadLetterTopic: s?.deadLetterTopic ?? '',
    expiryAction: s?.expiryAction === v1.ExpiryAction.EXPIRY_ACTION_DEAD_LETTER ? 'dead-letter' : 'drop',
    timeBucketMs: n64(s?.timeBucketMs),
    dedupWindowMs: n64(s?.dedupWindowMs),
    deadLetterAuthorizedBy: s?.deadLetterAuthorizedBy ?? '',
  };
}

export function encodeTopic(t: TopicRec): Uint8Array {
  return v1.TopicRecord.encode({
    name: t.name,
    settings: encodeSettings(t.settings),
    groups: [...t.groups],
    createdAtMs: i64(t.createdAtMs),
    deleting: t.deleting === true,
    deletingGroups: [...(t.deletingGroups ?? [])],
  }).finish();
}

export function decodeTopic(bytes: Uint8Array): TopicRec {
  const m = v1.TopicRecord.decode(bytes);
  return {
    name: m.name,
    settings: decodeSettings(m.settings),
    groups: m.groups,
    createdAtMs: n64(m.createdAtMs),
    ...(m.deleting ? { deleting: true } : {}),
    ...(m.deletingGroups.length > 0 ? { deletingGroups: m.deletingGroups } : {}),
  };
}
