/**
 * Three real nodes that snapshot and compact their logs often: a follower that
 * was down while the log moved past it catches up by InstallSnapshot, and as
 * leader it holds exactly the messages the cluster acknowledged.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, i64, NodeClients, retryUnavailable, startCluster } from '../src/index.js';
import { counts, eventually, idOf, msg, onLeader, publish, uniqueTopic } from './support.js';

describe('a follower that missed compacted entries', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster({
      nodes: 3,
      env: {
        FERMATA_RAFT__SNAPSHOT_EVERY_ENTRIES: '20',
        FERMATA_RAFT__SNAPSHOT_KEEP_ENTRIES: '5',
        // 4 MiB entries on two busy shared cores stall event loops past a 500 ms election timeout.
        FERMATA_RAFT__ELECTION_TICKS: '30',
      },
    });
  });
  afterEach((ctx) => {
    if (ctx.task.result?.state === 'fail') console.error(cluster.logs(40));
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('catches up by snapshot and, as leader, delivers exactly what was acknowledged', {
    timeout: 120_000,
  }, async () => {
    const leader = await cluster.leader();
    const follower = cluster.others(leader)[0]!;
    const topic = uniqueTopic('snap');
    const ids = new Set<string>();
    await onLeader(cluster, (c) => c.createTopic({ name: topic }));
    await onLeader(cluster, (c) => c.createGroup({ topic, group: 'audit' }));
    await follower.kill('SIGKILL');
    for (let b = 0; b < 100; b++) {
      // Keyed, so a publish retried on a new leader is deduplicated.
      const messages = Array.from({ length: 10 }, (_, i) =>
        msg(topic, `s${b * 10 + i}`, { key: `k${b * 10 + i}` }),
      );
      const r = await onLeader(cluster, (c) => c.publish({ messages }));
      for (const x of r.results) ids.add(idOf(x));
    }
    expect(ids.size).toBe(1000);
    // Compaction deletes whole log segments (64 MiB): write past one, then more than
    // snapshotEveryEntries entries, so a snapshot is taken and the full segment is deleted:
    // the follower's next entry is gone from every log. Bulk goes to another topic.
    const bulk = uniqueTopic('bulk');
    const payload = Buffer.alloc(4000, 7);
    for (let b = 0; b < 18; b++) {
      const messages = Array.from({ length: 1000 }, () => ({ topic: bulk, payload, delayMs: i64(600_000) }));
      await onLeader(cluster, (c) => c.publish({ messages }));
    }
    for (let b = 0; b < 30; b++)
      await onLeader(cluster, (c) => c.publish({ messages: [msg(bulk, `t${b}`, { delayMs: 600_000 })] }));
    // Some state beyond publishes: 300 deliveries of the default group acked.
    await onLeader(cluster, async (c) => {
      const s = await c.consume({ topic, prefetch: 300, leaseMs: i64(60_000) });
      try {
        const got = await s.waitForCount(300);
        s.credit(0); // no more deliveries once these are acked
        const r = await s.ack(got.slice(0, 300).map((g) => g.delivery.tag));
        if (r.error) throw Object.assign(new Error(r.error.message ?? ''), { code: r.error.code, meta: {} });
      } finally {
        s.cancel();
      }
    });
    await eventually(
      async () => (await onLeader(cluster, (c) => counts(c, topic)))?.['default']?.inFlight === 0,
      20_000,
      'acks applied',
    );
    const expected = await onLeader(cluster, (c) => counts(c, topic));
    expect(expected).toEqual({
      default: { pending: 700, inFlight: 0, deadLettered: 0 },
      audit: { pending: 1000, inFlight: 0, deadLettered: 0 },
    });

    await follower.start();
    await follower.waitReady();
    await eventually(
      async () => {
        const [l, f] = await Promise.all([(await cluster.leader()).status(), follower.status()]);
        return l !== undefined && f !== undefined && f.applied >= l.commit;
      },
      60_000,
      'the follower to apply everything committed',
    );
    expect(follower.logLines('raft: snapshot installed').length).toBeGreaterThan(0);

    await onLeader(cluster, (c) => c.transferLeadership(follower.id));
    expect((await cluster.leader()).id).toBe(follower.id);
    const fc = new NodeClients(follower.clientAddress);
    try {
      expect(await counts(fc, topic)).toEqual(expected);
      // The audit group still has every message, once.
      const s = await retryUnavailable(() =>
        fc.consume({ topic, group: 'audit', prefetch: 1000, leaseMs: i64(60_000) }),
      );
      const got = await s.waitForCount(1000);
      expect(new Set(got.map((g) => idOf(g.delivery)))).toEqual(ids);
      s.cancel();
      // Keys survived the snapshot: a republish is deduplicated.
      const again = await publish(fc, [msg(topic, 'dup', { key: 'k7' })]);
      expect(again.results[0]?.deduplicated).toBe(true);
    } finally {
      fc.close();
    }
  });
});
