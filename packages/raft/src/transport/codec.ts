import { Long, type pb, v1 } from '@fermata/protocol';
import type { ConfState, Entry, Message, MessageType, SnapshotMeta } from '../types.js';

/**
 * `Message` <-> `fermata.v1.RaftMessage`. Terms and indexes are numbers inside
 * the node and uint64 on the wire; this is the one place they are converted,
 * on the hot path, so it avoids the bigint detour of the generic helpers.
 */

const TYPE_TO_WIRE: Record<MessageType, pb.RaftMessageType> = {
  append: v1.RaftMessageType.RAFT_MESSAGE_TYPE_APPEND,
  'append-response': v1.RaftMessageType.RAFT_MESSAGE_TYPE_APPEND_RESPONSE,
  vote: v1.RaftMessageType.RAFT_MESSAGE_TYPE_VOTE,
  'vote-response': v1.RaftMessageType.RAFT_MESSAGE_TYPE_VOTE_RESPONSE,
  'pre-vote': v1.RaftMessageType.RAFT_MESSAGE_TYPE_PRE_VOTE,
  'pre-vote-response': v1.RaftMessageType.RAFT_MESSAGE_TYPE_PRE_VOTE_RESPONSE,
  heartbeat: v1.RaftMessageType.RAFT_MESSAGE_TYPE_HEARTBEAT,
  'heartbeat-response': v1.RaftMessageType.RAFT_MESSAGE_TYPE_HEARTBEAT_RESPONSE,
  snapshot: v1.RaftMessageType.RAFT_MESSAGE_TYPE_SNAPSHOT,
  'timeout-now': v1.RaftMessageType.RAFT_MESSAGE_TYPE_TIMEOUT_NOW,
  'read-index': v1.RaftMessageType.RAFT_MESSAGE_TYPE_READ_INDEX,
  'read-index-response': v1.RaftMessageType.RAFT_MESSAGE_TYPE_READ_INDEX_RESPONSE,
};

const TYPE_FROM_WIRE = new Map<number, MessageType>(
  Object.entries(TYPE_TO_WIRE).map(([name, wire]) => [wire, name as MessageType]),
);

/** Thrown for a wire message that cannot be a Raft message (unknown type, index beyond 2^53). */
export class MalformedMessageError extends Error {
  override name = 'MalformedMessageError';
}

function u64(n: number): Long {
  return Long.fromNumber(n, true);
}

function num(value: Long | number | null | undefined, field: string): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'number') return value;
  // Anything at or above 2^53 has high bits beyond 21.
  if (value.high >>> 0 >= 0x200000)
    throw new MalformedMessageError(`${field} is beyond 2^53: ${value.toString()}`);
  return (value.high >>> 0) * 0x100000000 + (value.low >>> 0);
}

function confToWire(conf: ConfState): pb.RaftConfState.$Properties {
  return { voters: [...conf.voters], learners: [...conf.learners] };
}

export function snapshotMetaToWire(meta: SnapshotMeta): pb.RaftSnapshotMeta.$Properties {
  return { index: u64(meta.index), term: u64(meta.term), conf: confToWire(meta.conf) };
}

export function snapshotMetaFromWire(meta: pb.RaftSnapshotMeta.$Properties): SnapshotMeta {
  return {
    index: num(meta.index, 'snapshot.index'),
    term: num(meta.term, 'snapshot.term'),
    conf: { voters: [...(meta.conf?.voters ?? [])], learners: [...(meta.conf?.learners ?? [])] },
  };
}

export function messageToWire(m: Message): pb.RaftMessage.$Properties {
  const wire: pb.RaftMessage.$Properties = {
    type: TYPE_TO_WIRE[m.type],
    from: m.from,
    to: m.to,
    term: u64(m.term),
    logTerm: u64(m.logTerm),
    index: u64(m.index),
    commit: u64(m.commit),
    reject: m.reject,
    rejectHint: u64(m.rejectHint),
    hintTerm: u64(m.hintTerm),
  };
  if (m.entries.length > 0) {
    wire.entries = m.entries.map((e) => ({
      term: u64(e.term),
      index: u64(e.index),
      type:
        e.type === 'conf-change'
          ? v1.RaftEntryType.RAFT_ENTRY_TYPE_CONF_CHANGE
          : v1.RaftEntryType.RAFT_ENTRY_TYPE_NORMAL,
      data: e.data,
    }));
  }
  if (m.snapshot) wire.snapshot = snapshotMetaToWire(m.snapshot);
  if (m.context !== undefined) wire.context = m.context;
  if (m.wallTimeMs !== undefined && m.wallTimeMs > 0) wire.wallTimeMs = u64(m.wallTimeMs);
  return wire;
}

export function messageFromWire(w: pb.RaftMessage): Message {
  const type = TYPE_FROM_WIRE.get(w.type);
  if (type === undefined) throw new MalformedMessageError(`unknown Raft message type ${w.type}`);
  const entries: Entry[] = [];
  for (const e of w.entries) {
    entries.push({
      term: num(e.term, 'entry.term'),
      index: num(e.index, 'entry.index'),
      type: e.type === v1.RaftEntryType.RAFT_ENTRY_TYPE_CONF_CHANGE ? 'conf-change' : 'normal',
      data: e.data ?? new Uint8Array(0),
    });
  }
  const hasContext = Object.hasOwn(w, 'context') && w.context !== null && w.context !== undefined;
  const wallTimeMs = num(w.wallTimeMs, 'wallTimeMs');
  const m: Message = {
    type,
    from: w.from,
    to: w.to,
    term: num(w.term, 'term'),
    logTerm: num(w.logTerm, 'logTerm'),
    index: num(w.index, 'index'),
    entries,
    commit: num(w.commit, 'commit'),
    reject: w.reject,
    rejectHint: num(w.rejectHint, 'rejectHint'),
    hintTerm: num(w.hintTerm, 'hintTerm'),
    ...(w.snapshot ? { snapshot: snapshotMetaFromWire(w.snapshot) } : {}),
    ...(hasContext ? { context: w.context as Uint8Array } : {}),
    ...(wallTimeMs > 0 ? { wallTimeMs } : {}),
  };
  return m;
}

/** Approximate encoded size, for batch limits (entry data dominates). */
export function messageBytes(m: Message): number {
  let bytes = 64 + (m.context?.length ?? 0);
  for (const e of m.entries) bytes += e.data.length + 24;
  return bytes;
}
