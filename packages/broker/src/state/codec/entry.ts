/**
 * QueueEntry (records.proto), written and read by hand (wire.ts): every
 * publish, lease, nack and ack writes one and the next reads it back, and
 * protobufjs made a message object and a Long per time field on the way
 * (`npm run bench -- apply` measures apply). The bytes equal protobufjs's
 * (state-record-codec.test.ts).
 */
import type { QueueEntryRec } from '../model/records.js';
import { decodeInlineBody, encodeDeadLetterOf, writeInlineBody } from './body.js';
import { writer } from './shared.js';
import { StringMemo, varintSize, WIRE_LEN, WIRE_VARINT, WireReader } from './wire.js';

/**
 * The entry a queue entry's stored bytes decode to, kept on the bytes object
 * itself by `decodedEntry` and `encodeEntry(e, true)`: an entry read again
 * (a lease reads what the publish wrote, an ack what the lease wrote, both
 * from the record cache) is decoded once. Entries are never changed in place,
 * and `decodeEntry(encodeEntry(e))` equals `e` (state-record-codec.test.ts),
 * so apply sees the same entry either way. A property rather than a map: a
 * `WeakMap`'s entries are ephemerons that every scavenge traces, and a `Map`
 * would need evicting along with the cache.
 */
const DECODED: unique symbol = Symbol('decoded queue entry');
type EntryBytes = Uint8Array & { [DECODED]?: QueueEntryRec };

/** The entry `bytes` hold, decoded once per bytes object. */
export function decodedEntry(bytes: Uint8Array): QueueEntryRec {
  const b = bytes as EntryBytes;
  let e = b[DECODED];
  if (e === undefined) {
    e = decodeEntry(b);
    b[DECODED] = e;
  }
  return e;
}

/**
 * The entry fresh `bytes` (never decoded: a copy just made) hold, decoded and
 * left on them for `decodedEntry`, without first looking for an earlier
 * decoding (a property missed on a new array costs as much as the rest).
 */
export function decodeAndKeep(bytes: Uint8Array): QueueEntryRec {
  const e = decodeEntry(bytes);
  (bytes as EntryBytes)[DECODED] = e;
  return e;
}

/**
 * `owned`: into memory of its own, carrying `e` for `decodedEntry` (for an
 * entry the record cache will hold; a slab view is copied there, see slab.ts).
 */
export function encodeEntry(e: QueueEntryRec, owned = false): Uint8Array {
  // Before the writer is reset: protobufjs encodes a dead letter's history apart.
  const deadLetter = e.body && encodeDeadLetterOf(e.body);
  const w = writer.reset();
  if (e.id !== 0n) w.tag(1, WIRE_VARINT).varint64(e.id);
  if (e.topic !== '') w.tag(2, WIRE_LEN).string(e.topic);
  if (e.group !== '') w.tag(3, WIRE_LEN).string(e.group);
  if (e.dueAtMs !== 0) w.tag(4, WIRE_VARINT).varint(e.dueAtMs);
  if (e.attempt !== 0) w.tag(5, WIRE_VARINT).varint(e.attempt);
  if (e.inFlight) w.tag(6, WIRE_VARINT).varint(1);
  if (e.deliveredAtMs.length > 0) {
    let n = 0;
    for (const t of e.deliveredAtMs) n += varintSize(t);
    w.tag(7, WIRE_LEN).varint(n);
    for (const t of e.deliveredAtMs) w.varint(t);
  }
  if (e.expireAtMs !== 0) w.tag(8, WIRE_VARINT).varint(e.expireAtMs);
  if (e.indexImplied) w.tag(9, WIRE_VARINT).varint(1);
  if (e.leaseEndMs !== 0) w.tag(10, WIRE_VARINT).varint(e.leaseEndMs);
  if (e.indexUnwritten) w.tag(11, WIRE_VARINT).varint(1);
  if (e.leaseSerial !== 0) w.tag(12, WIRE_VARINT).varint(e.leaseSerial);
  if (e.leaseConsumer !== 0n) w.tag(13, WIRE_VARINT).varint64(e.leaseConsumer);
  if (e.lastError !== '') w.tag(14, WIRE_LEN).string(e.lastError);
  if (e.body) writeInlineBody(w, 15, e.body, deadLetter);
  if (e.orderingKey !== '') w.tag(16, WIRE_LEN).string(e.orderingKey);
  if (e.deliverBeforeMs !== 0) w.tag(17, WIRE_VARINT).varint(e.deliverBeforeMs);
  if (e.ordered) w.tag(18, WIRE_VARINT).varint(1);
  if (!owned) return w.finish();
  const out: EntryBytes = w.finishOwned();
  out[DECODED] = e;
  return out;
}

const NONE_DELIVERED: number[] = Object.freeze([]) as unknown as number[];
/** The topic and group names entries read last: a queue's entries repeat them. */
const TOPIC = new StringMemo();
const GROUP = new StringMemo();

export function decodeEntry(bytes: Uint8Array): QueueEntryRec {
  const r = new WireReader(bytes);
  let id = 0n;
  let topic = '';
  let group = '';
  let dueAtMs = 0;
  let attempt = 0;
  let inFlight = false;
  // Shared while empty (most entries: never leased), frozen: nothing changes a decoded entry.
  let deliveredAtMs: number[] = NONE_DELIVERED;
  let expireAtMs = 0;
  let indexImplied = false;
  let leaseEndMs = 0;
  let indexUnwritten = false;
  let leaseSerial = 0;
  let leaseConsumer = 0n;
  let lastError = '';
  let orderingKey = '';
  let deliverBeforeMs = 0;
  let ordered = false;
  // The body's place in `bytes` (decoded after the loop): no view of it made on the way.
  let bodyStart = -1;
  let bodyEnd = -1;
  while (!r.done) {
    const tag = r.varint();
    const wt = tag & 7;
    switch (tag >>> 3) {
      case 1:
        if (wt !== WIRE_VARINT) break;
        id = r.varint64();
        continue;
      case 2:
        if (wt !== WIRE_LEN) break;
        topic = r.memoString(TOPIC);
        continue;
      case 3:
        if (wt !== WIRE_LEN) break;
        group = r.memoString(GROUP);
        continue;
      case 4:
        if (wt !== WIRE_VARINT) break;
        dueAtMs = r.varint();
        continue;
      case 5:
        if (wt !== WIRE_VARINT) break;
        attempt = r.varint() >>> 0;
        continue;
      case 6:
        if (wt !== WIRE_VARINT) break;
        inFlight = r.varint() !== 0;
        continue;
      case 7:
        if (deliveredAtMs === NONE_DELIVERED) deliveredAtMs = [];
        if (wt === WIRE_LEN) {
          const packed = r.sub();
          while (!packed.done) deliveredAtMs.push(packed.varint());
          continue;
        }
        if (wt !== WIRE_VARINT) break;
        deliveredAtMs.push(r.varint());
        continue;
      case 8:
        if (wt !== WIRE_VARINT) break;
        expireAtMs = r.varint();
        continue;
      case 9:
        if (wt !== WIRE_VARINT) break;
        indexImplied = r.varint() !== 0;
        continue;
      case 10:
        if (wt !== WIRE_VARINT) break;
        leaseEndMs = r.varint();
        continue;
      case 11:
        if (wt !== WIRE_VARINT) break;
        indexUnwritten = r.varint() !== 0;
        continue;
      case 12:
        if (wt !== WIRE_VARINT) break;
        leaseSerial = r.varint() >>> 0;
        continue;
      case 13:
        if (wt !== WIRE_VARINT) break;
        leaseConsumer = r.varint64();
        continue;
      case 14:
        if (wt !== WIRE_LEN) break;
        lastError = r.string();
        continue;
      case 15:
        if (wt !== WIRE_LEN) break;
        bodyEnd = r.lengthEnd();
        bodyStart = r.pos;
        r.pos = bodyEnd;
        continue;
      case 16:
        if (wt !== WIRE_LEN) break;
        orderingKey = r.string();
        continue;
      case 17:
        if (wt !== WIRE_VARINT) break;
        deliverBeforeMs = r.varint();
        continue;
      case 18:
        if (wt !== WIRE_VARINT) break;
        ordered = r.varint() !== 0;
        continue;
    }
    r.skip(wt);
  }
  return {
    id,
    topic,
    group,
    dueAtMs,
    attempt,
    inFlight,
    deliveredAtMs,
    expireAtMs,
    indexImplied,
    leaseEndMs,
    indexUnwritten,
    leaseSerial,
    leaseConsumer,
    lastError,
    orderingKey,
    deliverBeforeMs,
    ordered,
    // After the loop: the body takes the entry's id, topic, expiry, ordering key and deadline.
    body:
      bodyStart >= 0
        ? decodeInlineBody(bytes, bodyStart, bodyEnd, { id, topic, expireAtMs, orderingKey, deliverBeforeMs })
        : undefined,
  };
}
