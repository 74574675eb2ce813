/**
 * Delivery controls through the SDK against three real `fermata serve`
 * processes: group settings (set, changed, shown, refused with the field
 * named), per-message ordering keys and deadlines as stored, pause and
 * resume across a restart of every node, and deadlines: a message past its
 * deadline is dead-lettered (or dropped) and never delivered.
 */
import {
  DEAD_LETTER_HEADERS,
  FermataClient,
  InvalidArgumentError,
  type Message,
  NotFoundError,
} from '@fermata/sdk';
import { describe, expect, it } from 'vitest';
import { sleep } from '../src/index.js';
import { createdTopic, rejection, threeNodeSuite } from './sdk-support.js';
import { eventually } from './support.js';

const NO_LIMITS = { maxDeliveriesPerSecond: 0, burst: 0, maxInFlight: 0 };

describe('delivery controls on a three-node cluster', () => {
  const suite = threeNodeSuite(30);

  it('group settings are set at create, changed by mask, shown in the topic and its stats', async () => {
    const topic = await createdTopic(suite.client, 'group-settings');
    const created = await suite.client.createGroup(topic, 'slow', {
      maxDeliveriesPerSecond: 50,
      burst: 100,
      maxInFlight: 10,
    });
    expect(created.groupSettings).toEqual({
      default: { ...NO_LIMITS, ordering: undefined, paused: false },
      slow: { maxDeliveriesPerSecond: 50, burst: 100, maxInFlight: 10, ordering: undefined, paused: false },
    });
    // Only what is named changes: the rate and burst stay, the in-flight limit goes.
    const updated = await suite.client.updateGroup(topic, 'slow', { maxInFlight: 0, ordering: 'key' });
    expect(updated.groupSettings['slow']).toEqual({
      maxDeliveriesPerSecond: 50,
      burst: 100,
      maxInFlight: 0,
      ordering: 'key',
      paused: false,
    });
    await suite.client.updateTopic(topic, { maxLatenessMs: 60_000, deadlineAction: 'drop' });
    // A client that knows only a follower finds the leader and reads what it applied.
    const follower = suite.cluster.others(await suite.cluster.leader())[0]!;
    const viaFollower = new FermataClient({ endpoints: [follower.clientAddress] });
    try {
      const stats = await viaFollower.topicStats(topic);
      const byGroup = Object.fromEntries(stats.groups.map((g) => [g.group, g]));
      // Effective settings: the default group takes the topic's ordering; a burst is resolved.
      expect(byGroup['default']).toMatchObject({
        settings: { ...NO_LIMITS, ordering: 'none', paused: false },
        paused: false,
        throttled: 0,
      });
      expect(byGroup['slow']).toMatchObject({
        settings: { maxDeliveriesPerSecond: 50, burst: 100, maxInFlight: 0, ordering: 'key' },
        paused: false,
      });
      const [listed] = (await viaFollower.listTopics()).filter((t) => t.name === topic);
      expect(listed?.settings).toMatchObject({
        maxLatenessMs: 60_000,
        deadlineAction: 'drop',
        ordering: 'none',
        paused: false,
      });
    } finally {
      await viaFollower.close();
    }
  });

  it('bad group settings are refused with the field or limit named, and change nothing', async () => {
    const topic = await createdTopic(suite.client, 'group-refusals');
    await suite.client.createGroup(topic, 'g', { maxDeliveriesPerSecond: 10 });
    // Bounds of a value, not a resource: INVALID_ARGUMENT, naming the limit and the field.
    const rate = await rejection(
      suite.client.updateGroup(topic, 'g', { maxDeliveriesPerSecond: 100_001 }),
      InvalidArgumentError,
    );
    expect({ limit: rate.limit, field: rate.field }).toEqual({
      limit: 'maxDeliveriesPerSecond',
      field: 'settings.max_deliveries_per_second',
    });
    const burst = await rejection(suite.client.createGroup(topic, 'h', { burst: 5 }), InvalidArgumentError);
    expect(burst.field).toBe('settings.burst');
    const inFlight = await rejection(
      suite.client.updateGroup(topic, 'g', { maxInFlight: 1_000_001 }),
      InvalidArgumentError,
    );
    expect({ limit: inFlight.limit, field: inFlight.field }).toEqual({
      limit: 'maxMaxInFlight',
      field: 'settings.max_in_flight',
    });
    // Clearing the rate of a group with a burst leaves a burst without a rate.
    await suite.client.updateGroup(topic, 'g', { burst: 20 });
    const cleared = await rejection(
      suite.client.updateGroup(topic, 'g', { maxDeliveriesPerSecond: 0 }),
      InvalidArgumentError,
    );
    expect(cleared.field).toBe('settings.burst');
    await rejection(suite.client.updateGroup(topic, 'nope', { paused: true }), NotFoundError);
    const lateness = await rejection(
      suite.client.updateTopic(topic, { maxLatenessMs: 2 ** 50 }),
      InvalidArgumentError,
    );
    expect(lateness.field).toBe('settings.max_lateness_ms');
    const [t] = (await suite.client.listTopics()).filter((x) => x.name === topic);
    expect(t?.groupSettings['g']).toMatchObject({ maxDeliveriesPerSecond: 10, burst: 20 });
    expect(t?.groups).toEqual(['default', 'g']);
  });

  it('a message keeps its ordering key and deadline; a deadline before the due time is refused', async () => {
    const topic = await createdTopic(suite.client, 'message-controls');
    const now = Date.now();
    const id = await suite.client.publish(topic, 'x', {
      delayMs: 600_000,
      orderingKey: 'customer-7',
      deliverBefore: now + 3_600_000,
    });
    const got = await suite.client.getMessage(topic, { id });
    expect(got.message).toMatchObject({ orderingKey: 'customer-7', deliverBeforeMs: now + 3_600_000 });
    const early = await rejection(
      suite.client.publish(topic, 'y', { delayMs: 600_000, deliverBefore: now + 1_000 }),
      InvalidArgumentError,
    );
    // One message's publish names the field without its place in the batch (the SDK strips it).
    expect(early.field).toBe('deliver_before_ms');
    // The topic's lateness gives a message without its own deadline one: its due time plus it.
    await suite.client.updateTopic(topic, { maxLatenessMs: 5_000 });
    const r = await suite.client.publishDetailed(topic, 'z', { delayMs: 600_000 });
    expect((await suite.client.getMessage(topic, { id: r.id })).message.deliverBeforeMs).toBe(
      r.dueAtMs + 5_000,
    );
  });

  it('a pause stops new deliveries, survives a restart of every node, and a resume delivers', async () => {
    const topic = await createdTopic(suite.client, 'pause');
    await suite.client.createGroup(topic, 'audit');
    await suite.client.updateTopic(topic, { paused: true });
    const got: string[] = [];
    const sub = suite.client.subscribe(topic, { group: 'audit' }, async (m) => {
      got.push(m.text());
    });
    try {
      // Publishes are taken while paused; nothing is delivered.
      await suite.client.publishBatch(['a', 'b', 'c'].map((payload) => ({ topic, payload })));
      await sleep(1_500);
      expect(got).toEqual([]);
      const paused = await suite.client.topicStats(topic);
      expect(paused.groups.map((g) => [g.group, g.paused, g.pending])).toEqual([
        ['default', true, 3],
        ['audit', true, 3],
      ]);
      const metrics = async () => (await (await suite.cluster.leader()).httpGet('/metrics')).body;
      await eventually(
        async () => (await metrics()).includes(`fermata_paused{topic="${topic}",group="audit"} 1`),
        20_000,
        'the paused gauge',
      );

      // Every node stops and starts again: the pause is in the replicated topic record.
      for (const node of suite.cluster.nodes) await node.stop();
      await Promise.all(suite.cluster.nodes.map((node) => node.start()));
      await suite.cluster.waitForLeader();
      await sleep(1_500);
      expect(got).toEqual([]);
      expect((await suite.client.topicStats(topic)).groups.every((g) => g.paused)).toBe(true);

      // The topic resumes; the group was never paused by its own flag: it delivers.
      await suite.client.updateTopic(topic, { paused: false });
      await eventually(() => got.length === 3, 30_000, 'three deliveries after the resume');
      expect([...got].sort()).toEqual(['a', 'b', 'c']);
      await eventually(
        async () => (await metrics()).includes(`fermata_paused{topic="${topic}",group="audit"} 0`),
        20_000,
        'the paused gauge back at 0',
      );
    } finally {
      await sub.close();
    }
  }, 240_000);

  it('a message past its deadline is dead-lettered with deadline_exceeded and never delivered, also after a nack', async () => {
    const topic = await createdTopic(suite.client, 'deadline');
    // Dead letters are kept (not acked), so GetMessage shows them.
    const letters: Message[] = [];
    const dlqSub = suite.client.subscribe(`${topic}.dlq`, { mode: 'manual', leaseMs: 60_000 }, async (m) => {
      letters.push(m);
    });
    const deliveries: Message[] = [];
    // Nobody consumes `late` before its deadline: it ends there (the janitor's sweep, as a TTL).
    const late = await suite.client.publish(topic, 'late', { deliverBefore: Date.now() + 1_500 });
    await eventually(() => letters.length === 1, 30_000, 'the dead letter of late');
    // The first attempt of `nacked` runs past its deadline, then fails: it is never delivered again.
    let deadline = 0;
    const sub = suite.client.subscribe(
      topic,
      { leaseMs: 20_000, retryBackoff: { initialMs: 0, jitter: 0 } },
      async (m) => {
        deliveries.push(m);
        if (m.text() === 'nacked') {
          await sleep(Math.max(0, deadline - Date.now()) + 500);
          throw new Error('too slow');
        }
      },
    );
    try {
      deadline = Date.now() + 2_000;
      const nacked = await suite.client.publish(topic, 'nacked', { deliverBefore: deadline });
      await eventually(() => letters.length === 2, 30_000, 'the dead letter of nacked');
      await sleep(1_000);
      expect(deliveries.map((m) => [m.text(), m.attempt])).toEqual([['nacked', 1]]);
      const byText = Object.fromEntries(letters.map((m) => [m.text(), m]));
      expect(byText['late']?.headers).toMatchObject({
        [DEAD_LETTER_HEADERS.reason]: 'deadline_exceeded',
        [DEAD_LETTER_HEADERS.sourceId]: String(late),
        [DEAD_LETTER_HEADERS.attempts]: '0',
      });
      expect(byText['nacked']?.deadLetter).toMatchObject({
        reason: 'deadline_exceeded',
        sourceId: nacked,
        attempts: 1,
        lastError: 'too slow',
      });
      // Its history, read back: the dead letter says why, after how many attempts.
      const got = await suite.client.getMessage(`${topic}.dlq`, { id: byText['nacked']!.id });
      expect(got.message.headers).toMatchObject({
        [DEAD_LETTER_HEADERS.reason]: 'deadline_exceeded',
        [DEAD_LETTER_HEADERS.sourceId]: String(nacked),
        [DEAD_LETTER_HEADERS.attempts]: '1',
      });
      const metrics = (await (await suite.cluster.leader()).httpGet('/metrics')).body;
      expect(metrics).toContain(
        `fermata_deadline_exceeded_total{topic="${topic}",group="default",action="dead-letter"} 2`,
      );
    } finally {
      await sub.close();
      await dlqSub.close();
    }
  }, 120_000);

  it("under the topic's deadline action drop, a message past its max lateness is removed unseen", async () => {
    const topic = await createdTopic(suite.client, 'deadline-drop');
    await suite.client.updateTopic(topic, { maxLatenessMs: 1_000, deadlineAction: 'drop' });
    await suite.client.publish(topic, 'gone');
    await eventually(
      async () => (await suite.client.topicStats(topic)).groups[0]?.pending === 0,
      30_000,
      'the message dropped',
    );
    const got: string[] = [];
    const sub = suite.client.subscribe(topic, async (m) => {
      got.push(m.text());
    });
    try {
      await suite.client.publish(topic, 'kept');
      await eventually(() => got.length === 1, 30_000, 'the next message delivered');
      expect(got).toEqual(['kept']);
      expect((await suite.client.listTopics()).map((t) => t.name)).not.toContain(`${topic}.dlq`);
      const metrics = (await (await suite.cluster.leader()).httpGet('/metrics')).body;
      expect(metrics).toContain(
        `fermata_deadline_exceeded_total{topic="${topic}",group="default",action="drop"} 1`,
      );
    } finally {
      await sub.close();
    }
  }, 120_000);
});
