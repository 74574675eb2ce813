/**
 * The SDK's public methods against one real `fermata serve` process: producing
 * (publish, publishDetailed, publishBatch atomicity, the batching producer),
 * consuming (auto and manual mode, nack backoff, extend, autoExtend, close()
 * draining), cancel/reschedule in every state, inspection and paging, topic
 * and group admin, stats, cluster info, and the typed errors.
 */
import {
  AlreadyExistsError,
  ClosedError,
  FermataClient,
  FermataError,
  InvalidArgumentError,
  json,
  LeaseExpiredError,
  LimitError,
  type Message,
  NotFoundError,
  NotLeaderError,
  StatusCode,
} from '@fermata/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, NODE_CLOCK_LAG_MS, sleep, startCluster } from '../src/index.js';
import {
  clientOf,
  createdTopic,
  type LogLine,
  rejection,
  type Seen,
  seen,
  topicName,
} from './sdk-support.js';
import { eventually } from './support.js';

/** Small limits, so a test can hit them with small inputs. */
const MAX_PAYLOAD_BYTES = 1024;
const MAX_GROUPS_PER_TOPIC = 3;
const PUSH_AHEAD_MS = 1_900;
/** Far enough in the future that nothing is delivered during a test. */
const LATER_MS = 600_000;

describe('the SDK against a single node', () => {
  let cluster: Cluster;
  let client: FermataClient & { log: LogLine[] };

  beforeAll(async () => {
    cluster = await startCluster({
      nodes: 1,
      env: {
        FERMATA_LIMITS__MAX_PAYLOAD_BYTES: String(MAX_PAYLOAD_BYTES),
        FERMATA_LIMITS__MAX_GROUPS_PER_TOPIC: String(MAX_GROUPS_PER_TOPIC),
        // Deliveries are sent this long before they are due and held by the SDK.
        FERMATA_DISPATCHER__PUSH_AHEAD_MS: String(PUSH_AHEAD_MS),
      },
    });
    client = clientOf(cluster);
  });
  afterEach((ctx) => {
    if (ctx.task.result?.state === 'fail') {
      console.error(cluster.logs(30));
      console.error(
        JSON.stringify(client.log.slice(-30), (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
      );
    }
  });
  afterAll(async () => {
    await client?.close();
    await cluster?.stop();
  });

  /** Every delivery a subscription's handler saw, and the handler's behaviour per delivery. */
  function collect(
    topic: string,
    options: Parameters<FermataClient['subscribe']>[1],
    behave: (m: Message, s: Seen) => unknown = () => {},
  ) {
    const got: Seen[] = [];
    const sub = client.subscribe(topic, options, async (m) => {
      const s = seen(m);
      got.push(s);
      return behave(m, s);
    });
    return { got, sub };
  }

  describe('producing', () => {
    it('publish stores the payload and headers, no key unless given, due after the delay', async () => {
      const topic = topicName('publish');
      const before = Date.now();
      const id = await client.publish(topic, 'hello', { delayMs: LATER_MS, headers: { lang: 'en' } });
      expect(typeof id).toBe('bigint');
      const d = await client.getMessage(topic, id);
      expect(d.message.id).toBe(id);
      expect(Buffer.from(d.message.payload).toString()).toBe('hello');
      expect(d.message.headers).toEqual({ lang: 'en' });
      expect(d.message.key).toBe('');
      expect(d.message.dueAtMs).toBe(d.message.enqueuedAtMs + LATER_MS);
      expect(d.message.enqueuedAtMs).toBeGreaterThanOrEqual(before - 1_000);
      expect(d.message.expireAtMs).toBe(0);
      expect(d.groups).toEqual([
        { group: 'default', state: 'pending', dueAtMs: d.message.dueAtMs, attempt: 0 },
      ]);

      // Bytes and JSON payloads, deliverAt as a Date and as epoch ms, a ttl.
      const at = Date.now() + LATER_MS;
      const a = await client.publish(topic, json({ n: 1 }), { deliverAt: new Date(at), ttlMs: 2 * LATER_MS });
      const b = await client.publish(topic, new Uint8Array([0, 1, 255]), { deliverAt: at });
      expect(b).toBeGreaterThan(a);
      const da = await client.getMessage(topic, a);
      expect(JSON.parse(Buffer.from(da.message.payload).toString())).toEqual({ n: 1 });
      expect(da.message.dueAtMs).toBe(at);
      expect(da.message.expireAtMs).toBe(da.message.enqueuedAtMs + 2 * LATER_MS);
      expect([...(await client.getMessage(topic, { id: b })).message.payload]).toEqual([0, 1, 255]);
    });

    it('publishDetailed answers id, dueAtMs and deduplicated; the same key stores once', async () => {
      const topic = topicName('detailed');
      const first = await client.publishDetailed(topic, 'one', { key: 'order-7', delayMs: LATER_MS });
      expect(first.deduplicated).toBe(false);
      const again = await client.publishDetailed(topic, 'two', { key: 'order-7', delayMs: 5 });
      expect(again).toEqual({ id: first.id, deduplicated: true, dueAtMs: first.dueAtMs });
      const d = await client.getMessage(topic, { key: 'order-7' });
      expect(Buffer.from(d.message.payload).toString()).toBe('one');
      expect((await client.topicStats(topic)).groups[0]).toMatchObject({ pending: 1 });
      // Without a key, every call is its own request (its own idempotency key): two calls, two messages.
      const x = await client.publishDetailed(topic, 'same', { delayMs: LATER_MS });
      const y = await client.publishDetailed(topic, 'same', { delayMs: LATER_MS });
      expect(x.id).not.toBe(y.id);
      expect(x.deduplicated || y.deduplicated).toBe(false);
    });

    it('publishBatch answers in input order; one bad message fails the batch and stores nothing', async () => {
      const topic = topicName('batch');
      const other = topicName('batch-other');
      const results = await client.publishBatch([
        { topic, payload: 'a', delayMs: LATER_MS },
        { topic: other, payload: 'b', delayMs: LATER_MS, key: 'kb' },
        { topic, payload: 'c', delayMs: LATER_MS },
      ]);
      expect(results).toHaveLength(3);
      expect(results[0]!.id < results[1]!.id && results[1]!.id < results[2]!.id).toBe(true);
      expect((await client.getMessage(other, { key: 'kb' })).message.id).toBe(results[1]!.id);
      const statsBefore = await client.topicStats(topic);
      const fresh = topicName('batch-new');

      // The server refuses the second message (payload past the limit): nothing of the batch is stored.
      const err = await rejection(
        client.publishBatch([
          { topic, payload: 'good', key: 'batch-good', delayMs: LATER_MS },
          { topic, payload: Buffer.alloc(MAX_PAYLOAD_BYTES + 1, 7), delayMs: LATER_MS },
          { topic: fresh, payload: 'third', delayMs: LATER_MS },
        ]),
        LimitError,
      );
      expect(err.code).toBe(StatusCode.RESOURCE_EXHAUSTED);
      expect(err.limit).toBe('maxPayloadBytes');
      expect(err.field).toBe('messages[1].payload');
      await rejection(client.getMessage(topic, { key: 'batch-good' }), NotFoundError);
      expect(await client.topicStats(topic)).toEqual(statsBefore);
      // Not even the topic it would have created.
      expect((await client.listTopics()).map((t) => t.name)).not.toContain(fresh);

      // A bad option fails locally, naming the field with its position; nothing is sent.
      const local = await rejection(
        client.publishBatch([
          { topic, payload: 'good', key: 'batch-good-2' },
          { topic, payload: 'bad', ttlMs: -1 },
        ]),
        InvalidArgumentError,
      );
      expect(local.field).toBe('messages[1].ttlMs');
      await rejection(client.getMessage(topic, { key: 'batch-good-2' }), NotFoundError);
      expect(await client.publishBatch([])).toEqual([]);
    });

    it('producer() batches sends over a stream; each send resolves with its own id; a bad message fails alone', async () => {
      const topic = topicName('producer');
      const producer = client.producer({ lingerMs: 5, maxBatchMessages: 40 });
      const sends = Array.from({ length: 300 }, (_, i) =>
        producer.send(topic, `m${i}`, { delayMs: LATER_MS, headers: { i: String(i) } }),
      );
      const bad = producer.send(topic, Buffer.alloc(MAX_PAYLOAD_BYTES + 1), { delayMs: LATER_MS });
      const keyed = producer.send(topic, 'keyed', { delayMs: LATER_MS, key: 'prod-key' });
      const badErr = await rejection(bad, LimitError);
      expect(badErr.limit).toBe('maxPayloadBytes');
      const results = await Promise.all(sends);
      await producer.flush();
      const ids = results.map((r) => r.id);
      expect(new Set(ids).size).toBe(300);
      // Ids increase in send order (batches go out and are stored in order).
      for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
      expect(results.every((r) => !r.deduplicated)).toBe(true);
      const k = await keyed;
      expect((await client.getMessage(topic, { key: 'prod-key' })).message.id).toBe(k.id);
      expect((await client.topicStats(topic)).groups[0]!.pending).toBe(301);
      // Spot check: the message stored under an id is the one sent.
      const d = await client.getMessage(topic, ids[123]!);
      expect(Buffer.from(d.message.payload).toString()).toBe('m123');
      expect(d.message.headers).toEqual({ i: '123' });
      await producer.close();
      await rejection(producer.send(topic, 'late'), ClosedError);
    });

    it('producer: ready() and the buffer limits give backpressure; past maxWaitingSends a send fails at once', async () => {
      const topic = topicName('backpressure');
      const producer = client.producer({ lingerMs: 20, maxBufferedMessages: 1, maxWaitingSends: 1 });
      const first = producer.send(topic, 'b1', { delayMs: LATER_MS });
      const second = producer.send(topic, 'b2', { delayMs: LATER_MS });
      expect(producer.bufferedMessages).toBe(2);
      let readyResolved = false;
      const ready = producer.ready().then(() => (readyResolved = true));
      const third = await rejection(producer.send(topic, 'b3', { delayMs: LATER_MS }), LimitError);
      expect(third.limit).toBe('producer.maxWaitingSends');
      expect(readyResolved).toBe(false);
      const [r1, r2] = await Promise.all([first, second]);
      await ready;
      expect(r2.id > r1.id).toBe(true);
      expect(producer.bufferedMessages).toBe(0);
      expect(producer.inFlightBatches).toBe(0);
      expect((await client.topicStats(topic)).groups[0]!.pending).toBe(2);
      await producer.close();
    });

    it('client.close() flushes its producers (a long linger does not hold messages back) and later calls fail with ClosedError', async () => {
      const topic = topicName('close-flush');
      const other = clientOf(cluster);
      const producer = other.producer({ lingerMs: 600_000 });
      const sends = Array.from({ length: 5 }, (_, i) => producer.send(topic, `f${i}`, { delayMs: LATER_MS }));
      await sleep(100);
      expect(producer.inFlightBatches).toBe(0);
      await other.close();
      expect((await Promise.all(sends)).map((r) => r.deduplicated)).toEqual([
        false,
        false,
        false,
        false,
        false,
      ]);
      expect((await client.topicStats(topic)).groups[0]!.pending).toBe(5);
      await rejection(other.publish(topic, 'x'), ClosedError);
      expect(() => other.producer()).toThrow(ClosedError);
    });

    it("durability 'leader' is refused by a server that does not allow it, with a plain FAILED_PRECONDITION", async () => {
      const topic = topicName('durability');
      const err = await rejection(client.publish(topic, 'x', { durability: 'leader' }), FermataError);
      expect(err).not.toBeInstanceOf(NotLeaderError);
      expect(err.code).toBe(StatusCode.FAILED_PRECONDITION);
      expect(err.details).toContain('allowLeaderDurability');
      expect((await client.listTopics()).map((t) => t.name)).not.toContain(topic);
    });
  });

  describe('consuming', () => {
    it('auto mode: resolving acks; a throw nacks with the backoff and the redelivery is attempt + 1', async () => {
      const topic = await createdTopic(client, 'auto');
      const parsed: unknown[] = [];
      const { got, sub } = collect(
        topic,
        { retryBackoff: { initialMs: 300, multiplier: 2, maxMs: 10_000, jitter: 0 }, leaseMs: 20_000 },
        (m, s) => {
          if (s.text.startsWith('{')) parsed.push(m.json());
          if (s.text === 'flaky' && s.attempt < 3) throw new Error(`fail ${s.attempt}`);
        },
      );
      const okId = await client.publish(topic, 'ok');
      await client.publish(topic, json({ hello: ['world', 1] }));
      const flakyId = await client.publish(topic, 'flaky');
      await eventually(() => got.filter((s) => s.id === flakyId).length >= 3, 30_000, 'three attempts');
      await eventually(
        async () => {
          const g = (await client.topicStats(topic)).groups[0]!;
          return g.pending === 0 && g.inFlight === 0;
        },
        20_000,
        'everything acked',
      );
      await sleep(500);
      expect(parsed).toEqual([{ hello: ['world', 1] }]);
      const ok = got.filter((s) => s.id === okId);
      expect(ok.map((s) => s.attempt)).toEqual([1]);
      const flaky = got.filter((s) => s.id === flakyId);
      expect(flaky.map((s) => s.attempt)).toEqual([1, 2, 3]);
      // The redelivery waited for the backoff: 300 ms after attempt 1, 600 ms after attempt 2.
      expect(flaky[1]!.dueAtMs - flaky[0]!.receivedAtMs).toBeGreaterThanOrEqual(300 - 50);
      expect(flaky[2]!.dueAtMs - flaky[1]!.receivedAtMs).toBeGreaterThanOrEqual(600 - 50);
      for (const s of flaky) expect(s.receivedAtMs).toBeGreaterThanOrEqual(s.dueAtMs);
      const warnings = client.log.filter((l) => l.message.startsWith('handler failed'));
      expect(warnings.length).toBeGreaterThanOrEqual(2);
      await rejection(client.getMessage(topic, flakyId), NotFoundError);
      await sub.close();
      await expect(sub.done).resolves.toBeUndefined();
    });

    it('manual mode: ack, nack with a delay, extend (same tag, later lease) then ack', async () => {
      const topic = await createdTopic(client, 'manual');
      const extended: Array<{ before: string; after: string; leaseBefore: number; leaseAfter: number }> = [];
      const { got, sub } = collect(topic, { mode: 'manual', leaseMs: 10_000 }, async (m, s) => {
        if (s.text === 'ack') await m.ack();
        else if (s.text === 'nack' && s.attempt === 1) await m.nack({ delayMs: 400 });
        else if (s.text === 'nack') await m.ack();
        else if (s.text === 'extend') {
          const before = Buffer.from(m.tag).toString('hex');
          const leaseBefore = m.leaseExpiresAtMs;
          await sleep(20);
          await m.extend(60_000);
          extended.push({
            before,
            after: Buffer.from(m.tag).toString('hex'),
            leaseBefore,
            leaseAfter: m.leaseExpiresAtMs,
          });
          const d = await client.getMessage(topic, m.id);
          expect(d.groups[0]).toMatchObject({ state: 'in-flight', dueAtMs: m.leaseExpiresAtMs });
          await m.ack();
          // A second settle returns the first one's result and sends nothing.
          await m.ack();
          expect(m.settled).toBe('ack');
        }
      });
      const ackId = await client.publish(topic, 'ack');
      const nackId = await client.publish(topic, 'nack');
      const extendId = await client.publish(topic, 'extend');
      await eventually(
        () => got.some((s) => s.id === nackId && s.attempt === 2) && extended.length === 1,
        30_000,
        'the nacked message back and the extend done',
      );
      await eventually(
        async () => {
          const g = (await client.topicStats(topic)).groups[0]!;
          return g.pending === 0 && g.inFlight === 0;
        },
        20_000,
        'everything acked',
      );
      expect(got.filter((s) => s.id === ackId).map((s) => s.attempt)).toEqual([1]);
      expect(got.filter((s) => s.id === extendId).map((s) => s.attempt)).toEqual([1]);
      const nacked = got.filter((s) => s.id === nackId);
      expect(nacked.map((s) => s.attempt)).toEqual([1, 2]);
      expect(nacked[1]!.dueAtMs - nacked[0]!.receivedAtMs).toBeGreaterThanOrEqual(400 - 50);
      expect(nacked[1]!.receivedAtMs).toBeGreaterThanOrEqual(nacked[1]!.dueAtMs);
      const e = extended[0]!;
      expect(e.after).toBe(e.before); // a lease in place keeps its tag
      expect(e.leaseAfter).toBeGreaterThan(e.leaseBefore);
      await sub.close();
    });

    it('manual mode: an unsettled delivery comes back after its lease as attempt 2; the stale ack is LeaseExpiredError', async () => {
      const topic = await createdTopic(client, 'lease');
      const held: Message[] = [];
      const { got, sub } = collect(topic, { mode: 'manual', leaseMs: 300, concurrency: 2 }, async (m, s) => {
        if (s.attempt === 1) held.push(m);
        else await m.ack();
      });
      const id = await client.publish(topic, 'slow');
      await eventually(() => got.some((s) => s.id === id && s.attempt === 2), 20_000, 'redelivery');
      const first = got.find((s) => s.attempt === 1)!;
      const second = got.find((s) => s.attempt === 2)!;
      expect(second.receivedAtMs).toBeGreaterThanOrEqual(first.leaseExpiresAtMs);
      expect(second.tag).not.toBe(first.tag);
      const err = await rejection(held[0]!.ack(), LeaseExpiredError);
      expect(err.code).toBe(StatusCode.FAILED_PRECONDITION);
      expect(Buffer.from(err.tag).toString('hex')).toBe(first.tag);
      await sub.close();
    });

    it('autoExtend keeps the lease while a long handler runs: one delivery, acked at the end', async () => {
      const topic = await createdTopic(client, 'autoextend');
      const leaseEnds: number[] = [];
      const { got, sub } = collect(topic, { leaseMs: 1_000, autoExtend: true }, async (m) => {
        for (let i = 0; i < 10; i++) {
          leaseEnds.push(m.leaseExpiresAtMs);
          await sleep(250);
        }
      });
      const id = await client.publish(topic, 'long');
      await eventually(
        async () => got.length >= 1 && (await client.topicStats(topic)).groups[0]!.inFlight === 0,
        30_000,
        'the handler to finish and ack',
      );
      await sleep(800);
      expect(got.map((s) => [s.id, s.attempt])).toEqual([[id, 1]]);
      // The handler ran 2.5 s on a 1 s lease: it was extended (its end moved) several times.
      expect(new Set(leaseEnds).size).toBeGreaterThan(1);
      expect((await client.topicStats(topic)).groups[0]).toMatchObject({ pending: 0, inFlight: 0 });
      await sub.close();
    });

    it('close() stops deliveries, hands back the buffered ones, and waits for the running handler and its ack', async () => {
      const topic = await createdTopic(client, 'drain');
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let finished = 0;
      const { got, sub } = collect(topic, { concurrency: 1, prefetch: 5, leaseMs: 60_000 }, async () => {
        await gate;
        await sleep(200);
        finished++;
      });
      const ids = (
        await client.publishBatch(Array.from({ length: 5 }, (_, i) => ({ topic, payload: `d${i}` })))
      ).map((r) => r.id);
      await eventually(
        () => got.length === 1 && sub.bufferedCount === 4,
        20_000,
        'one running, four buffered',
      );
      const closing = sub.close();
      let closed = false;
      void closing.then(() => (closed = true));
      await sleep(300);
      expect(closed).toBe(false);
      release();
      await closing;
      expect(finished).toBe(1);
      expect(got).toHaveLength(1);
      await expect(sub.done).resolves.toBeUndefined();
      // The running one was acked; the four handed back are pending again, due at once.
      const g = (await client.topicStats(topic)).groups[0]!;
      expect(g).toMatchObject({ pending: 4, inFlight: 0 });
      await rejection(client.getMessage(topic, got[0]!.id), NotFoundError);
      // A new consumer gets exactly those four, as their second attempt.
      const next = collect(topic, { leaseMs: 60_000 });
      await eventually(() => next.got.length >= 4, 20_000, 'the handed-back messages');
      expect(next.got.map((s) => s.id).sort()).toEqual(ids.filter((i) => i !== got[0]!.id).sort());
      expect(next.got.every((s) => s.attempt === 2)).toBe(true);
      await next.sub.close();
    });

    it('a delivery sent ahead is held and handed to the handler at its due time; close() while holding hands it back uncounted', async () => {
      const topic = await createdTopic(client, 'held');
      const first = collect(topic, { leaseMs: 60_000 });
      const dueAt = Date.now() + 2_500;
      const ids = (
        await client.publishBatch([0, 1].map((i) => ({ topic, payload: `h${i}`, deliverAt: dueAt })))
      ).map((r) => r.id);
      await eventually(() => first.sub.heldCount === 2, 20_000, 'two deliveries held');
      expect(first.got).toHaveLength(0);
      await first.sub.close();
      expect(first.got).toHaveLength(0);
      // Handed back before their lease started: pending again, as first deliveries, on time.
      const next = collect(topic, { leaseMs: 60_000 });
      await eventually(() => next.got.length === 2, 20_000, 'the held messages');
      expect(next.got.map((s) => s.id).sort()).toEqual([...ids].sort());
      for (const s of next.got) {
        expect(s.attempt).toBe(1);
        expect(s.receivedAtMs).toBeGreaterThanOrEqual(dueAt);
      }
      await next.sub.close();
    });

    it('every group gets every message; consumers of one group share them; deliveries carry the message fields', async () => {
      const topic = topicName('groups');
      await client.createTopic(topic);
      await client.createGroup(topic, 'a');
      await client.createGroup(topic, 'b');
      const a = collect(topic, { group: 'a' });
      const b1 = collect(topic, { group: 'b', prefetch: 1, concurrency: 1 }, () => sleep(20));
      const b2 = collect(topic, { group: 'b', prefetch: 1, concurrency: 1 }, () => sleep(20));
      const fields: Message[] = [];
      const d = client.subscribe(topic, async (m) => {
        fields.push(m);
      });
      const ids = (
        await client.publishBatch(
          Array.from({ length: 12 }, (_, i) => ({ topic, payload: `g${i}`, headers: { n: String(i) } })),
        )
      ).map((r) => r.id);
      const sorted = (xs: bigint[]) => [...xs].sort((x, y) => (x < y ? -1 : 1));
      await eventually(
        () => a.got.length >= 12 && b1.got.length + b2.got.length >= 12 && fields.length >= 12,
        20_000,
        'every group to get all twelve',
      );
      await sleep(300);
      expect(sorted(a.got.map((s) => s.id))).toEqual(ids);
      expect(sorted([...b1.got, ...b2.got].map((s) => s.id))).toEqual(ids);
      expect(sorted(fields.map((m) => m.id))).toEqual(ids);
      const m = fields.find((x) => x.text() === 'g3')!;
      expect(m).toMatchObject({ topic, group: 'default', headers: { n: '3' }, attempt: 1, settled: 'ack' });
      expect(m.key).toBe('');
      expect(m.enqueuedAtMs).toBeLessThanOrEqual(m.dueAtMs);
      expect(m.leaseExpiresAtMs).toBeGreaterThan(m.dueAtMs);
      await Promise.all([a.sub.close(), b1.sub.close(), b2.sub.close(), d.close()]);
    });

    it('auto mode: an ack after the lease ran out is logged as a warning, not thrown, and the message comes back', async () => {
      const topic = await createdTopic(client, 'late-ack');
      const { got, sub } = collect(topic, { leaseMs: 300, concurrency: 2 }, async (_m, s) => {
        if (s.attempt === 1) await sleep(900);
      });
      const id = await client.publish(topic, 'slow');
      await eventually(
        () =>
          client.log.some(
            (l) =>
              l.message.startsWith('the lease ran out before the message was settled') &&
              l.context?.['id'] === id,
          ),
        20_000,
        'the late-ack warning',
      );
      await eventually(
        async () => (await client.topicStats(topic)).groups[0]!.inFlight === 0,
        20_000,
        'the redelivery acked',
      );
      // (A loaded machine may let the second lease lapse too: then there are more attempts.)
      expect(
        got
          .filter((s) => s.id === id)
          .map((s) => s.attempt)
          .slice(0, 2),
      ).toEqual([1, 2]);
      await sub.close();
    });

    it('autoExtend stops at maxTotalMs (a warning) and the message is then delivered again', async () => {
      const topic = await createdTopic(client, 'autoextend-max');
      const { got, sub } = collect(
        topic,
        { leaseMs: 1_000, autoExtend: { extendByMs: 1_000, maxTotalMs: 1_000 }, concurrency: 2 },
        async (_m, s) => {
          if (s.attempt === 1) await sleep(4_000);
        },
      );
      const id = await client.publish(topic, 'too long');
      await eventually(() => got.some((s) => s.id === id && s.attempt === 2), 20_000, 'the redelivery');
      expect(
        client.log.some(
          (l) => l.message.startsWith('stopped extending the lease') && l.context?.['id'] === id,
        ),
      ).toBe(true);
      await sub.close();
    });

    it('flow control: prefetch bounds unsettled deliveries; setPrefetch, pause and resume change the window', async () => {
      const topic = await createdTopic(client, 'flow');
      const held: Message[] = [];
      const sub = client.subscribe(topic, { mode: 'manual', prefetch: 2, concurrency: 10 }, (m) => {
        held.push(m);
      });
      await eventually(() => sub.connected, 20_000, 'subscribed');
      expect(sub.prefetch).toBe(2);
      await client.publishBatch(Array.from({ length: 6 }, (_, i) => ({ topic, payload: `w${i}` })));
      await eventually(() => held.length === 2, 20_000, 'two deliveries');
      await sleep(500);
      expect(held).toHaveLength(2);
      expect(sub.inFlight + sub.bufferedCount).toBe(0);
      sub.setPrefetch(4);
      expect(sub.prefetch).toBe(4);
      await eventually(() => held.length === 4, 20_000, 'four deliveries');
      sub.pause();
      await Promise.all(held.map((m) => m.ack()));
      await sleep(500);
      expect(held).toHaveLength(4);
      sub.resume();
      await eventually(() => held.length === 6, 20_000, 'the last two');
      await Promise.all(held.slice(4).map((m) => m.ack()));
      expect((await client.topicStats(topic)).groups[0]).toMatchObject({ pending: 0, inFlight: 0 });
      await sub.close();
      expect(sub.connected).toBe(false);
    });

    it('a subscribe the server refuses stops the subscription with a typed error (done rejects, onError once)', async () => {
      const errors: FermataError[] = [];
      const sub = client.subscribe('no spaces allowed!', { onError: (e) => errors.push(e) }, () => {});
      const err = await rejection(sub.done, InvalidArgumentError);
      // The server names the field of the Consume request (`subscribe.topic`).
      expect(err.field).toMatch(/(^|\.)topic$/);
      expect(errors).toEqual([err]);
    });
  });

  describe('cancel, reschedule and inspection', () => {
    it('cancel in every state: pending -> cancelled, in flight -> in-flight (nothing changed), ended -> already-done / not-found', async () => {
      const topic = await createdTopic(client, 'cancel');
      const pending = await client.publish(topic, 'p', { delayMs: LATER_MS, key: 'c-pending' });
      expect(await client.cancel(topic, { key: 'c-pending' })).toEqual({ status: 'cancelled', id: pending });
      await rejection(client.getMessage(topic, pending), NotFoundError);
      // The key stays reserved: cancelling again is already-done, publishing it again dedups.
      expect(await client.cancel(topic, { key: 'c-pending' })).toMatchObject({ status: 'already-done' });
      expect(await client.cancel(topic, 987_654_321n)).toMatchObject({ status: 'not-found' });
      expect(await client.cancel(topic, { key: 'never-published' })).toMatchObject({ status: 'not-found' });

      // In flight: held by a manual consumer.
      const holding: Message[] = [];
      const { sub } = collect(topic, { mode: 'manual', leaseMs: 60_000 }, (m) => {
        holding.push(m);
      });
      const inFlight = await client.publish(topic, 'f', { key: 'c-flight' });
      await eventually(() => holding.length === 1, 20_000, 'the delivery');
      expect(await client.cancel(topic, { key: 'c-flight' })).toEqual({ status: 'in-flight', id: inFlight });
      expect(await client.reschedule(topic, inFlight, { delayMs: 1 })).toMatchObject({
        status: 'in-flight',
        id: inFlight,
      });
      expect((await client.getMessage(topic, inFlight)).groups[0]!.state).toBe('in-flight');
      const listed = (await client.listMessages(topic)).messages.find((m) => m.message.id === inFlight)!;
      expect(listed.state).toBe('in-flight');
      expect(Buffer.from(listed.tag).equals(Buffer.from(holding[0]!.tag))).toBe(true);
      await holding[0]!.ack();
      // Done: with a key it is known as already-done; without one, not-found.
      expect(await client.cancel(topic, { key: 'c-flight' })).toMatchObject({ status: 'already-done' });
      expect(await client.reschedule(topic, { key: 'c-flight' }, { delayMs: 5 })).toMatchObject({
        status: 'already-done',
      });
      await sub.close();
    });

    it('across groups: cancel is all-or-nothing, getMessage shows each group, reschedule to a past time means now', async () => {
      const topic = topicName('multi');
      await client.createTopic(topic);
      await client.createGroup(topic, 'other');
      const holding: Message[] = [];
      const { sub } = collect(topic, { mode: 'manual', leaseMs: 60_000 }, (m) => {
        holding.push(m);
      });
      const id = await client.publish(topic, 'm', { key: 'multi-key' });
      await eventually(() => holding.length === 1, 20_000, 'the delivery in default');
      // In flight in one group, pending in the other: nothing changes.
      expect(await client.cancel(topic, id)).toEqual({ status: 'in-flight', id });
      const during = await client.getMessage(topic, { key: 'multi-key' });
      const byGroup = Object.fromEntries(during.groups.map((g) => [g.group, g]));
      expect(byGroup['default']).toMatchObject({
        state: 'in-flight',
        attempt: 1,
        dueAtMs: holding[0]!.leaseExpiresAtMs,
      });
      expect(byGroup['other']).toMatchObject({ state: 'pending', attempt: 0 });
      await holding[0]!.ack();
      const after = Object.fromEntries(
        (await client.getMessage(topic, id)).groups.map((g) => [g.group, g.state]),
      );
      expect(after).toEqual({ default: 'done', other: 'pending' });
      const before = Date.now();
      const r = await client.reschedule(topic, id, { deliverAt: before - 60_000 });
      expect(r.status).toBe('rescheduled');
      expect(r.dueAtMs).toBeGreaterThanOrEqual(before - NODE_CLOCK_LAG_MS);
      const other = collect(topic, { group: 'other' });
      await eventually(() => other.got.length === 1, 20_000, 'the delivery in other');
      expect(other.got[0]).toMatchObject({ id, attempt: 1 });
      await eventually(
        async () => (await client.cancel(topic, id)).status === 'already-done',
        20_000,
        'done everywhere',
      );
      await Promise.all([sub.close(), other.sub.close()]);
    });

    it('a message whose ttl runs out unacked is removed; deliverAt in the past is due now', async () => {
      const topic = await createdTopic(client, 'ttl');
      const before = Date.now();
      const past = await client.publishDetailed(topic, 'p', {
        deliverAt: before - 60_000,
        delayMs: undefined,
      });
      expect(past.dueAtMs).toBeGreaterThanOrEqual(before - NODE_CLOCK_LAG_MS);
      const id = await client.publish(topic, 'short-lived', { ttlMs: 300 });
      expect((await client.getMessage(topic, id)).message.expireAtMs).toBeGreaterThan(0);
      await eventually(
        async () => (await client.getMessage(topic, id).catch((e: unknown) => e)) instanceof NotFoundError,
        20_000,
        'the expired message to be gone',
      );
      expect((await client.topicStats(topic)).groups[0]).toMatchObject({ pending: 1, inFlight: 0 });
    });

    it('reschedule moves a pending message (delayMs or deliverAt) and it is delivered then, not before', async () => {
      const topic = await createdTopic(client, 'reschedule');
      const id = await client.publish(topic, 'r', { delayMs: LATER_MS, key: 'r-1' });
      const at = Date.now() + 2 * LATER_MS;
      const r1 = await client.reschedule(topic, { key: 'r-1' }, { deliverAt: new Date(at) });
      expect(r1).toEqual({ status: 'rescheduled', dueAtMs: at, id });
      expect((await client.getMessage(topic, id)).groups[0]).toMatchObject({ state: 'pending', dueAtMs: at });
      const listed = await client.listMessages(topic, { fromDueMs: at, toDueMs: at + 1 });
      expect(listed.messages.map((m) => m.message.id)).toEqual([id]);
      const r2 = await client.reschedule(topic, id, { delayMs: 700 });
      expect(r2.status).toBe('rescheduled');
      expect(r2.dueAtMs).toBeLessThan(at);
      const { got, sub } = collect(topic, {});
      await eventually(() => got.length === 1, 20_000, 'the rescheduled delivery');
      expect(got[0]!.id).toBe(id);
      expect(got[0]!.receivedAtMs).toBeGreaterThanOrEqual(r2.dueAtMs);
      expect(await client.reschedule(topic, 424_242n, { delayMs: 5 })).toMatchObject({ status: 'not-found' });
      await sub.close();
    });

    it('getMessage names the state in every group; listMessages pages by due time; iterateMessages walks them all', async () => {
      const topic = topicName('list');
      await client.createTopic(topic);
      await client.createGroup(topic, 'audit');
      const base = Date.now() + LATER_MS;
      // 25 messages due 1 ms apart, published in shuffled order.
      const order = Array.from({ length: 25 }, (_, i) => (i * 7) % 25);
      const results = await client.publishBatch(
        order.map((i) => ({ topic, payload: `L${i}`, deliverAt: base + i })),
      );
      const idByDue = new Map(order.map((i, k) => [i, results[k]!.id]));
      const expected = Array.from({ length: 25 }, (_, i) => idByDue.get(i)!);

      const d = await client.getMessage(topic, expected[3]!);
      expect(d.groups.map((g) => [g.group, g.state, g.dueAtMs]).sort()).toEqual([
        ['audit', 'pending', base + 3],
        ['default', 'pending', base + 3],
      ]);

      const p1 = await client.listMessages(topic, { limit: 10 });
      expect(p1.messages.map((m) => m.message.id)).toEqual(expected.slice(0, 10));
      expect(p1.messages[0]).toMatchObject({ state: 'pending', dueAtMs: base, attempt: 0 });
      expect(p1.nextPageToken).toBeDefined();
      const p2 = await client.listMessages(topic, { limit: 10, pageToken: p1.nextPageToken! });
      expect(p2.messages.map((m) => m.message.id)).toEqual(expected.slice(10, 20));
      const p3 = await client.listMessages(topic, { limit: 10, pageToken: p2.nextPageToken! });
      expect(p3.messages.map((m) => m.message.id)).toEqual(expected.slice(20));
      expect(p3.nextPageToken).toBeUndefined();

      const pages: number[] = [];
      for await (const page of client.listMessagePages(topic, { limit: 7, group: 'audit' }))
        pages.push(page.messages.length);
      expect(pages).toEqual([7, 7, 7, 4]);

      const walked: bigint[] = [];
      for await (const m of client.iterateMessages(topic, {
        limit: 4,
        fromDueMs: base + 5,
        toDueMs: base + 15,
      }))
        walked.push(m.message.id);
      expect(walked).toEqual(expected.slice(5, 15));
      await rejection(client.getMessage(topic, 1n << 60n), NotFoundError);
    });
  });

  describe('admin', () => {
    it('topics and groups: create, update exactly what is given, list, stats, delete', async () => {
      const topic = topicName('admin');
      const created = await client.createTopic(topic, {
        maxAttempts: 4,
        defaultLeaseMs: 5_000,
        expiryAction: 'dead-letter',
        dedupWindowMs: 60_000,
      });
      expect(created).toMatchObject({
        name: topic,
        groups: ['default'],
        settings: {
          maxAttempts: 4,
          defaultLeaseMs: 5_000,
          expiryAction: 'dead-letter',
          dedupWindowMs: 60_000,
          timeBucketMs: 0,
        },
      });
      await rejection(client.createTopic(topic), AlreadyExistsError);

      const updated = await client.updateTopic(topic, { maxAttempts: 9 });
      expect(updated.settings).toEqual({ ...created.settings, maxAttempts: 9 });
      expect((await client.listTopics()).find((t) => t.name === topic)?.settings.maxAttempts).toBe(9);

      expect((await client.createGroup(topic, 'billing')).groups.sort()).toEqual(['billing', 'default']);
      await rejection(client.createGroup(topic, 'billing'), AlreadyExistsError);
      await client.publish(topic, 'x', { delayMs: LATER_MS });
      await client.publish(topic, 'y', { delayMs: 2 * LATER_MS });
      const stats = await client.topicStats(topic);
      expect(stats.topic).toBe(topic);
      const byGroup = Object.fromEntries(stats.groups.map((g) => [g.group, g]));
      expect(byGroup['billing']).toMatchObject({ pending: 2, inFlight: 0, deadLettered: 0 });
      expect(byGroup['default']).toMatchObject({ pending: 2, inFlight: 0, deadLettered: 0 });
      expect(byGroup['default']!.nextDueMs).toBeGreaterThan(Date.now() + LATER_MS / 2);

      expect(await client.deleteGroup(topic, 'billing')).toBe(2n);
      // Deleted at once; its records go in purge steps, and until then stats show it being deleted.
      await eventually(
        async () => (await client.topicStats(topic)).deletions.length === 0,
        20_000,
        'the group purged',
      );
      expect((await client.topicStats(topic)).groups.map((g) => g.group)).toEqual(['default']);
      await rejection(client.deleteGroup(topic, 'billing'), NotFoundError);
      expect(await client.deleteTopic(topic)).toBe(2n);
      await eventually(
        () =>
          client.topicStats(topic).then(
            () => false,
            (err: unknown) => err instanceof NotFoundError,
          ),
        20_000,
        'the topic purged',
      );
      await rejection(client.topicStats(topic), NotFoundError);
      await rejection(client.deleteTopic(topic), NotFoundError);
      expect((await client.listTopics()).map((t) => t.name)).not.toContain(topic);
    });

    it('topicStats counts pending, in flight and dead-lettered; nextDueMs is undefined when nothing is pending', async () => {
      const topic = topicName('stats');
      await client.createTopic(topic, { maxAttempts: 1 });
      const holding: Message[] = [];
      const { sub } = collect(topic, { mode: 'manual', leaseMs: 60_000 }, async (m) => {
        if (m.text() === 'dead') await m.nack({ delayMs: 0 });
        else holding.push(m);
      });
      await client.publish(topic, 'dead', { key: 'dead-key' });
      await client.publish(topic, 'held');
      await eventually(
        async () => {
          const g = (await client.topicStats(topic)).groups[0]!;
          return g.deadLettered === 1 && g.inFlight === 1;
        },
        20_000,
        'one dead-lettered, one in flight',
      );
      expect((await client.topicStats(topic)).groups[0]).toMatchObject({
        pending: 0,
        inFlight: 1,
        deadLettered: 1,
      });
      // The dead letter went to the topic's dead-letter topic.
      const dlq = await client.listMessages(`${topic}.dlq`);
      expect(dlq.messages.map((m) => Buffer.from(m.message.payload).toString())).toEqual(['dead']);
      // A dead-lettered message has ended: cancel and reschedule answer already-done.
      expect(await client.cancel(topic, { key: 'dead-key' })).toMatchObject({ status: 'already-done' });
      expect(await client.reschedule(topic, { key: 'dead-key' }, { delayMs: 0 })).toMatchObject({
        status: 'already-done',
      });
      await holding[0]!.ack();
      // A group without settings of its own: no limit, no ordering, not paused, nothing throttled.
      expect((await client.topicStats(topic)).groups).toEqual([
        {
          group: 'default',
          pending: 0,
          inFlight: 0,
          deadLettered: 1,
          nextDueMs: undefined,
          paused: false,
          throttled: 0,
          settings: { maxDeliveriesPerSecond: 0, burst: 0, maxInFlight: 0, ordering: 'none', paused: false },
        },
      ]);
      await sub.close();
    });

    it('clusterInfo on one node: it is the leader and the only voter', async () => {
      const info = await client.clusterInfo();
      const node = cluster.nodes[0]!;
      expect(info).toMatchObject({
        clusterId: 'fermata-test',
        nodeId: node.id,
        leaderId: node.id,
        leaderAddress: node.clientAddress,
      });
      expect(info.term).toBeGreaterThan(0n);
      expect(info.appliedIndex).toBeGreaterThan(0n);
      expect(info.commitIndex).toBeGreaterThanOrEqual(info.appliedIndex);
      expect(info.members).toEqual([
        expect.objectContaining({
          id: node.id,
          address: node.clientAddress,
          peerAddress: node.peerAddress,
          role: 'leader',
          voter: true,
        }),
      ]);
      expect(client.leaderAddress).toBe(node.clientAddress);
    });
  });

  describe('typed errors', () => {
    it('LimitError names the limit (payload, batch size, groups per topic)', async () => {
      const topic = topicName('limits');
      const payload = await rejection(client.publish(topic, Buffer.alloc(MAX_PAYLOAD_BYTES + 1)), LimitError);
      expect(payload).toMatchObject({ code: StatusCode.RESOURCE_EXHAUSTED, limit: 'maxPayloadBytes' });
      // publish() reports the field without the batch position it never showed.
      expect(payload.field).toBe('payload');
      const batch = await rejection(
        client.publishBatch(Array.from({ length: 1001 }, (_, i) => ({ topic, payload: `${i}` }))),
        LimitError,
      );
      expect(batch.limit).toBe('maxBatchMessages');
      await client.createTopic(topic);
      for (let i = 1; i < MAX_GROUPS_PER_TOPIC; i++) await client.createGroup(topic, `g${i}`);
      const groups = await rejection(client.createGroup(topic, 'one-too-many'), LimitError);
      expect(groups.limit).toBe('maxGroupsPerTopic');
    });

    it('InvalidArgumentError names the field (and the bound when one was broken)', async () => {
      const name = await rejection(client.publish('bad topic!', 'x'), InvalidArgumentError);
      expect(name).toMatchObject({ code: StatusCode.INVALID_ARGUMENT, field: 'topic' });
      const delay = await rejection(
        client.publish(topicName('inv'), 'x', { delayMs: 731 * 86_400_000 }),
        InvalidArgumentError,
      );
      expect(delay.field).toBe('delay_ms');
      expect(delay.limit).toBe('maxDelayMs');
      // Checked locally, before anything is sent.
      const both = await rejection(
        client.publish(topicName('inv'), 'x', { delayMs: 5, deliverAt: Date.now() }),
        InvalidArgumentError,
      );
      expect(both.field).toBe('delayMs');
      const key = await rejection(client.cancel(topicName('inv'), { key: '' }), InvalidArgumentError);
      expect(key.field).toBe('key');
      const defaultGroup = await rejection(
        client.deleteGroup(topicName('inv'), 'default'),
        InvalidArgumentError,
      );
      expect(defaultGroup.field).toBe('group');
    });

    it('NotFoundError for an unknown topic, group or message; ClosedError after close()', async () => {
      await rejection(client.topicStats('sdk-no-such-topic'), NotFoundError);
      await rejection(client.updateTopic('sdk-no-such-topic', { maxAttempts: 2 }), NotFoundError);
      await rejection(client.createGroup('sdk-no-such-topic', 'g'), NotFoundError);
      const topic = topicName('nf');
      await client.createTopic(topic);
      await rejection(client.getMessage(topic, { key: 'nope' }), NotFoundError);
      await rejection(client.deleteGroup(topic, 'nope'), NotFoundError);
      const other = new FermataClient({ endpoints: cluster.endpoints.join(','), deadlineMs: 30_000 });
      expect((await other.clusterInfo()).leaderId).toBe(cluster.nodes[0]!.id);
      await other.close();
      await rejection(other.publish(topic, 'x'), ClosedError);
      expect(() => other.subscribe(topic, () => {})).toThrow(ClosedError);
    });
  });
});
