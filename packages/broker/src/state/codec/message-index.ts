/**
 * MessageIndex (records.proto), written and read by hand (wire.ts) for the
 * same reason as the queue entry (entry.ts): a lease and an ack of a keyed or
 * many-group message each read and write one. The bytes equal protobufjs's
 * (state-record-codec.test.ts). Also the short form of a moved implied index.
 */
import { slabBytes } from '@fermata/storage';
import type { GroupOutcome, GroupRef, MessageIndexRec } from '../model/records.js';
import { writer } from './shared.js';
import { lenFieldSize, varintSize, WIRE_LEN, WIRE_VARINT, WireReader } from './wire.js';

const EMPTY_TAG = new Uint8Array(0);
const OUTCOMES: readonly GroupOutcome[] = ['live', 'done', 'dead-lettered', 'expired', 'removed'];

/**
 * The stored index of a message with `indexImplied` whose entry moved (a
 * lease, nack, extend or reschedule): a 0x00 byte, which no protobuf field
 * starts with (field numbers start at 1), then the entry's tag. The rest of
 * `impliedIndex` (topic, expiry) is in the message's body. 25 bytes written
 * without encoding an index per lease; the ack deletes it unread.
 */
export function encodeMovedIndex(tag: Uint8Array): Uint8Array {
  const out = slabBytes(1 + tag.length);
  out.set(tag, 1);
  return out;
}

/** The tag a `encodeMovedIndex` record holds, or undefined for an encoded `MessageIndex`. */
export function movedIndexTag(bytes: Uint8Array): Uint8Array | undefined {
  return bytes.length > 0 && bytes[0] === 0 ? bytes.slice(1) : undefined;
}

export function encodeIndex(x: MessageIndexRec): Uint8Array {
  const w = writer.reset();
  if (x.topic !== '') w.tag(1, WIRE_LEN).string(x.topic);
  if (x.key !== '') w.tag(2, WIRE_LEN).string(x.key);
  if (x.expireAtMs !== 0) w.tag(3, WIRE_VARINT).varint(x.expireAtMs);
  for (const g of x.groups) {
    const outcome = OUTCOMES.indexOf(g.outcome);
    const groupBytes = Buffer.byteLength(g.group, 'utf8');
    const size =
      (groupBytes > 0 ? lenFieldSize(groupBytes) : 0) +
      (g.tag.length > 0 ? lenFieldSize(g.tag.length) : 0) +
      (outcome !== 0 ? 1 + varintSize(outcome) : 0);
    w.tag(4, WIRE_LEN).varint(size);
    if (groupBytes > 0) w.tag(1, WIRE_LEN).string(g.group);
    if (g.tag.length > 0) w.tag(2, WIRE_LEN).bytes(g.tag);
    if (outcome !== 0) w.tag(3, WIRE_VARINT).varint(outcome);
  }
  if (x.done) w.tag(5, WIRE_VARINT).varint(1);
  if (x.endedAtMs !== 0) w.tag(6, WIRE_VARINT).varint(x.endedAtMs);
  return w.finish();
}

function decodeGroupRef(r: WireReader): GroupRef {
  let group = '';
  let tag = EMPTY_TAG;
  let outcome = 0;
  while (!r.done) {
    const t = r.varint();
    const wt = t & 7;
    switch (t >>> 3) {
      case 1:
        if (wt !== WIRE_LEN) break;
        group = r.string();
        continue;
      case 2:
        if (wt !== WIRE_LEN) break;
        tag = r.bytes().slice();
        continue;
      case 3:
        if (wt !== WIRE_VARINT) break;
        outcome = r.varint();
        continue;
    }
    r.skip(wt);
  }
  return { group, tag, outcome: OUTCOMES[outcome] ?? 'live' };
}

export function decodeIndex(bytes: Uint8Array): MessageIndexRec {
  const r = new WireReader(bytes);
  let topic = '';
  let key = '';
  let expireAtMs = 0;
  const groups: GroupRef[] = [];
  let done = false;
  let endedAtMs = 0;
  while (!r.done) {
    const tag = r.varint();
    const wt = tag & 7;
    switch (tag >>> 3) {
      case 1:
        if (wt !== WIRE_LEN) break;
        topic = r.string();
        continue;
      case 2:
        if (wt !== WIRE_LEN) break;
        key = r.string();
        continue;
      case 3:
        if (wt !== WIRE_VARINT) break;
        expireAtMs = r.varint();
        continue;
      case 4:
        if (wt !== WIRE_LEN) break;
        groups.push(decodeGroupRef(r.sub()));
        continue;
      case 5:
        if (wt !== WIRE_VARINT) break;
        done = r.varint() !== 0;
        continue;
      case 6:
        if (wt !== WIRE_VARINT) break;
        endedAtMs = r.varint();
        continue;
    }
    r.skip(wt);
  }
  return { topic, key, expireAtMs, groups, done, endedAtMs };
}
