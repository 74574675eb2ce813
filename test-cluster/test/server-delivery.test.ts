/**
 * Delivery semantics of real `fermata serve` processes, spoken to through raw
 * gRPC (`makeClient`), on a one-node and a three-node cluster: due times,
 * ack / nack / extend, lease expiry, dead letters, TTL, cancel and reschedule,
 * dedup, groups, prefetch and batch atomicity (docs/design.md, "Delivery").
 */

import { LEASE_ROUND_INTERVAL_MS } from '@fermata/broker';
import { type pb, v1 } from '@fermata/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type Cluster,
  type ConsumeSession,
  hex,
  i64,
  NODE_CLOCK_LAG_MS,
  type NodeClients,
  retryUnavailable,
  sleep,
  startCluster,
  u64,
} from '../src/index.js';
import {
  counts,
  eventually,
  idOf,
  leaderClients,
  ms,
  msg,
  publish,
  SETTLE_LEASE_EXPIRED,
  SETTLE_OK,
  text,
  uniqueTopic,
} from './support.js';

describe.each([1, 3] as const)('delivery on a %i-node cluster', (size) => {
  let cluster: Cluster;
  let c: NodeClients;
  const sessions: ConsumeSession[] = [];

  const consume = async (
    topic: string,
    opts: { group?: string; prefetch?: number; leaseMs?: number } = {},
  ) => {
    const s = await retryUnavailable(() =>
      c.consume({
        topic,
        group: opts.group ?? '',
        prefetch: opts.prefetch ?? 100,
        leaseMs: i64(opts.leaseMs ?? 10_000),
      }),
    );
    sessions.push(s);
    return s;
  };

  beforeAll(async () => {
    cluster = await startCluster({ nodes: size });
    c = await leaderClients(cluster);
  });
  afterEach((ctx) => {
    for (const s of sessions.splice(0)) s.cancel();
    if (ctx.task.result?.state === 'fail') console.error(cluster.logs(30));
  });
  afterAll(async () => {
    c?.close();
    await cluster?.stop();
  });

  it('delivers each message once, at or after its due time, with attempt 1', async () => {
    const topic = uniqueTopic('due');
    const s = await consume(topic);
    const delays = Array.from({ length: 20 }, (_, i) => (i * 97) % 1500);
    const published = await publish(
      c,
      delays.map((d, i) => msg(topic, `m${i}`, { delayMs: d })),
    );
    const dueById = new Map(published.results.map((r) => [idOf(r), ms(r.dueAtMs)]));
    const got = await s.waitForCount(20);
    await sleep(300);
    expect(s.received).toHaveLength(20);
    expect(new Set(got.map((g) => idOf(g.delivery)))).toEqual(new Set(dueById.keys()));
    for (const { delivery, receivedAtMs } of got) {
      const due = dueById.get(idOf(delivery))!;
      expect(ms(delivery.dueAtMs)).toBe(due);
      expect(delivery.attempt).toBe(1);
      // The server leased it no earlier than due (lease end = lease start + leaseMs) ...
      expect(ms(delivery.leaseExpiresAtMs) - 10_000).toBeGreaterThanOrEqual(due);
      // ... and it reached us no earlier than due (same machine, same clock).
      expect(receivedAtMs).toBeGreaterThanOrEqual(due);
    }
  });

  it('an ack removes the message; a second ack of the tag is answered lease expired', async () => {
    const topic = uniqueTopic('ack');
    const s = await consume(topic);
    await publish(c, [msg(topic, 'a'), msg(topic, 'b')]);
    const got = await s.waitForCount(2);
    expect(await counts(c, topic)).toEqual({ default: { pending: 0, inFlight: 2, deadLettered: 0 } });
    const tags = got.map((g) => g.delivery.tag);
    const r = await s.ack(tags);
    expect(r.outcomes.map((o) => o.status)).toEqual([SETTLE_OK, SETTLE_OK]);
    expect(await counts(c, topic)).toEqual({ default: { pending: 0, inFlight: 0, deadLettered: 0 } });
    const again = await c.ack({ tags: [tags[0]!] });
    expect(again.outcomes[0]?.status).toBe(SETTLE_LEASE_EXPIRED);
    await sleep(500);
    expect(s.received).toHaveLength(2);
  });

  it('acks sent at once share Raft entries, and each is answered for its own tags', async () => {
    const topic = uniqueTopic('ack-coalesce');
    const s = await consume(topic);
    await publish(
      c,
      Array.from({ length: 40 }, (_, i) => msg(topic, `m${i}`)),
    );
    const tags = (await s.waitForCount(40)).map((g) => g.delivery.tag);
    const before = await commitIndex(cluster);
    // 40 requests in one tick, the first tag acked twice: by its own request and with the second's.
    const answers = await Promise.all(
      tags.map((tag, i) => c.ack({ tags: i === 1 ? [tag, tags[0]!] : [tag] })),
    );
    const entries = (await commitIndex(cluster)) - before;
    answers.forEach((a, i) => {
      const own = a.outcomes[0]!;
      expect(hex(own.tag!)).toBe(hex(tags[i]!));
      expect(own.status).toBe(SETTLE_OK);
      expect(a.outcomes).toHaveLength(i === 1 ? 2 : 1);
    });
    // The first ack of tags[0] took effect; the one applied after it finds the entry gone.
    expect(answers[1]!.outcomes[1]?.status).toBe(SETTLE_LEASE_EXPIRED);
    expect(hex(answers[1]!.outcomes[1]!.tag!)).toBe(hex(tags[0]!));
    expect(await counts(c, topic)).toEqual({ default: { pending: 0, inFlight: 0, deadLettered: 0 } });
    // One entry per request would be 40; coalesced, the first goes alone and the rest share a few.
    expect(entries).toBeGreaterThan(0);
    expect(entries).toBeLessThan(20);
  });

  it('an unacked delivery comes back after its lease with attempt + 1; the lapsed tag no longer settles', async () => {
    const topic = uniqueTopic('lapse');
    const s = await consume(topic, { leaseMs: 400, prefetch: 1 });
    await publish(c, [msg(topic, 'x')]);
    const [first] = await s.waitForCount(1);
    const [, second] = await s.waitForCount(2, 20_000);
    expect(idOf(second!.delivery)).toBe(idOf(first!.delivery));
    expect(second!.delivery.attempt).toBe(2);
    expect(second!.receivedAtMs).toBeGreaterThanOrEqual(ms(first!.delivery.leaseExpiresAtMs));
    const stale = await c.ack({ tags: [first!.delivery.tag] });
    expect(stale.outcomes[0]?.status).toBe(SETTLE_LEASE_EXPIRED);
    const ok = await c.ack({ tags: [second!.delivery.tag] });
    expect(ok.outcomes[0]?.status).toBe(SETTLE_OK);
  });

  it('a nack with a delay makes the message due again no earlier than now + delay, attempt kept counting', async () => {
    const topic = uniqueTopic('nack');
    const s = await consume(topic);
    await publish(c, [msg(topic, 'n')]);
    const [first] = await s.waitForCount(1);
    const before = Date.now();
    const r = await s.nack(first!.delivery.tag, 700);
    expect(r.outcomes[0]?.status).toBe(SETTLE_OK);
    const dueAgain = ms(r.outcomes[0]!.dueAtMs);
    expect(dueAgain).toBeGreaterThanOrEqual(before + 700 - 50);
    const [, second] = await s.waitForCount(2);
    expect(second!.delivery.attempt).toBe(2);
    expect(ms(second!.delivery.dueAtMs)).toBe(dueAgain);
    expect(second!.receivedAtMs).toBeGreaterThanOrEqual(dueAgain);
    // The unary Nack refuses a tag whose lease is gone.
    const stale = await c.nack({ tag: first!.delivery.tag, delayMs: i64(0) });
    expect(stale.outcome?.status).toBe(SETTLE_LEASE_EXPIRED);
    await s.ack([second!.delivery.tag]);
  });

  it('extend moves the end of the lease and keeps its tag: no redelivery while it runs, then the tag acks', async () => {
    const topic = uniqueTopic('extend');
    const s = await consume(topic, { leaseMs: 1_500 });
    await publish(c, [msg(topic, 'e')]);
    const [first] = await s.waitForCount(1);
    const r = await c.extend({ tag: first!.delivery.tag, leaseMs: i64(6_000) });
    expect(r.outcome?.status).toBe(SETTLE_OK);
    const newTag = r.outcome!.newTag as Uint8Array;
    expect(hex(newTag)).toBe(hex(first!.delivery.tag));
    expect(ms(r.outcome!.dueAtMs)).toBeGreaterThan(ms(first!.delivery.leaseExpiresAtMs));
    // Past the first lease's end: no redelivery, the extended lease still runs.
    await sleep(Math.max(0, ms(first!.delivery.leaseExpiresAtMs) - Date.now()) + 500);
    expect(s.received).toHaveLength(1);
    expect((await s.ack([newTag])).outcomes[0]?.status).toBe(SETTLE_OK);
    // Settled: the tag names nothing any more.
    expect((await c.ack({ tags: [first!.delivery.tag] })).outcomes[0]?.status).toBe(SETTLE_LEASE_EXPIRED);
    expect(await counts(c, topic)).toEqual({ default: { pending: 0, inFlight: 0, deadLettered: 0 } });
  });

  it('past maxAttempts the message moves to the dead-letter topic instead of being delivered again', async () => {
    const topic = uniqueTopic('dlq');
    await retryUnavailable(() => c.createTopic({ name: topic, settings: { maxAttempts: 2 } }));
    const s = await consume(topic, { leaseMs: 300 });
    await publish(c, [msg(topic, 'poison', { headers: { h: 'v' } })]);
    const dead = await consume(`${topic}.dlq`);
    const [d] = await dead.waitForCount(1, 20_000);
    expect(text(d!.delivery.payload)).toBe('poison');
    // Its own headers, and why it is a dead letter (no handler said why: no last error).
    expect(d!.delivery.headers).toEqual({
      h: 'v',
      'fermata-dead-letter-reason': 'max_attempts',
      'fermata-dead-letter-source-topic': topic,
      'fermata-dead-letter-source-group': 'default',
      'fermata-dead-letter-source-id': String(d!.delivery.headers['fermata-dead-letter-source-id']),
      'fermata-dead-letter-attempts': '2',
    });
    expect(d!.delivery.topic).toBe(`${topic}.dlq`);
    expect(s.received.map((g) => g.delivery.attempt)).toEqual([1, 2]);
    await sleep(500);
    expect(s.received).toHaveLength(2);
    expect(await counts(c, topic)).toEqual({ default: { pending: 0, inFlight: 0, deadLettered: 1 } });
  });

  it('a message not acked by its TTL is removed, or dead-lettered when the topic says so', async () => {
    const dropTopic = uniqueTopic('ttl-drop');
    const dlTopic = uniqueTopic('ttl-dl');
    await retryUnavailable(() =>
      c.createTopic({ name: dlTopic, settings: { expiryAction: v1.ExpiryAction.EXPIRY_ACTION_DEAD_LETTER } }),
    );
    const s = await consume(dropTopic, { leaseMs: 5_000 });
    await publish(c, [
      msg(dropTopic, 'later', { delayMs: 60_000, ttlMs: 300 }),
      msg(dropTopic, 'inflight', { ttlMs: 2_000 }),
      msg(dlTopic, 'to-dlq', { delayMs: 60_000, ttlMs: 300 }),
    ]);
    const [inflight] = await s.waitForCount(1);
    expect(text(inflight!.delivery.payload)).toBe('inflight');
    await eventually(
      async () => (await counts(c, dropTopic))?.['default']?.pending === 0,
      20_000,
      'the pending message to expire',
    );
    await eventually(
      async () => (await counts(c, dropTopic))?.['default']?.inFlight === 0,
      20_000,
      'the in-flight message to expire',
    );
    // An expired message's tag no longer settles.
    expect((await s.ack([inflight!.delivery.tag])).outcomes[0]?.status).toBe(SETTLE_LEASE_EXPIRED);
    const dead = await consume(`${dlTopic}.dlq`);
    const [d] = await dead.waitForCount(1, 20_000);
    expect(text(d!.delivery.payload)).toBe('to-dlq');
    expect(await counts(c, dlTopic)).toEqual({ default: { pending: 0, inFlight: 0, deadLettered: 1 } });
    expect(s.received).toHaveLength(1);
  });

  it('cancel gives a definite result in every state', async () => {
    const topic = uniqueTopic('cancel');
    const C = v1.CancelStatus;
    const s = await consume(topic, { leaseMs: 3_000 });
    const [pending, inFlight, acked] = (
      await publish(c, [
        msg(topic, 'pending', { delayMs: 60_000, key: 'k-pending' }),
        msg(topic, 'inflight', { key: 'k-inflight' }),
        msg(topic, 'acked', { key: 'k-acked' }),
      ])
    ).results;
    const got = await s.waitForCount(2);
    const byPayload = new Map(got.map((g) => [text(g.delivery.payload), g.delivery]));
    await s.ack([byPayload.get('acked')!.tag]);

    expect((await c.cancel({ topic, id: pending!.id })).status).toBe(C.CANCEL_STATUS_CANCELLED);
    expect((await c.cancel({ topic, key: 'k-pending' })).status).toBe(C.CANCEL_STATUS_ALREADY_DONE);
    expect((await c.cancel({ topic, id: inFlight!.id })).status).toBe(C.CANCEL_STATUS_IN_FLIGHT);
    expect((await c.cancel({ topic, key: 'k-acked' })).status).toBe(C.CANCEL_STATUS_ALREADY_DONE);
    expect((await c.cancel({ topic, id: acked!.id })).status).toBe(C.CANCEL_STATUS_ALREADY_DONE);
    expect((await c.cancel({ topic, key: 'no-such-key' })).status).toBe(C.CANCEL_STATUS_NOT_FOUND);
    expect((await c.cancel({ topic, id: i64(999_999_999) })).status).toBe(C.CANCEL_STATUS_NOT_FOUND);
    // In flight changed nothing: the delivery still acks.
    const counted = await counts(c, topic);
    expect(counted?.['default']).toMatchObject({ pending: 0, inFlight: 1 });

    // After its lease lapses (before it is delivered again: stop the consumer) it is cancellable.
    s.cancel();
    const lastLease = s.received.filter((g) => text(g.delivery.payload) === 'inflight').at(-1)!;
    await sleep(Math.max(0, ms(lastLease.delivery.leaseExpiresAtMs) - Date.now()) + 100);
    expect((await c.cancel({ topic, key: 'k-inflight' })).status).toBe(C.CANCEL_STATUS_CANCELLED);
    expect(await counts(c, topic)).toEqual({ default: { pending: 0, inFlight: 0, deadLettered: 0 } });

    // A message without a key leaves no tombstone: once acked it is not found.
    const s2 = await consume(topic);
    const [plain] = (await publish(c, [msg(topic, 'plain')])).results;
    const [pg] = await s2.waitForCount(1);
    await s2.ack([pg!.delivery.tag]);
    expect((await c.cancel({ topic, id: plain!.id })).status).toBe(C.CANCEL_STATUS_NOT_FOUND);
    await sleep(300);
    expect(s2.received).toHaveLength(1);
  });

  it('reschedule gives a definite result in every state and moves the due time', async () => {
    const topic = uniqueTopic('resched');
    const R = v1.RescheduleStatus;
    const [far, soon] = (
      await publish(c, [
        msg(topic, 'far', { delayMs: 60_000, key: 'k-far' }),
        msg(topic, 'soon', { delayMs: 60_000, key: 'k-soon' }),
      ])
    ).results;
    const before = Date.now();
    const r = await c.reschedule({ topic, key: 'k-soon', delayMs: i64(800) });
    expect(r.status).toBe(R.RESCHEDULE_STATUS_RESCHEDULED);
    const newDue = ms(r.dueAtMs);
    expect(newDue).toBeGreaterThanOrEqual(before + 800 - 50);
    expect(idOf(r)).toBe(idOf(soon!));
    const s = await consume(topic, { leaseMs: 5_000 });
    const [got] = await s.waitForCount(1);
    expect(text(got!.delivery.payload)).toBe('soon');
    expect(got!.receivedAtMs).toBeGreaterThanOrEqual(newDue);
    expect(ms(got!.delivery.dueAtMs)).toBe(newDue);

    expect((await c.reschedule({ topic, id: soon!.id, delayMs: i64(0) })).status).toBe(
      R.RESCHEDULE_STATUS_IN_FLIGHT,
    );
    await s.ack([got!.delivery.tag]);
    expect((await c.reschedule({ topic, key: 'k-soon', delayMs: i64(0) })).status).toBe(
      R.RESCHEDULE_STATUS_ALREADY_DONE,
    );
    expect((await c.reschedule({ topic, key: 'nope', delayMs: i64(0) })).status).toBe(
      R.RESCHEDULE_STATUS_NOT_FOUND,
    );
    // An absolute due time works too, and the message stays put until then.
    const at = Date.now() + 1_500;
    const abs = await c.reschedule({ topic, id: far!.id, deliverAtMs: i64(at) });
    expect(abs.status).toBe(R.RESCHEDULE_STATUS_RESCHEDULED);
    expect(ms(abs.dueAtMs)).toBe(at);
    const [, second] = await s.waitForCount(2);
    expect(text(second!.delivery.payload)).toBe('far');
    expect(second!.receivedAtMs).toBeGreaterThanOrEqual(at);
  });

  it('a publish whose key is live returns the existing id and stores nothing', async () => {
    const topic = uniqueTopic('dedup');
    const first = await publish(c, [msg(topic, 'one', { key: 'same', delayMs: 60_000 })]);
    const second = await publish(c, [msg(topic, 'two', { key: 'same', delayMs: 60_000 })]);
    expect(first.results[0]?.deduplicated).toBe(false);
    expect(second.results[0]?.deduplicated).toBe(true);
    expect(idOf(second.results[0]!)).toBe(idOf(first.results[0]!));
    // Within one batch too, and per topic.
    const other = uniqueTopic('dedup-other');
    const batch = await publish(c, [
      msg(topic, 'three', { key: 'fresh', delayMs: 60_000 }),
      msg(topic, 'four', { key: 'fresh', delayMs: 60_000 }),
      msg(other, 'five', { key: 'same', delayMs: 60_000 }),
    ]);
    expect(batch.results.map((x) => x.deduplicated)).toEqual([false, true, false]);
    expect(idOf(batch.results[1]!)).toBe(idOf(batch.results[0]!));
    expect(idOf(batch.results[2]!)).not.toBe(idOf(first.results[0]!));
    expect((await counts(c, topic))?.['default']?.pending).toBe(2);
    const m = await c.getMessage({ topic, key: 'same' });
    expect(text(m.message!.payload!)).toBe('one');
  });

  it('a key is reserved for the dedup window after its message ends, then free again', async () => {
    const topic = uniqueTopic('window');
    await retryUnavailable(() => c.createTopic({ name: topic, settings: { dedupWindowMs: i64(2_000) } }));
    const s = await consume(topic);
    const first = await publish(c, [msg(topic, 'one', { key: 'w' })]);
    const [d] = await s.waitForCount(1);
    await s.ack([d!.delivery.tag]);
    const during = await publish(c, [msg(topic, 'two', { key: 'w' })]);
    expect(during.results[0]?.deduplicated).toBe(true);
    expect(idOf(during.results[0]!)).toBe(idOf(first.results[0]!));
    expect((await c.cancel({ topic, key: 'w' })).status).toBe(v1.CancelStatus.CANCEL_STATUS_ALREADY_DONE);
    await sleep(2_200);
    const after = await publish(c, [msg(topic, 'three', { key: 'w' })]);
    expect(after.results[0]?.deduplicated).toBe(false);
    expect(idOf(after.results[0]!)).not.toBe(idOf(first.results[0]!));
    const [, again] = await s.waitForCount(2);
    expect(text(again!.delivery.payload)).toBe('three');
  });

  it('a topic with a time bucket still never delivers before the exact due time', async () => {
    const topic = uniqueTopic('bucket');
    await retryUnavailable(() => c.createTopic({ name: topic, settings: { timeBucketMs: i64(1_000) } }));
    const s = await consume(topic);
    const r = await publish(
      c,
      Array.from({ length: 10 }, (_, i) => msg(topic, `b${i}`, { delayMs: 150 * i })),
    );
    const due = new Map(r.results.map((x) => [idOf(x), ms(x.dueAtMs)]));
    const got = await s.waitForCount(10);
    for (const g of got) expect(g.receivedAtMs).toBeGreaterThanOrEqual(due.get(idOf(g.delivery))!);
  });

  it('each group gets every message; the consumers of a group share them', async () => {
    const topic = uniqueTopic('groups');
    await retryUnavailable(() => c.createTopic({ name: topic }));
    await c.createGroup({ topic, group: 'audit' });
    const a1 = await consume(topic, { prefetch: 5 });
    const a2 = await consume(topic, { prefetch: 5 });
    const b = await consume(topic, { group: 'audit', prefetch: 50 });
    const n = 40;
    const ids = (
      await publish(
        c,
        Array.from({ length: n }, (_, i) => msg(topic, `g${i}`)),
      )
    ).results.map(idOf);
    // Default-group consumers ack as they go so both keep taking turns.
    const ackLoop = (s: ConsumeSession) => {
      let acked = 0;
      const timer = setInterval(() => {
        const tags = s.received.slice(acked).map((g) => g.delivery.tag);
        acked += tags.length;
        if (tags.length > 0) void s.ack(tags).catch(() => undefined);
      }, 20);
      return () => clearInterval(timer);
    };
    const stop1 = ackLoop(a1);
    const stop2 = ackLoop(a2);
    try {
      await eventually(() => a1.received.length + a2.received.length >= n, 20_000, 'the default group');
      await b.waitForCount(n);
    } finally {
      stop1();
      stop2();
    }
    const ids1 = a1.received.map((g) => idOf(g.delivery));
    const ids2 = a2.received.map((g) => idOf(g.delivery));
    expect(ids1.length).toBeGreaterThan(0);
    expect(ids2.length).toBeGreaterThan(0);
    expect(ids1.filter((id) => ids2.includes(id))).toEqual([]);
    expect(new Set([...ids1, ...ids2])).toEqual(new Set(ids));
    expect(new Set(b.received.map((g) => idOf(g.delivery)))).toEqual(new Set(ids));
    expect(b.received.every((g) => g.delivery.group === 'audit')).toBe(true);
    expect(a1.maxUnacked).toBeLessThanOrEqual(5);
    expect(a2.maxUnacked).toBeLessThanOrEqual(5);
  });

  it('a consumer never holds more unacked deliveries than its prefetch; credit changes the window', async () => {
    const topic = uniqueTopic('prefetch');
    await publish(
      c,
      Array.from({ length: 30 }, (_, i) => msg(topic, `p${i}`)),
    );
    const s = await consume(topic, { prefetch: 3, leaseMs: 30_000 });
    await s.waitForCount(3);
    await sleep(700);
    expect(s.received).toHaveLength(3);
    s.credit(5);
    await s.waitForCount(5);
    await sleep(500);
    expect(s.received).toHaveLength(5);
    // Acking frees slots one for one; the window is never exceeded on the way.
    let acked = 0;
    while (acked < 30) {
      await s.waitForCount(acked + 1);
      const next = s.received[acked]!;
      acked++;
      expect(s.unacked.size).toBeLessThanOrEqual(5);
      await s.ack([next.delivery.tag]);
    }
    expect(s.maxUnacked).toBe(5);
    expect(new Set(s.received.map((g) => idOf(g.delivery))).size).toBe(30);
  });

  it('a consumer that goes away loses nothing: its leases run out and another consumer gets the messages', async () => {
    const topic = uniqueTopic('gone');
    const first = await consume(topic, { leaseMs: 600 });
    const ids = (await publish(c, [msg(topic, 'a'), msg(topic, 'b'), msg(topic, 'c')])).results.map(idOf);
    const got = await first.waitForCount(3);
    first.cancel();
    const leaseEnd = Math.max(...got.map((g) => ms(g.delivery.leaseExpiresAtMs)));
    const second = await consume(topic, { leaseMs: 10_000 });
    const again = await second.waitForCount(3);
    expect(new Set(again.map((g) => idOf(g.delivery)))).toEqual(new Set(ids));
    for (const g of again) {
      expect(g.delivery.attempt).toBe(2);
      expect(g.receivedAtMs).toBeGreaterThanOrEqual(leaseEnd - 600);
    }
    expect(again.every((g) => g.receivedAtMs >= ms(g.delivery.dueAtMs))).toBe(true);
    // A late ack from the first consumer never touches the second one's leases.
    const late = await c.ack({ tags: got.map((g) => g.delivery.tag) });
    expect(late.outcomes.map((o) => o.status)).toEqual([
      SETTLE_LEASE_EXPIRED,
      SETTLE_LEASE_EXPIRED,
      SETTLE_LEASE_EXPIRED,
    ]);
    const done = await second.ack(again.map((g) => g.delivery.tag));
    expect(done.outcomes.map((o) => o.status)).toEqual([SETTLE_OK, SETTLE_OK, SETTLE_OK]);
  });

  it('leases taken ahead are pushed at the due time; a consumer that leaves first hands them on, attempt uncounted', async () => {
    const topic = uniqueTopic('ahead');
    const first = await consume(topic, { leaseMs: 60_000 });
    const published = await publish(c, [
      msg(topic, 'a', { delayMs: 1_500 }),
      msg(topic, 'b', { delayMs: 1_500 }),
    ]);
    const due = Math.max(...published.results.map((r) => ms(r.dueAtMs)));
    // Within the look-ahead (2,000 ms by default) the leader leases them for `first` ...
    await sleep(1_250);
    expect(first.received).toHaveLength(0);
    first.cancel();
    const second = await consume(topic, { leaseMs: 10_000 });
    // ... which leaves before they are due: `second` gets them at their due time, not after the
    // 60 s lease, and as first deliveries.
    const got = await second.waitForCount(2, 10_000);
    for (const g of got) {
      expect(g.delivery.attempt).toBe(1);
      expect(g.receivedAtMs).toBeGreaterThanOrEqual(ms(g.delivery.dueAtMs));
      expect(g.receivedAtMs).toBeLessThan(due + 8_000);
    }
    const done = await second.ack(got.map((g) => g.delivery.tag));
    expect(done.outcomes.map((o) => o.status)).toEqual([SETTLE_OK, SETTLE_OK]);
  });

  it('an entry that comes due before where the last read of its queue started (publish, nack) is still found at once', async () => {
    const topic = uniqueTopic('cursor');
    const s = await consume(topic, { leaseMs: 60_000 });
    // Leased ahead (within the 2 s look-ahead): the queue's next read starts at its key.
    const [later] = (await publish(c, [msg(topic, 'later', { delayMs: 1_800 })])).results;
    await sleep(400);
    const [now] = (await publish(c, [msg(topic, 'now')])).results;
    const first = await s.waitForCount(1, 1_500);
    expect(text(first[0]!.delivery.payload)).toBe('now');
    expect(first[0]!.receivedAtMs).toBeLessThan(ms(later!.dueAtMs));
    // A nack to now puts it back before the cursor too.
    const nacked = await s.nack(first[0]!.delivery.tag, 0);
    expect(nacked.outcomes[0]?.status).toBe(SETTLE_OK);
    const again = await s.waitForCount(2, 1_500);
    expect(idOf(again[1]!.delivery)).toBe(idOf(now!));
    expect(again[1]!.delivery.attempt).toBe(2);
    const all = await s.waitForCount(3, 5_000);
    expect(text(all[2]!.delivery.payload)).toBe('later');
    expect(all[2]!.receivedAtMs).toBeGreaterThanOrEqual(ms(later!.dueAtMs));
  });

  it('a deliver_at_ms in the past means now; in the future it is the due time', async () => {
    const topic = uniqueTopic('deliver-at');
    const before = Date.now();
    const at = Date.now() + 1_500;
    const r = await publish(c, [
      { topic, payload: Buffer.from('past'), deliverAtMs: i64(before - 60_000) },
      { topic, payload: Buffer.from('future'), deliverAtMs: i64(at) },
    ]);
    expect(ms(r.results[0]!.dueAtMs)).toBeGreaterThanOrEqual(before - NODE_CLOCK_LAG_MS);
    expect(ms(r.results[1]!.dueAtMs)).toBe(at);
    const s = await consume(topic);
    const got = await s.waitForCount(2);
    const future = got.find((g) => text(g.delivery.payload) === 'future')!;
    expect(future.receivedAtMs).toBeGreaterThanOrEqual(at);
  });

  it("GetMessage and ListMessages show every group's state; ListMessages pages by due time", async () => {
    const topic = uniqueTopic('inspect');
    const S = v1.MessageState;
    await retryUnavailable(() => c.createTopic({ name: topic }));
    await c.createGroup({ topic, group: 'audit' });
    const s = await consume(topic, { leaseMs: 30_000 });
    const now = await publish(c, [msg(topic, 'now', { key: 'k-now', headers: { a: '1' } })]);
    const later = await publish(
      c,
      [1, 2, 3, 4, 5].map((i) => msg(topic, `later${i}`, { delayMs: 60_000 + i * 1000 })),
    );
    const [d] = await s.waitForCount(1);
    const view = await c.getMessage({ topic, key: 'k-now' });
    expect(idOf(view.message!)).toBe(idOf(now.results[0]!));
    expect(text(view.message!.payload!)).toBe('now');
    expect(view.message!.headers).toEqual({ a: '1' });
    const groups = Object.fromEntries(
      view.groups.map((g) => [g.group, { state: g.state, attempt: g.attempt }]),
    );
    expect(groups).toEqual({
      default: { state: S.MESSAGE_STATE_IN_FLIGHT, attempt: 1 },
      audit: { state: S.MESSAGE_STATE_PENDING, attempt: 0 },
    });
    const byId = await c.getMessage({ topic, id: later.results[2]!.id });
    expect(text(byId.message!.payload!)).toBe('later3');

    const page1 = await c.listMessages({ topic, group: 'audit', limit: 4 });
    expect(page1.messages.map((m) => text(m.message!.payload!))).toEqual([
      'now',
      'later1',
      'later2',
      'later3',
    ]);
    expect(page1.nextPageToken.length).toBeGreaterThan(0);
    const page2 = await c.listMessages({ topic, group: 'audit', limit: 4, pageToken: page1.nextPageToken });
    expect(page2.messages.map((m) => text(m.message!.payload!))).toEqual(['later4', 'later5']);
    expect(page2.nextPageToken.length).toBe(0);
    const window = await c.listMessages({
      topic,
      group: 'audit',
      fromDueMs: later.results[1]!.dueAtMs,
      toDueMs: later.results[3]!.dueAtMs,
    });
    expect(window.messages.map((m) => text(m.message!.payload!))).toEqual(['later2', 'later3']);
    const inFlight = await c.listMessages({ topic, limit: 1 });
    // In the default group the leased entry sorts by its lease end, and its tag is the delivery tag.
    expect(inFlight.messages[0]?.state).toBe(S.MESSAGE_STATE_IN_FLIGHT);
    expect(text(inFlight.messages[0]!.message!.payload!)).toBe('now');
    expect(hex(inFlight.messages[0]!.tag as Uint8Array)).toBe(hex(d!.delivery.tag));
    await s.ack([d!.delivery.tag]);
  });

  it('UpdateTopic, DeleteGroup and DeleteTopic change and remove what they name', async () => {
    const topic = uniqueTopic('admin');
    await retryUnavailable(() => c.createTopic({ name: topic, settings: { maxAttempts: 4 } }));
    await c.createGroup({ topic, group: 'g2' });
    await publish(c, [msg(topic, 'x', { delayMs: 60_000 }), msg(topic, 'y', { delayMs: 60_000 })]);
    const updated = await c.updateTopic({
      name: topic,
      settings: { maxAttempts: 7, defaultLeaseMs: i64(1234) },
      updateMask: ['max_attempts'],
    });
    expect(updated.topic?.settings?.maxAttempts).toBe(7);
    expect(Number(updated.topic?.settings?.defaultLeaseMs)).toBe(30_000);
    const listed = (await c.listTopics()).topics.find((t) => t.name === topic);
    expect(listed?.groups).toEqual(['default', 'g2']);
    const delGroup = await c.deleteGroup(topic, 'g2');
    expect(Number(delGroup.removedMessages)).toBe(2);
    // Deleted at once; its records go in purge steps, and until then stats show it being deleted.
    await eventually(
      async () => (await c.topicStats(topic)).deletions.length === 0,
      20_000,
      'the group purged',
    );
    expect(Object.keys((await counts(c, topic)) ?? {})).toEqual(['default']);
    const noDefault = await c.deleteGroup(topic, 'default').catch((e: { code: number }) => e);
    expect((noDefault as { code: number }).code).toBe(3);
    const delTopic = await c.deleteTopic(topic);
    expect(Number(delTopic.removedMessages)).toBe(2);
    await eventually(async () => (await counts(c, topic)) === undefined, 20_000, 'the topic purged');
  });

  it('PublishStream answers every pipelined batch, in order, and stores each', async () => {
    const topic = uniqueTopic('pstream');
    const n = 300;
    const call = c.broker.publishStream();
    const responses: pb.PublishStreamResponse[] = [];
    const done = new Promise<void>((resolve, reject) => {
      call.on('data', (r: pb.PublishStreamResponse) => responses.push(r));
      call.on('end', () => resolve());
      call.on('error', reject);
    });
    for (let i = 1; i <= n; i++) {
      call.write({ sequence: u64(i), messages: [msg(topic, `s${i}`, { delayMs: 600_000 })] });
    }
    call.end();
    await done;
    expect(responses.map((r) => Number(r.sequence))).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(responses.every((r) => !r.error && r.results.length === 1)).toBe(true);
    expect(new Set(responses.map((r) => idOf(r.results[0]!))).size).toBe(n);
    expect((await counts(c, topic))?.['default']?.pending).toBe(n);
  });

  it('a batch is atomic: a bad message refuses the whole batch, a good batch is stored whole', async () => {
    const topic = uniqueTopic('atomic');
    const other = uniqueTopic('atomic-other');
    await publish(c, [msg(topic, 'seed', { delayMs: 60_000 })]);
    const before = await counts(c, topic);
    const err = await c
      .publish({
        messages: [msg(topic, 'ok1'), msg(other, 'ok2', { key: 'k' }), msg(topic, 'bad', { delayMs: -1 })],
      })
      .catch((e: unknown) => e as { code: number; meta: Record<string, string> });
    expect(err).toMatchObject({ code: 3, meta: { 'fermata-field': 'messages[2].delay_ms' } });
    expect(await counts(c, topic)).toEqual(before);
    expect(await counts(c, other)).toBeUndefined();
    const good = await publish(
      c,
      Array.from({ length: 200 }, (_, i) => msg(i % 2 === 0 ? topic : other, `b${i}`, { delayMs: 60_000 })),
    );
    expect(good.results).toHaveLength(200);
    expect((await counts(c, topic))?.['default']?.pending).toBe(101);
    expect((await counts(c, other))?.['default']?.pending).toBe(100);
  });
});

describe('deliveries sent ahead of their due time (dispatcher.pushAheadMs)', () => {
  // Wide margins, so that a loaded machine does not make "sent ahead" late: leased as soon as
  // published (look-ahead 5 s > the delays), sent 3 s before the due time.
  const LEASE_AHEAD_MS = 5_000;
  const PUSH_AHEAD_MS = 3_000;
  const DELAY_MS = 4_000;
  let cluster: Cluster;
  let c: NodeClients;
  const sessions: ConsumeSession[] = [];
  const consume = async (topic: string, leaseMs: number) => {
    const s = await retryUnavailable(() =>
      c.consume({ topic, group: '', prefetch: 100, leaseMs: i64(leaseMs), holdsAhead: true }),
    );
    sessions.push(s);
    return s;
  };

  beforeAll(async () => {
    cluster = await startCluster({
      nodes: 1,
      env: {
        FERMATA_DISPATCHER__LEASE_AHEAD_MS: String(LEASE_AHEAD_MS),
        FERMATA_DISPATCHER__PUSH_AHEAD_MS: String(PUSH_AHEAD_MS),
      },
    });
    c = await leaderClients(cluster);
  });
  afterEach((ctx) => {
    for (const s of sessions.splice(0)) s.cancel();
    if (ctx.task.result?.state === 'fail') console.error(cluster.logs(30));
  });
  afterAll(async () => {
    c?.close();
    await cluster?.stop();
  });

  it('arrive before the due time carrying their start and the send time; held until the start, they ack', async () => {
    const topic = uniqueTopic('push-ahead');
    const s = await consume(topic, 10_000);
    const published = await publish(
      c,
      [0, 1, 2].map((i) => msg(topic, `m${i}`, { delayMs: DELAY_MS })),
    );
    const due = new Map(published.results.map((r) => [idOf(r), ms(r.dueAtMs)]));
    const got = await s.waitForCount(3);
    for (const g of got) {
      const dueAt = due.get(idOf(g.delivery))!;
      // The lease starts at the due time; the batch was sent before it (same host, same clock).
      expect(Number(g.delivery.startsAtMs)).toBe(dueAt);
      expect(g.arrivedAtMs).toBeLessThan(dueAt);
      expect(g.receivedAtMs).toBeGreaterThanOrEqual(dueAt);
      expect(g.delivery.attempt).toBe(1);
    }
    const done = await s.ack(got.map((g) => g.delivery.tag));
    expect(done.outcomes.map((o) => o.status)).toEqual([SETTLE_OK, SETTLE_OK, SETTLE_OK]);
  });

  it('at most a window of them is held ahead; once started they count against the window', async () => {
    const topic = uniqueTopic('push-ahead-window');
    const s = await retryUnavailable(() =>
      c.consume({ topic, group: '', prefetch: 2, leaseMs: i64(10_000), holdsAhead: true }),
    );
    sessions.push(s);
    const published = await publish(
      c,
      [0, 1, 2, 3].map((i) => msg(topic, `w${i}`, { delayMs: DELAY_MS })),
    );
    const due = Math.max(...published.results.map((r) => ms(r.dueAtMs)));
    await s.waitFor(() => s.unacked.size === 2, 10_000, 'two sent ahead');
    await sleep(Math.max(0, due - 1_500 - Date.now()));
    expect(Date.now()).toBeLessThan(due);
    expect(s.unacked.size).toBe(2);
    // Handed over at the due time, they fill the window: the other two wait for acks.
    const first = await s.waitForCount(2, 10_000);
    await sleep(300);
    expect(s.unacked.size).toBe(2);
    await s.ack(first.map((g) => g.delivery.tag));
    const all = await s.waitForCount(4, 10_000);
    for (const g of all) expect(g.receivedAtMs).toBeGreaterThanOrEqual(ms(g.delivery.dueAtMs));
  });

  it('a consumer that does not hold ahead gets them at the due time; one that leaves holding them keeps them leased', async () => {
    const topic = uniqueTopic('push-ahead-leave');
    // Without holds_ahead nothing is sent early.
    const plain = await retryUnavailable(() =>
      c.consume({ topic, group: '', prefetch: 100, leaseMs: i64(10_000) }),
    );
    sessions.push(plain);
    const [p] = (await publish(c, [msg(topic, 'plain', { delayMs: 1_500 })])).results;
    const [got] = await plain.waitForCount(1);
    expect(got!.arrivedAtMs).toBeGreaterThanOrEqual(ms(p!.dueAtMs));
    expect(Number(got!.delivery.startsAtMs)).toBe(0);
    await plain.ack([got!.delivery.tag]);
    plain.cancel();

    const first = await consume(topic, 3_000);
    const published = await publish(c, [
      msg(topic, 'a', { delayMs: DELAY_MS }),
      msg(topic, 'b', { delayMs: DELAY_MS }),
    ]);
    const due = Math.max(...published.results.map((r) => ms(r.dueAtMs)));
    // Sent to `first` a second before they are due; it leaves while holding them.
    await first.waitFor(() => first.unacked.size === 2, 10_000, 'two deliveries sent ahead');
    expect(Date.now()).toBeLessThan(due);
    first.cancel();
    // It might have handed them over at their start without yet knowing the stream ended, so they
    // stay its lease (3 s from the due time) and come back after it, as a second attempt.
    const second = await consume(topic, 10_000);
    const again = await second.waitForCount(2, 20_000);
    for (const g of again) {
      expect(g.delivery.attempt).toBe(2);
      expect(g.receivedAtMs).toBeGreaterThanOrEqual(ms(g.delivery.dueAtMs));
      expect(g.receivedAtMs).toBeGreaterThanOrEqual(due + 3_000);
    }
    const done = await second.ack(again.map((g) => g.delivery.tag));
    expect(done.outcomes.map((o) => o.status)).toEqual([SETTLE_OK, SETTLE_OK]);
    expect(first.received).toHaveLength(0);
  });

  it('entries published one by one within the look-ahead share paced lease rounds (LEASE_ROUND_INTERVAL_MS)', async () => {
    const topic = uniqueTopic('push-ahead-paced');
    const s = await consume(topic, 10_000);
    const n = 40;
    const before = await commitIndex(cluster);
    const started = Date.now();
    // Each publish is its own entry and makes the queue due within the look-ahead, but not urgent
    // (due beyond pushAheadMs): without pacing, each would start a lease round of one entry.
    for (let i = 0; i < n; i++) await publish(c, [msg(topic, `p${i}`, { delayMs: DELAY_MS })]);
    const publishingMs = Date.now() - started;
    await s.waitForCount(n, 10_000);
    const leaseEntries = (await commitIndex(cluster)) - before - n;
    // Rounds start at least an interval apart: one per interval while publishing, one after the
    // last publish, and one of margin (without pacing: one per publish, 40).
    expect(leaseEntries).toBeGreaterThan(0);
    expect(leaseEntries).toBeLessThanOrEqual(Math.floor(publishingMs / LEASE_ROUND_INTERVAL_MS) + 3);
    await s.ack(s.received.map((g) => g.delivery.tag));
  });
});

/** The leader's Raft commit index (entries committed so far). */
async function commitIndex(cluster: Cluster): Promise<number> {
  const leader = await cluster.leader();
  return Number(/^fermata_raft_commit_index (\S+)/m.exec((await leader.httpGet('/metrics')).body)?.[1]);
}
