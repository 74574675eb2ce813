/**
 * Bad input against real `fermata serve` processes over raw gRPC: each gets a
 * precise status (INVALID_ARGUMENT naming the field, RESOURCE_EXHAUSTED naming
 * the limit, FAILED_PRECONDITION with the leader's address on a follower) and
 * nothing of it is stored (docs/design.md, "Cluster and operations").
 */
import { type pb, v1 } from '@fermata/protocol';
import { status } from '@grpc/grpc-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type Cluster,
  type ConsumeSession,
  i64,
  NodeClients,
  retryUnavailable,
  startCluster,
} from '../src/index.js';
import { counts, expectStatus, failure, leaderClients, msg, publish, text, uniqueTopic } from './support.js';

const DAY_MS = 86_400_000;
const MIB = 1024 * 1024;
const MAX_CONSUMERS_PER_GROUP = 2;

interface BadCase {
  readonly name: string;
  readonly message: (topic: string) => pb.PublishMessage.$Properties;
  readonly code: number;
  readonly field: string;
  readonly limit?: string;
}

/** The bad message sits second in its batch, after a good one for the same topic. */
const BAD_MESSAGES: readonly BadCase[] = [
  {
    name: 'an empty topic name',
    message: () => msg('', 'x'),
    code: status.INVALID_ARGUMENT,
    field: 'messages[1].topic',
  },
  {
    name: 'an illegal topic name',
    message: () => msg('no spaces/or slashes!', 'x'),
    code: status.INVALID_ARGUMENT,
    field: 'messages[1].topic',
  },
  {
    name: 'a topic name past maxTopicNameBytes',
    message: () => msg('t'.repeat(201), 'x'),
    code: status.INVALID_ARGUMENT,
    field: 'messages[1].topic',
    limit: 'maxTopicNameBytes',
  },
  {
    name: 'a negative delay',
    message: (t) => msg(t, 'x', { delayMs: -5 }),
    code: status.INVALID_ARGUMENT,
    field: 'messages[1].delay_ms',
  },
  {
    name: 'a delay past maxDelayMs',
    message: (t) => msg(t, 'x', { delayMs: 731 * DAY_MS }),
    code: status.INVALID_ARGUMENT,
    field: 'messages[1].delay_ms',
    limit: 'maxDelayMs',
  },
  {
    name: 'a deliver_at_ms past maxDelayMs',
    message: (t) => ({ topic: t, payload: Buffer.from('x'), deliverAtMs: i64(Date.now() + 731 * DAY_MS) }),
    code: status.INVALID_ARGUMENT,
    field: 'messages[1].deliver_at_ms',
    limit: 'maxDelayMs',
  },
  {
    name: 'a negative ttl',
    message: (t) => msg(t, 'x', { ttlMs: -1 }),
    code: status.INVALID_ARGUMENT,
    field: 'messages[1].ttl_ms',
  },
  {
    name: 'a payload over 1 MiB',
    message: (t) => ({ topic: t, payload: Buffer.alloc(MIB + 1, 1) }),
    code: status.RESOURCE_EXHAUSTED,
    field: 'messages[1].payload',
    limit: 'maxPayloadBytes',
  },
  {
    name: 'headers over maxHeadersBytes',
    message: (t) => msg(t, 'x', { headers: { big: 'h'.repeat(17 * 1024) } }),
    code: status.RESOURCE_EXHAUSTED,
    field: 'messages[1].headers',
    limit: 'maxHeadersBytes',
  },
  {
    name: 'more headers than maxHeaderCount',
    message: (t) =>
      msg(t, 'x', { headers: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`h${i}`, 'v'])) }),
    code: status.RESOURCE_EXHAUSTED,
    field: 'messages[1].headers',
    limit: 'maxHeaderCount',
  },
  {
    name: 'a key past maxKeyBytes',
    message: (t) => msg(t, 'x', { key: 'k'.repeat(257) }),
    code: status.RESOURCE_EXHAUSTED,
    field: 'messages[1].key',
    limit: 'maxKeyBytes',
  },
  // Header names are HTTP tokens and values HTTP field values: forwarded over HTTP, they
  // would be taken verbatim (a CR LF in one starts a header of the sender's choosing).
  {
    name: 'a header name with CR LF',
    message: (t) => msg(t, 'x', { headers: { 'a\r\nx-injected': 'v' } }),
    code: status.INVALID_ARGUMENT,
    field: 'messages[1].headers',
  },
  {
    name: 'a header name with NUL',
    message: (t) => msg(t, 'x', { headers: { 'a\u0000b': 'v' } }),
    code: status.INVALID_ARGUMENT,
    field: 'messages[1].headers',
  },
  {
    name: 'a header name with a space',
    message: (t) => msg(t, 'x', { headers: { 'a b': 'v' } }),
    code: status.INVALID_ARGUMENT,
    field: 'messages[1].headers',
  },
  {
    name: 'a header value with LF',
    message: (t) => msg(t, 'x', { headers: { a: 'line\nx-injected: 1' } }),
    code: status.INVALID_ARGUMENT,
    field: 'messages[1].headers',
  },
  {
    name: 'a header value with NUL',
    message: (t) => msg(t, 'x', { headers: { a: 'v\u0000' } }),
    code: status.INVALID_ARGUMENT,
    field: 'messages[1].headers',
  },
  // The server's own headers (dead-letter markers, schedules) cannot be forged, in any case.
  {
    name: 'a header named fermata-*',
    message: (t) => msg(t, 'x', { headers: { 'Fermata-Dead-Letter-Reason': 'max_attempts' } }),
    code: status.INVALID_ARGUMENT,
    field: 'messages[1].headers',
  },
];

describe.each([1, 3] as const)('bad input on a %i-node cluster', (size) => {
  let cluster: Cluster;
  let c: NodeClients;
  const sessions: ConsumeSession[] = [];
  let topic: string;

  beforeAll(async () => {
    cluster = await startCluster({
      nodes: size,
      env: { FERMATA_LIMITS__MAX_CONSUMERS_PER_GROUP: String(MAX_CONSUMERS_PER_GROUP) },
    });
    c = await leaderClients(cluster);
    topic = uniqueTopic('bad');
    await publish(c, [msg(topic, 'seed', { delayMs: 600_000 }), msg(topic, 'seed2', { delayMs: 600_000 })]);
  });
  afterEach((ctx) => {
    for (const s of sessions.splice(0)) s.cancel();
    if (ctx.task.result?.state === 'fail') console.error(cluster.logs(30));
  });
  afterAll(async () => {
    c?.close();
    await cluster?.stop();
  });

  /** What must not change: the topic's counts and the set of topics. */
  const snapshot = async () => ({
    counts: await counts(c, topic),
    topics: (await c.listTopics()).topics.map((t) => t.name).sort(),
  });

  it.each(BAD_MESSAGES)(
    'a batch holding $name is refused with its status and stores nothing',
    async (bad) => {
      const before = await snapshot();
      await expectStatus(
        c.publish({ messages: [msg(topic, 'good'), bad.message(topic)] }),
        bad.code,
        bad.limit === undefined ? { field: bad.field } : { field: bad.field, limit: bad.limit },
      );
      expect(await snapshot()).toEqual(before);
    },
  );

  it('a batch of more than maxBatchMessages is RESOURCE_EXHAUSTED naming the limit; an empty one is INVALID_ARGUMENT', async () => {
    const before = await snapshot();
    await expectStatus(
      c.publish({ messages: Array.from({ length: 1001 }, () => msg(topic, 'x')) }),
      status.RESOURCE_EXHAUSTED,
      { limit: 'maxBatchMessages', field: 'messages' },
    );
    await expectStatus(c.publish({ messages: [] }), status.INVALID_ARGUMENT, { field: 'messages' });
    expect(await snapshot()).toEqual(before);
  });

  it('a request sent again with its idempotency key stores nothing and answers the first ids; another size is refused naming the field', async () => {
    const key = `retry-${uniqueTopic('k')}`;
    const request = {
      idempotencyKey: key,
      messages: [msg(topic, 'r1', { delayMs: 600_000 }), msg(topic, 'r2', { delayMs: 600_000 })],
    };
    const first = await c.publish(request);
    const mid = await snapshot();
    const again = await c.publish(request);
    expect(first.results.map((r) => r.deduplicated)).toEqual([false, false]);
    expect(again.results.map((r) => [String(r.id), String(r.dueAtMs), r.deduplicated])).toEqual(
      first.results.map((r) => [String(r.id), String(r.dueAtMs), true]),
    );
    await expectStatus(
      c.publish({ idempotencyKey: key, messages: [msg(topic, 'r3')] }),
      status.INVALID_ARGUMENT,
      { field: 'idempotency_key' },
    );
    await expectStatus(
      c.publish({ idempotencyKey: 'k'.repeat(257), messages: [msg(topic, 'r4')] }),
      status.RESOURCE_EXHAUSTED,
      { field: 'idempotency_key', limit: 'maxKeyBytes' },
    );
    expect(await snapshot()).toEqual(mid);
  });

  it('PublishStream answers a bad batch with an in-stream error and goes on with the next', async () => {
    const before = await snapshot();
    const call = c.broker.publishStream();
    const responses: pb.PublishStreamResponse[] = [];
    const done = new Promise<void>((resolve, reject) => {
      call.on('data', (r: pb.PublishStreamResponse) => responses.push(r));
      call.on('end', () => resolve());
      call.on('error', reject);
    });
    call.write({ sequence: i64(1), messages: [msg(topic, 'good'), msg(topic, 'bad', { delayMs: -1 })] });
    call.write({ sequence: i64(2), messages: [msg(topic, 'fine', { delayMs: 600_000 })] });
    call.end();
    await done;
    expect(responses.map((r) => Number(r.sequence))).toEqual([1, 2]);
    expect(responses[0]?.error).toMatchObject({
      code: status.INVALID_ARGUMENT,
      field: 'messages[1].delay_ms',
    });
    expect(responses[0]?.results).toEqual([]);
    expect(responses[1]?.error ?? null).toBeNull();
    expect(responses[1]?.results).toHaveLength(1);
    const after = await snapshot();
    expect(after.counts?.['default']?.pending).toBe((before.counts?.['default']?.pending ?? 0) + 1);
  });

  it('a malformed delivery tag is INVALID_ARGUMENT naming the field, unary and in a stream', async () => {
    const before = await snapshot();
    const short = Buffer.alloc(5);
    await expectStatus(c.ack({ tags: [Buffer.alloc(24), short] }), status.INVALID_ARGUMENT, {
      field: 'tags[1]',
    });
    await expectStatus(c.ack({ tags: [] }), status.INVALID_ARGUMENT, { field: 'tags' });
    await expectStatus(c.nack({ tag: short, delayMs: i64(0) }), status.INVALID_ARGUMENT, { field: 'tag' });
    await expectStatus(c.extend({ tag: short, leaseMs: i64(1000) }), status.INVALID_ARGUMENT, {
      field: 'tag',
    });
    await expectStatus(c.nack({ tag: Buffer.alloc(24), delayMs: i64(-1) }), status.INVALID_ARGUMENT, {
      field: 'delay_ms',
    });
    await expectStatus(c.extend({ tag: Buffer.alloc(24), leaseMs: i64(0) }), status.INVALID_ARGUMENT, {
      field: 'lease_ms',
    });
    const s = await retryUnavailable(() => c.consume({ topic, prefetch: 1, leaseMs: i64(60_000) }));
    sessions.push(s);
    const r = await s.ack([short]);
    expect(r.error).toMatchObject({ code: status.INVALID_ARGUMENT, field: 'tags[0]' });
    const n = await s.nack(short, 0);
    expect(n.error).toMatchObject({ code: status.INVALID_ARGUMENT, field: 'tag' });
    // The stream survives a refused settle.
    expect(s.ended).toBeUndefined();
    s.cancel();
    expect(await snapshot()).toEqual(before);
  });

  it('more consumers than maxConsumersPerGroup is RESOURCE_EXHAUSTED naming the limit; other groups are unaffected', async () => {
    const t = uniqueTopic('consumers');
    for (let i = 0; i < MAX_CONSUMERS_PER_GROUP; i++) {
      sessions.push(await retryUnavailable(() => c.consume({ topic: t, prefetch: 1 })));
    }
    const err = await failure(c.consume({ topic: t, prefetch: 1 }));
    expect(err.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(err.meta['fermata-limit']).toBe('maxConsumersPerGroup');
    expect(err.details).toContain('maxConsumersPerGroup');
    sessions.push(await c.consume({ topic: t, group: 'other', prefetch: 1 }));
    // A consumer leaving frees its place.
    sessions[sessions.length - 2]?.cancel();
    const deadline = Date.now() + 20_000;
    for (;;) {
      const joined = await c.consume({ topic: t, prefetch: 1 }).catch((e: unknown) => e as Error);
      if (!(joined instanceof Error)) {
        sessions.push(joined);
        break;
      }
      if (Date.now() > deadline) throw joined;
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  it('a bad subscribe ends the stream with INVALID_ARGUMENT naming the field', async () => {
    const before = await snapshot();
    const e1 = await failure(c.consume({ topic: 'bad topic', prefetch: 1 }));
    expect({ code: e1.code, field: e1.meta['fermata-field'] }).toEqual({
      code: status.INVALID_ARGUMENT,
      field: 'subscribe.topic',
    });
    const e2 = await failure(c.consume({ topic, prefetch: 1, leaseMs: i64(2 * DAY_MS) }));
    expect({ code: e2.code, field: e2.meta['fermata-field'] }).toEqual({
      code: status.INVALID_ARGUMENT,
      field: 'subscribe.lease_ms',
    });
    expect(await snapshot()).toEqual(before);
  });

  it('cancel, reschedule, inspection and admin calls refuse bad arguments with the right status', async () => {
    const before = await snapshot();
    await expectStatus(c.cancel({ topic: '', key: 'k' }), status.INVALID_ARGUMENT, { field: 'topic' });
    await expectStatus(c.cancel({ topic }), status.INVALID_ARGUMENT, { field: 'target' });
    await expectStatus(c.reschedule({ topic, key: 'k', delayMs: i64(-1) }), status.INVALID_ARGUMENT);
    await expectStatus(
      c.reschedule({ topic, key: 'k', delayMs: i64(731 * DAY_MS) }),
      status.INVALID_ARGUMENT,
      {
        limit: 'maxDelayMs',
      },
    );
    await expectStatus(c.getMessage({ topic, key: 'never-published' }), status.NOT_FOUND);
    await expectStatus(c.topicStats('no-such-topic'), status.NOT_FOUND);
    await expectStatus(c.createTopic({ name: topic }), status.ALREADY_EXISTS);
    await expectStatus(
      c.createTopic({ name: 'fresh', settings: { maxAttempts: 5000 } }),
      status.INVALID_ARGUMENT,
      {
        limit: 'maxMaxAttempts',
      },
    );
    await expectStatus(
      c.publish({ messages: [msg(topic, 'x')], durability: v1.Durability.DURABILITY_LEADER }),
      status.FAILED_PRECONDITION,
    );
    expect(await snapshot()).toEqual(before);
  });

  it('bad input is refused before it reaches the Raft log: the commit index does not move', async () => {
    const commit = async () => Number((await c.clusterInfo()).commitIndex);
    const before = await commit();
    await failure(c.publish({ messages: [msg(topic, 'ok'), msg('bad name', 'x')] }));
    await failure(c.createTopic({ name: 'bad name' }));
    await failure(c.createGroup({ topic, group: 'bad/group' }));
    await failure(c.cancel({ topic: 'bad name', key: 'k' }));
    await failure(c.reschedule({ topic, key: 'k', delayMs: i64(-1) }));
    await failure(c.reschedule({ topic, key: 'k'.repeat(300), delayMs: i64(1) }));
    await failure(c.ack({ tags: [Buffer.alloc(3)] }));
    await failure(c.extend({ tag: Buffer.alloc(24), leaseMs: i64(2 * DAY_MS) }));
    expect(await commit()).toBe(before);
  });

  // Only a cluster with followers has this rule (registered only there, not skipped elsewhere).
  if (size === 3)
    it('a follower asked directly (fermata-direct) answers FAILED_PRECONDITION with the leader in fermata-leader metadata', async () => {
      const leader = await cluster.leader();
      const follower = cluster.others(leader)[0]!;
      const f = new NodeClients(follower.clientAddress, { direct: true });
      try {
        const before = await snapshot();
        const expectRedirect = (err: { code: number; meta: Record<string, string> }) => {
          expect(err.code).toBe(status.FAILED_PRECONDITION);
          expect(err.meta['fermata-leader']).toBe(leader.clientAddress);
          expect(err.meta['fermata-leader-id']).toBe(leader.id);
        };
        expectRedirect(await failure(f.publish({ messages: [msg(topic, 'to-follower')] })));
        expectRedirect(await failure(f.ack({ tags: [Buffer.alloc(24)] })));
        expectRedirect(await failure(f.cancel({ topic, key: 'k' })));
        expectRedirect(await failure(f.topicStats(topic)));
        expectRedirect(await failure(f.createTopic({ name: uniqueTopic('via-follower') })));
        expectRedirect(await failure(f.consume({ topic, prefetch: 1 })));
        // Any node answers GetClusterInfo, naming the leader.
        const info = await f.clusterInfo();
        expect(info.leaderId).toBe(leader.id);
        expect(info.leaderAddress).toBe(leader.clientAddress);
        expect(info.nodeId).toBe(follower.id);
        expect(await snapshot()).toEqual(before);
      } finally {
        f.close();
      }
    });

  if (size === 3)
    it('a follower forwards to the leader what a client sends it: unary calls and the Consume stream', async () => {
      const leader = await cluster.leader();
      const follower = cluster.others(leader)[0]!;
      const f = new NodeClients(follower.clientAddress);
      try {
        const t = uniqueTopic('forwarded');
        await f.createTopic({ name: t });
        const [r] = (await f.publish({ messages: [msg(t, 'via-follower')] })).results;
        expect((await c.getMessage({ topic: t, id: r!.id })).message?.payload).toEqual(
          Buffer.from('via-follower'),
        );
        // A bad request is answered by the leader as the leader answers it, field and all.
        const bad = await failure(f.publish({ messages: [msg('', 'x')] }));
        expect(bad.code).toBe(status.INVALID_ARGUMENT);
        expect(bad.details).toContain('messages[0].topic');
        const s = await f.consume({ topic: t, prefetch: 4 });
        const [d] = await s.waitForCount(1, 20_000);
        expect(text(d!.delivery.payload)).toBe('via-follower');
        await s.ack([d!.delivery.tag]);
        expect(await counts(c, t)).toEqual({ default: { pending: 0, inFlight: 0, deadLettered: 0 } });
        s.end();
      } finally {
        f.close();
      }
    });
});

describe('publishIdempotency: false (a rollout from a version without request idempotency)', () => {
  let cluster: Cluster;
  let c: NodeClients;
  beforeAll(async () => {
    cluster = await startCluster({ nodes: 1, env: { FERMATA_PUBLISH_IDEMPOTENCY: 'false' } });
    c = await leaderClients(cluster);
  });
  afterAll(async () => {
    c?.close();
    await cluster?.stop();
  });

  it('the leader ignores idempotency keys: a request sent twice is stored twice', async () => {
    const topic = uniqueTopic('no-idem');
    const request = { idempotencyKey: 'same-key', messages: [msg(topic, 'a', { delayMs: 600_000 })] };
    // The first call may meet a leader that has not applied an entry of its term yet (UNAVAILABLE, nothing stored).
    const first = await retryUnavailable(() => c.publish(request));
    const again = await c.publish(request);
    expect(again.results[0]!.deduplicated).toBe(false);
    expect(String(again.results[0]!.id)).not.toBe(String(first.results[0]!.id));
    expect((await counts(c, topic))?.['default']?.pending).toBe(2);
  });
});
