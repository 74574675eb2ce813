// PurgeRecord (records.proto) through protobufjs: one read and write per purge step.
import { v1 } from '@fermata/protocol';
import type { PurgePhase, PurgeRec } from '../model/records.js';
import { i64, n64 } from './shared.js';

const PHASES: Record<PurgePhase, number> = {
  entries: v1.PurgePhase.PURGE_PHASE_ENTRIES,
  keys: v1.PurgePhase.PURGE_PHASE_KEYS,
  schedules: v1.PurgePhase.PURGE_PHASE_SCHEDULES,
};

export function encodePurge(p: PurgeRec): Uint8Array {
  return v1.PurgeRecord.encode({
    topic: p.topic,
    group: p.group,
    startedAtMs: i64(p.startedAtMs),
    groups: [...p.groups],
    phase: PHASES[p.phase],
    groupIndex: p.groupIndex,
    cursor: p.cursor,
    entriesAtStart: i64(p.entriesAtStart),
    removedEntries: i64(p.removedEntries),
    removedRecords: i64(p.removedRecords),
  }).finish();
}

export function decodePurge(bytes: Uint8Array): PurgeRec {
  const m = v1.PurgeRecord.decode(bytes);
  const phase =
    m.phase === v1.PurgePhase.PURGE_PHASE_KEYS
      ? 'keys'
      : m.phase === v1.PurgePhase.PURGE_PHASE_SCHEDULES
        ? 'schedules'
        : 'entries';
  return {
    topic: m.topic,
    group: m.group,
    startedAtMs: n64(m.startedAtMs),
    groups: m.groups,
    phase,
    groupIndex: m.groupIndex,
    cursor: new Uint8Array(m.cursor),
    entriesAtStart: n64(m.entriesAtStart),
    removedEntries: n64(m.removedEntries),
    removedRecords: n64(m.removedRecords),
  };
}
