import { toInt64, toUint64, v1 } from '@fermata/protocol';
import { describe, expect, it } from 'vitest';
import { decodeKey, encodeKey } from '../src/keys.js';
import { decodeBody, encodeBody } from '../src/state/codec/body.js';
import { decodedEntry, decodeEntry, encodeEntry } from '../src/state/codec/entry.js';
import { decodeLease, encodeLease, encodeLeaseSettles } from '../src/state/codec/lease.js';
import {
  decodeIndex,
  encodeIndex,
  encodeMovedIndex,
  movedIndexTag,
} from '../src/state/codec/message-index.js';
import { decodePublish, encodePublish, publishedKey } from '../src/state/codec/publish.js';
import { decodeTopic, encodeTopic } from '../src/state/codec/topic.js';
import { WireReader, WireWriter } from '../src/state/codec/wire.js';
import type {
  BodyRec,
  GroupOutcome,
  LeaseRun,
  MessageIndexRec,
  PublishRec,
  QueueEntryRec,
} from '../src/state/model/records.js';
import { effectiveGroupSettings } from '../src/state/model/records.js';
import { rng } from './state-harness.js';

const i64 = (n: number) => toInt64(BigInt(n));
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const OUTCOMES: GroupOutcome[] = ['live', 'done', 'dead-lettered', 'expired', 'removed'];

/** What protobufjs writes for each record (the encoding the hand-written codecs must match). */
const reference = {
  entry: (e: QueueEntryRec) =>
    v1.QueueEntry.encode({
      id: toUint64(e.id),
      topic: e.topic,
      group: e.group,
      dueAtMs: i64(e.dueAtMs),
      attempt: e.attempt,
      inFlight: e.inFlight,
      deliveredAtMs: e.deliveredAtMs.map(i64),
      expireAtMs: i64(e.expireAtMs),
      indexImplied: e.indexImplied,
      leaseEndMs: i64(e.leaseEndMs),
      indexUnwritten: e.indexUnwritten,
      leaseSerial: e.leaseSerial,
      leaseConsumer: toUint64(e.leaseConsumer),
      lastError: e.lastError,
      // Carried inline without the entry's own id, topic, expiry, ordering key and deadline.
      ...(e.body
        ? {
            body: v1.StoredMessage.decode(
              reference.body({
                ...e.body,
                id: 0n,
                topic: '',
                expireAtMs: 0,
                orderingKey: '',
                deliverBeforeMs: 0,
              }),
            ),
          }
        : {}),
      orderingKey: e.orderingKey,
      deliverBeforeMs: i64(e.deliverBeforeMs),
      ordered: e.ordered,
    }).finish(),
  index: (x: MessageIndexRec) =>
    v1.MessageIndex.encode({
      topic: x.topic,
      key: x.key,
      expireAtMs: i64(x.expireAtMs),
      groups: x.groups.map((g) => ({ group: g.group, tag: g.tag, outcome: OUTCOMES.indexOf(g.outcome) })),
      done: x.done,
      endedAtMs: i64(x.endedAtMs),
    }).finish(),
  body: (b: BodyRec) =>
    v1.StoredMessage.encode({
      id: toUint64(b.id),
      topic: b.topic,
      payload: b.payload,
      headers: { ...b.headers },
      key: b.key,
      enqueuedAtMs: i64(b.enqueuedAtMs),
      dueAtMs: i64(b.dueAtMs),
      expireAtMs: i64(b.expireAtMs),
      indexImplied: b.indexImplied ?? false,
      orderingKey: b.orderingKey,
      deliverBeforeMs: i64(b.deliverBeforeMs),
      ...(b.deadLetter
        ? {
            deadLetter: {
              ...b.deadLetter,
              sourceId: toUint64(b.deadLetter.sourceId),
              deliveredAtMs: b.deadLetter.deliveredAtMs.map(i64),
              deadLetteredAtMs: i64(b.deadLetter.deadLetteredAtMs),
            },
          }
        : {}),
    }).finish(),
  lease: (run: LeaseRun) => {
    let side = run.sideRecords.length;
    while (side > 0 && run.sideRecords[side - 1] === 0) side--;
    return v1.LeaseRecord.encode({
      topic: run.topic,
      group: run.group,
      queue: toUint64(run.queueHash),
      consumer: toUint64(run.consumer),
      nowMs: i64(run.nowMs),
      leaseMs: i64(run.leaseMs),
      keys: run.keyBytes,
      startOffsets: run.startOffsets.map((n) => toUint64(BigInt(n))),
      sideRecords: run.sideRecords.subarray(0, side),
    }).finish();
  },
  leaseSettles: (run: LeaseRun) => {
    let settled = run.settled.length;
    while (settled > 0 && run.settled[settled - 1] === 0) settled--;
    const extended = [...run.extendedEndMs.keys()].sort((a, b) => a - b);
    return v1.LeaseSettles.encode({
      settled: run.settled.subarray(0, settled),
      extended,
      extendedEndMs: extended.map((o) => i64(run.extendedEndMs.get(o)!)),
    }).finish();
  },
  publish: (p: PublishRec) => {
    const keys = keysOf(p).map(decodeKey);
    const queues = [...new Set(keys.map((k) => k.queueHash))];
    return v1.PublishRecord.encode({
      queues: queues.map((q) => toUint64(q)),
      idDeltas: keys.map((k, i) => toUint64(k.id - (i === 0 ? p.firstId : keys[i - 1]!.id))),
      queueIndex: keys.map((k) => queues.indexOf(k.queueHash)),
      // int64 deltas, wrapping: a waiting key's due field (2^64-1) is -1 to them.
      dueDeltas: keys.map((k, i) => toInt64(BigInt.asIntN(64, k.due - (i === 0 ? 0n : keys[i - 1]!.due)))),
      latestDueMs: i64(p.latestDueMs),
    }).finish();
  },
};

/** An entry as plain data (its body too), for equality: a body carried in an entry reads through getters. */
const plainEntry = (x: QueueEntryRec) => ({ ...x, body: x.body && plainBody(x.body) });

/** A publish record's keys, one array each. */
const keysOf = (p: PublishRec): Uint8Array[] =>
  Array.from({ length: p.keyBytes.length / 24 }, (_, i) => p.keyBytes.slice(i * 24, i * 24 + 24));

/** A body as plain data (payload as hex, headers as a plain object), for equality. */
const plainBody = (m: BodyRec) => ({
  id: m.id,
  topic: m.topic,
  payload: hex(m.payload),
  headers: { ...m.headers },
  key: m.key,
  enqueuedAtMs: m.enqueuedAtMs,
  dueAtMs: m.dueAtMs,
  expireAtMs: m.expireAtMs,
  deadLetter: m.deadLetter,
  indexImplied: m.indexImplied,
  orderingKey: m.orderingKey,
  deliverBeforeMs: m.deliverBeforeMs,
});

/** What protobufjs reads from a body (the decoding decodeBody must match). */
function referenceBody(bytes: Uint8Array): BodyRec {
  const m = v1.StoredMessage.decode(bytes);
  const n = (v: unknown) => Number(String(v));
  const d = m.deadLetter;
  return {
    id: BigInt(String(m.id)),
    topic: m.topic,
    payload: m.payload,
    headers: m.headers,
    key: m.key,
    enqueuedAtMs: n(m.enqueuedAtMs),
    dueAtMs: n(m.dueAtMs),
    expireAtMs: n(m.expireAtMs),
    deadLetter: d
      ? {
          sourceTopic: d.sourceTopic ?? '',
          sourceGroup: d.sourceGroup ?? '',
          sourceId: BigInt(String(d.sourceId)),
          sourceKey: d.sourceKey ?? '',
          reason: d.reason === 'expired' || d.reason === 'deadline_exceeded' ? d.reason : 'max_attempts',
          attempts: d.attempts ?? 0,
          deliveredAtMs: (d.deliveredAtMs ?? []).map(n),
          deadLetteredAtMs: n(d.deadLetteredAtMs),
          lastError: d.lastError ?? '',
        }
      : undefined,
    indexImplied: m.indexImplied ? true : undefined,
    orderingKey: m.orderingKey,
    deliverBeforeMs: n(m.deliverBeforeMs),
  };
}

function generators(seed: number) {
  const r = rng(seed);
  const int = (max: number) => Math.floor(r() * max);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  // Zero (left out), small, millisecond times, and the largest safe integer.
  const num = () =>
    pick([0, 1, 127, 128, 16_383, 16_384, 1_700_000_000_000 + int(1e9), Number.MAX_SAFE_INTEGER]);
  const id = () => pick([0n, 1n, 300n, BigInt(int(2 ** 40)), 2n ** 63n + 5n, 2n ** 64n - 1n]);
  const str = () => pick(['', 'default', 'orders', 'é-ü-中文-🙂', 'x'.repeat(200)]);
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => int(256));
  const body = (): BodyRec => ({
    id: id(),
    topic: str(),
    payload: bytes(pick([0, 1, 256, 70_000])),
    headers: Object.fromEntries(Array.from({ length: int(4) }, (_, k) => [`${str()}${k}`, str()])),
    key: str(),
    enqueuedAtMs: num(),
    dueAtMs: num(),
    expireAtMs: num(),
    orderingKey: str(),
    deliverBeforeMs: num(),
    ...(r() < 0.5 ? { indexImplied: true } : {}),
    ...(r() < 0.3
      ? {
          deadLetter: {
            sourceTopic: str(),
            sourceGroup: str(),
            sourceId: id(),
            sourceKey: str(),
            reason: pick(['max_attempts', 'expired', 'deadline_exceeded'] as const),
            attempts: pick([0, 3]),
            deliveredAtMs: Array.from({ length: int(3) }, num),
            deadLetteredAtMs: num(),
            lastError: str(),
          },
        }
      : {}),
  });
  return {
    lease: (): LeaseRun => {
      const queueHash = pick([0n, 7n, 2n ** 64n - 1n, BigInt(int(2 ** 50))]);
      const n = int(20);
      const keyBytes = new Uint8Array(n * 24);
      for (let i = 0; i < n; i++) {
        keyBytes.set(encodeKey(queueHash, BigInt(pick([0, 5, 1_700_000_000_000 + int(1e9)])), id()), i * 24);
      }
      const bitmap = () => {
        const bits = new Uint8Array((n + 7) >> 3);
        for (let i = 0; i < n; i++) if (r() < 0.4) bits[i >> 3]! |= 1 << (i & 7);
        return bits;
      };
      const settled = bitmap();
      let open = n;
      for (let i = 0; i < n; i++) if ((settled[i >> 3]! & (1 << (i & 7))) !== 0) open--;
      const extendedEndMs = new Map<number, number>();
      for (let i = 0; i < n; i++) if (r() < 0.2) extendedEndMs.set(i, num());
      return {
        leaseId: id(),
        topic: str(),
        group: str(),
        queueHash,
        consumer: id(),
        nowMs: num(),
        leaseMs: pick([0, 1, 30_000]),
        length: n,
        keyBytes,
        startOffsets: Array.from({ length: n }, () => pick([0, 1, 2_000, 10_000])),
        sideRecords: bitmap(),
        settled,
        extendedEndMs,
        open,
      };
    },
    publish: (): PublishRec => {
      const firstId = pick([1n, 300n, BigInt(int(2 ** 40)) + 1n, 2n ** 52n - 3n, 2n ** 63n]);
      const queues = Array.from({ length: 1 + int(3) }, () =>
        pick([0n, 1n, 2n ** 64n - 1n, BigInt(int(2 ** 50))]),
      );
      const keys: Uint8Array[] = [];
      let next = firstId;
      for (let n = 1 + int(6); n > 0; n--) {
        // 2^64-1: a waiting key's (an ordered message published behind its key's front).
        const due = pick([
          0n,
          5n,
          BigInt(1_700_000_000_000 + int(1e9)),
          2n ** 52n - 1n,
          2n ** 52n,
          2n ** 64n - 1n,
        ]);
        keys.push(encodeKey(pick(queues), due, next));
        next += 1n + BigInt(int(3));
      }
      const keyBytes = new Uint8Array(keys.length * 24);
      keys.forEach((k, i) => {
        keyBytes.set(k, i * 24);
      });
      return { firstId, keyBytes, latestDueMs: num() };
    },
    entry: (): QueueEntryRec => {
      const e = {
        id: id(),
        topic: str(),
        group: str(),
        dueAtMs: num(),
        attempt: pick([0, 1, 5, 300]),
        inFlight: r() < 0.5,
        deliveredAtMs: Array.from({ length: int(4) }, num),
        expireAtMs: num(),
        leaseEndMs: num(),
        indexUnwritten: r() < 0.5,
        leaseSerial: pick([0, 1, 300, 2 ** 32 - 1]),
        leaseConsumer: id(),
        lastError: str(),
        indexImplied: r() < 0.5,
        orderingKey: str(),
        deliverBeforeMs: num(),
        ordered: r() < 0.5,
      };
      // Half carry their body: with the entry's id, topic and expiry, and no index_implied of its own.
      const b = r() < 0.5 ? body() : undefined;
      return {
        ...e,
        body: b && {
          ...b,
          id: e.id,
          topic: e.topic,
          expireAtMs: e.expireAtMs,
          orderingKey: e.orderingKey,
          deliverBeforeMs: e.deliverBeforeMs,
          deadLetter: b.deadLetter,
          indexImplied: undefined,
        },
      };
    },
    index: (): MessageIndexRec => ({
      topic: str(),
      key: str(),
      expireAtMs: num(),
      groups: Array.from({ length: int(4) }, () => ({
        group: str(),
        tag: bytes(pick([0, 24])),
        outcome: pick(OUTCOMES),
      })),
      done: r() < 0.5,
      endedAtMs: num(),
    }),
    body,
  };
}

describe('record codecs (wire.ts) against protobufjs', () => {
  it('write the bytes protobufjs writes, and read back what they wrote (2,000 random records of each kind)', () => {
    for (let seed = 1; seed <= 2_000; seed++) {
      const g = generators(seed);
      const e = g.entry();
      expect(hex(encodeEntry(e)), `entry, seed ${seed}`).toBe(hex(reference.entry(e)));
      expect(plainEntry(decodeEntry(encodeEntry(e)))).toEqual(plainEntry(e));
      // Encoded for the cache: the same bytes, carrying what decoding them gives.
      const owned = encodeEntry(e, true);
      expect(hex(owned), `entry, seed ${seed}`).toBe(hex(encodeEntry(e)));
      expect(owned.byteLength).toBe(owned.buffer.byteLength);
      expect(plainEntry(decodedEntry(owned))).toEqual(plainEntry(decodeEntry(owned)));
      const x = g.index();
      expect(hex(encodeIndex(x)), `index, seed ${seed}`).toBe(hex(reference.index(x)));
      expect(decodeIndex(encodeIndex(x))).toEqual(x);
      // An encoded index is never taken for a moved-entry index (whose first byte is 0x00).
      expect(movedIndexTag(encodeIndex(x)), `index, seed ${seed}`).toBeUndefined();
      const tag = Uint8Array.from({ length: 24 }, (_, i) => (seed * 31 + i * 7) & 0xff);
      expect(hex(encodeMovedIndex(tag))).toBe(`00${hex(tag)}`);
      expect(hex(movedIndexTag(encodeMovedIndex(tag))!)).toBe(hex(tag));
      const b = g.body();
      expect(hex(encodeBody(b)), `body, seed ${seed}`).toBe(hex(reference.body(b)));
      expect(plainBody(decodeBody(encodeBody(b)))).toEqual(plainBody(b));
      expect(plainBody(decodeBody(reference.body(b))), `body, seed ${seed}`).toEqual(
        plainBody(referenceBody(reference.body(b))),
      );
      const l = g.lease();
      expect(hex(encodeLease(l)), `lease record, seed ${seed}`).toBe(hex(reference.lease(l)));
      expect(hex(encodeLeaseSettles(l)), `lease settles, seed ${seed}`).toBe(hex(reference.leaseSettles(l)));
      const leaseBack = decodeLease(l.leaseId, encodeLease(l), encodeLeaseSettles(l));
      const plainRun = (x: LeaseRun) => ({ ...x, keyBytes: hex(x.keyBytes) });
      expect(plainRun(leaseBack)).toEqual(plainRun(l));
      // Without a settles record: nothing settled or extended.
      const fresh = decodeLease(l.leaseId, encodeLease(l));
      expect(plainRun(fresh)).toEqual(
        plainRun({
          ...l,
          settled: new Uint8Array(l.settled.length),
          extendedEndMs: new Map(),
          open: l.length,
        }),
      );
      const p = g.publish();
      expect(hex(encodePublish(p)), `publish record, seed ${seed}`).toBe(hex(reference.publish(p)));
      const back = decodePublish(p.firstId, encodePublish(p));
      expect({ ...back, keyBytes: hex(back.keyBytes) }).toEqual({ ...p, keyBytes: hex(p.keyBytes) });
      // What protobufjs wrote reads back the same.
      expect(hex(decodePublish(p.firstId, reference.publish(p)).keyBytes)).toBe(hex(p.keyBytes));
      for (const key of keysOf(p)) expect(hex(publishedKey(back, decodeKey(key).id)!)).toBe(hex(key));
      expect(publishedKey(back, p.firstId - 1n)).toBeUndefined();
    }
  });

  it('read records written before lease_consumer and last_error existed: 0 and empty', () => {
    // What the previous version wrote: a leased entry and a dead letter, without the new fields.
    const entry = v1.QueueEntry.encode({
      id: toUint64(7n),
      topic: 't',
      group: 'default',
      dueAtMs: toInt64(1_000n),
      attempt: 1,
      inFlight: true,
      deliveredAtMs: [toInt64(1_000n)],
      leaseEndMs: toInt64(31_000n),
      leaseSerial: 1,
    }).finish();
    expect(decodeEntry(entry)).toMatchObject({
      id: 7n,
      attempt: 1,
      leaseSerial: 1,
      leaseConsumer: 0n,
      lastError: '',
    });
    const body = v1.StoredMessage.encode({
      id: toUint64(9n),
      topic: 't.dlq',
      deadLetter: {
        sourceTopic: 't',
        sourceGroup: 'default',
        sourceId: toUint64(7n),
        reason: 'max_attempts',
        attempts: 3,
      },
    }).finish();
    expect(decodeBody(body).deadLetter).toMatchObject({ sourceId: 7n, attempts: 3, lastError: '' });
  });

  it('read records written before delivery controls existed unchanged: no controls, and the same bytes back', () => {
    // What the previous version wrote: a topic with two groups, a message body, an entry carrying one.
    const topic = v1.TopicRecord.encode({
      name: 't',
      settings: {
        maxAttempts: 5,
        defaultLeaseMs: toInt64(30_000n),
        expiryAction: v1.ExpiryAction.EXPIRY_ACTION_DROP,
        dedupWindowMs: toInt64(300_000n),
      },
      groups: ['default', 'audit'],
      createdAtMs: toInt64(1_000n),
    }).finish();
    const t = decodeTopic(topic);
    expect(t.settings).toMatchObject({
      maxAttempts: 5,
      ordering: 'none',
      orderingKeyFromKey: false,
      maxLatenessMs: 0,
      deadlineAction: 'dead-letter',
      paused: false,
    });
    expect(t.groupSettings).toBeUndefined();
    expect(effectiveGroupSettings(t, 'audit')).toEqual({
      maxDeliveriesPerSecond: 0,
      burst: 0,
      maxInFlight: 0,
      ordering: 'none',
      paused: false,
    });
    expect(hex(encodeTopic(t))).toBe(hex(topic));

    const body = v1.StoredMessage.encode({
      id: toUint64(9n),
      topic: 't',
      payload: Uint8Array.of(1, 2, 3),
      key: 'k',
      enqueuedAtMs: toInt64(1_000n),
      dueAtMs: toInt64(2_000n),
    }).finish();
    expect(decodeBody(body)).toMatchObject({ key: 'k', orderingKey: '', deliverBeforeMs: 0 });
    expect(hex(encodeBody(decodeBody(body)))).toBe(hex(body));

    const entry = v1.QueueEntry.encode({
      id: toUint64(9n),
      topic: 't',
      group: 'default',
      dueAtMs: toInt64(2_000n),
      indexImplied: true,
      indexUnwritten: true,
      body: { payload: Uint8Array.of(1, 2, 3), enqueuedAtMs: toInt64(1_000n), dueAtMs: toInt64(2_000n) },
    }).finish();
    const e = decodeEntry(entry);
    expect(e.body).toMatchObject({ orderingKey: '', deliverBeforeMs: 0 });
    expect(hex(encodeEntry(e))).toBe(hex(entry));
  });

  it('read a header named __proto__ as a header, as protobufjs does', () => {
    const headers = JSON.parse('{"__proto__":"x","a":"b"}') as Record<string, string>;
    const b: BodyRec = { ...generators(5).body(), headers, deadLetter: undefined };
    const bytes = encodeBody(b);
    expect(hex(bytes)).toBe(hex(reference.body(b)));
    const read = decodeBody(bytes);
    expect(Object.keys(read.headers).sort()).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(read.headers)).toBe(Object.prototype);
    expect(Object.keys(referenceBody(bytes).headers).sort()).toEqual(['__proto__', 'a']);
    expect(hex(encodeBody(read))).toBe(hex(bytes));
  });

  it('encodings are copies: a later encoding does not change an earlier one', () => {
    const first = generators(7).entry();
    const a = encodeEntry(first);
    const before = hex(a);
    for (let i = 0; i < 5_000; i++) encodeEntry(generators(i).entry());
    expect(hex(a)).toBe(before);
    expect(plainEntry(decodeEntry(a))).toEqual(plainEntry(first));
  });

  it('skip unknown fields of every wire type and read unpacked repeated times', () => {
    const w = new WireWriter();
    w.tag(1, 0).varint(42); // id
    w.tag(15, 0).varint(7); // unknown varint
    w.tag(7, 0).varint(1_000); // an unpacked delivered_at_ms
    w.tag(16, 1).raw(new Uint8Array(8)); // unknown fixed64
    w.tag(17, 2).bytes(Uint8Array.of(1, 2, 3)); // unknown length-delimited
    w.tag(7, 0).varint(2_000);
    w.tag(18, 5).raw(new Uint8Array(4)); // unknown fixed32
    w.tag(2, 2).string('t');
    w.tag(4, 0).varint(-5); // a negative int64: ten bytes
    const e = decodeEntry(w.finish());
    expect(e).toMatchObject({ id: 42n, topic: 't', deliveredAtMs: [1_000, 2_000], dueAtMs: -5 });
    expect(v1.QueueEntry.decode(w.finish()).dueAtMs.toString()).toBe('-5');
    // A body: unknown fields, a header entry with an unknown field and its value first, a field repeated.
    const b = new WireWriter();
    b.tag(2, 2).string('first');
    b.tag(15, 0).varint(7);
    const entry = new WireWriter()
      .tag(2, 2)
      .string('v')
      .tag(9, 0)
      .varint(1)
      .tag(1, 2)
      .string('h')
      .finish()
      .slice();
    b.tag(4, 2).bytes(entry);
    b.tag(16, 1).raw(new Uint8Array(8));
    b.tag(2, 2).string('t');
    b.tag(7, 0).varint(-5);
    const body = decodeBody(b.finish());
    expect(body).toMatchObject({ topic: 't', headers: { h: 'v' }, dueAtMs: -5, payload: new Uint8Array(0) });
    expect(body).toEqual({ ...referenceBody(b.finish()), payload: body.payload });
  });

  it('refuse a negative length instead of reading backwards, and skip unknown varints of any size', () => {
    const negative = Uint8Array.of(0xf5, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
    expect(() => decodeIndex(Uint8Array.of(0x22, ...negative))).toThrow(/negative length/);
    expect(() => decodeEntry(Uint8Array.of(0x7a, ...negative))).toThrow(/negative length/);
    const w = new WireWriter();
    w.tag(15, 0).varint64(2n ** 64n - 1n); // an unknown uint64 beyond 2^53
    w.tag(2, 2).string('t');
    expect(decodeEntry(w.finish()).topic).toBe('t');
    expect(() => decodeEntry(Uint8Array.of(0x78, ...new Array(11).fill(0x80)))).toThrow(/10 bytes/);
  });

  it('refuse truncated input and integers beyond 2^53', () => {
    const full = encodeEntry(generators(3).entry());
    expect(() => decodeEntry(Uint8Array.of(0x0a, 0x05, 0x61))).toThrow(RangeError);
    expect(() => new WireReader(Uint8Array.of(0x80)).varint()).toThrow(/truncated/);
    const big = new WireWriter().varint64(2n ** 60n).finish();
    expect(() => new WireReader(big).varint()).toThrow(/safe integer/);
    expect(new WireReader(big).varint64()).toBe(2n ** 60n);
    expect(() => new WireWriter().varint(2 ** 60)).toThrow(/safe integer/);
    expect(full.length).toBeGreaterThan(0);
  });
});
