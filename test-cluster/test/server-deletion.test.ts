/**
 * Deleting a topic on real nodes (docs/design.md, "Every apply is bounded"):
 * DeleteTopic answers at once and the topic takes nothing more; its records
 * are removed by purge steps the leader proposes, none of which touches more
 * records than one command's bound (each node reports the most one command
 * touched, and the bound, on /metrics); a leader killed mid-way leaves the
 * removal to the next one; meanwhile another topic's publishes are answered.
 */
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, NodeClients, startCluster } from '../src/index.js';
import { eventually, expectStatus, metric, msg, onLeader, publish, uniqueTopic } from './support.js';

/** A small bound (100 items of a command), so that a topic of 4,000 messages is far past it. */
const ENV = {
  FERMATA_LIMITS__MAX_BATCH_MESSAGES: '100',
  FERMATA_LIMITS__MAX_TAGS_PER_COMMAND: '100',
  FERMATA_LIMITS__MAX_IDS_PER_COMMAND: '100',
  FERMATA_LIMITS__MAX_SCHEDULE_FIRES_PER_COMMAND: '100',
  FERMATA_DELETION__PAUSE_MS: '40',
};
const MESSAGES = 4_000;

describe('deleting a large topic', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ nodes: 3, env: ENV });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('is marked at once, removed in bounded steps across a leader change, and other topics go on', async () => {
    const big = uniqueTopic('big');
    const other = uniqueTopic('other');
    await onLeader(cluster, (c) => c.createTopic({ name: big }));
    await onLeader(cluster, (c) => c.createGroup({ topic: big, group: 'audit' }));
    for (let i = 0; i < MESSAGES; i += 100) {
      const batch = Array.from({ length: 100 }, (_, j) =>
        msg(big, `m${i + j}`, {
          delayMs: 60_000,
          ...((i + j) % 4 === 0 ? { key: `k${i + j}` } : {}),
          ...((i + j) % 5 === 0 ? { ttlMs: 3_600_000 } : {}),
        }),
      );
      await onLeader(cluster, (c) => publish(c, batch));
    }
    const leader = await cluster.leader();
    const c = new NodeClients(leader.clientAddress);
    // A consumer of the topic: its stream ends when the deletion applies.
    const consumer = await c.consume({ topic: big, group: 'default', prefetch: 4 });
    try {
      const deleted = await c.deleteTopic(big);
      expect(Number(deleted.removedMessages)).toBe(MESSAGES);
      const ended = await consumer.waitEnded();
      expect(ended.code).toBe(status.FAILED_PRECONDITION);
      expect(ended.details).toMatch(/being deleted/);
      // Nothing new is taken for it.
      const refused = await expectStatus(
        c.publish({ messages: [msg(big, 'late')] }),
        status.FAILED_PRECONDITION,
      );
      expect(refused.details).toContain(big);
      const stats = await c.topicStats(big);
      expect(stats.deletions).toHaveLength(1);
      expect(Number(stats.deletions[0]!.entriesAtStart)).toBe(2 * MESSAGES);

      // Mid-way, the leader dies: the next one resumes from the replicated cursor.
      await eventually(
        async () => {
          const s = await c.topicStats(big);
          return Number(s.deletions[0]?.removedEntries ?? 0) > 0;
        },
        60_000,
        'the first purge steps',
      );
      await leader.kill('SIGKILL');
    } finally {
      consumer.cancel();
      c.close();
    }
    // Another topic's publishes are answered throughout.
    let answered = 0;
    const publishing = (async () => {
      while (answered < 20) {
        await onLeader(cluster, (x) => publish(x, [msg(other, `o${answered}`, { key: `o${answered}` })]));
        answered++;
      }
    })();
    await eventually(
      async () => {
        try {
          await onLeader(cluster, (x) => x.topicStats(big));
          return false;
        } catch (err) {
          return (err as { code?: number }).code === status.NOT_FOUND;
        }
      },
      120_000,
      'the deletion to complete on the next leader',
    );
    await publishing;
    expect(answered).toBe(20);
    await leader.start();
    await leader.waitReady();
    for (const n of cluster.nodes) {
      await eventually(
        async () => (await metric(n, 'fermata_deletions_in_progress')) === 0,
        60_000,
        `${n.id} to apply the end of the deletion`,
      );
      const most = await metric(n, 'fermata_apply_command_records_max');
      const bound = await metric(n, 'fermata_apply_command_bound_records');
      expect({ node: n.id, most: most <= bound }).toEqual({ node: n.id, most: true });
    }
    // The survivors applied every purge step: the most one of their commands touched stays
    // within the bound, far below what removing the topic at once took (~6 per entry).
    for (const n of cluster.nodes.filter((x) => x !== leader)) {
      expect(await metric(n, 'fermata_apply_command_records_max')).toBeLessThan(2 * MESSAGES);
    }
    // The name is free again, with nothing of the old topic in it.
    await onLeader(cluster, (x) => publish(x, [msg(big, 'again', { key: 'k0' })]));
    const fresh = await onLeader(cluster, (x) => x.topicStats(big));
    expect(fresh.groups.map((g) => [g.group, Number(g.pending)])).toEqual([['default', 1]]);
  });
});

describe('a topic being deleted, on a cluster that creates topics only explicitly', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({
      nodes: 1,
      autoCreateTopics: false,
      // Small steps, paused: the deletion lasts a few seconds.
      env: { FERMATA_DELETION__MAX_RECORDS_PER_STEP: '10', FERMATA_DELETION__PAUSE_MS: '100' },
    });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('takes no subscription nor publish, and once removed its name is unknown, not created again', async () => {
    const topic = uniqueTopic('going');
    const c = new NodeClients((await cluster.leader()).clientAddress);
    try {
      await c.createTopic({ name: topic });
      for (let i = 0; i < 300; i += 100) {
        await publish(
          c,
          Array.from({ length: 100 }, (_, j) => msg(topic, `m${i + j}`, { delayMs: 60_000 })),
        );
      }
      await c.deleteTopic(topic);
      const subscribing = await expectStatus(
        c.consume({ topic, group: 'default', prefetch: 1 }, { create: false }),
        status.FAILED_PRECONDITION,
      );
      expect(subscribing.details).toMatch(/being deleted/);
      const publishing = await expectStatus(
        c.publish({ messages: [msg(topic, 'late')] }),
        status.FAILED_PRECONDITION,
      );
      expect(publishing.details).toMatch(/being deleted/);
      expect((await c.topicStats(topic)).deletions).toHaveLength(1);
      await eventually(
        async () => {
          try {
            await c.topicStats(topic);
            return false;
          } catch (err) {
            return (err as { code?: number }).code === status.NOT_FOUND;
          }
        },
        60_000,
        'the deletion to complete',
      );
      // Gone: a publish names an unknown topic (topics.autoCreate is off), and creates nothing.
      const unknown = await expectStatus(c.publish({ messages: [msg(topic, 'after')] }), status.NOT_FOUND);
      expect(unknown.details).toContain(topic);
      await expectStatus(c.topicStats(topic), status.NOT_FOUND);
    } finally {
      c.close();
    }
  });
});
