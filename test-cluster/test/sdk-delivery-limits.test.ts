/**
 * Rate and in-flight limits of a group through the SDK against three real
 * `fermata serve` processes. The bounds are checked on the lease starts the
 * leader gave the deliveries (`lease_expires_at_ms` less the lease), by the
 * leader's clock: a correctness bound on what consumers were given, not a
 * timing of this machine.
 */
import type { FermataClient } from '@fermata/sdk';
import { describe, expect, it } from 'vitest';
import { type Cluster, sleep } from '../src/index.js';
import { clientOf, createdTopic, threeNodeSuite } from './sdk-support.js';
import { eventually } from './support.js';

const RATE = 100;
const BURST = 10;
const LEASE_MS = 60_000;
/** The bounds' slack: "within 5 %". */
const SLACK = 0.05;

/** Most lease starts in any window of `windowMs` (closed: [a, a + windowMs]). */
function busiestWindow(starts: readonly number[], windowMs: number): { count: number; fromMs: number } {
  const sorted = [...starts].sort((a, b) => a - b);
  let best = { count: 0, fromMs: sorted[0] ?? 0 };
  let i = 0;
  for (let j = 0; j < sorted.length; j++) {
    while (sorted[j]! - sorted[i]! > windowMs) i++;
    if (j - i + 1 > best.count) best = { count: j - i + 1, fromMs: sorted[i]! };
  }
  return best;
}

/** Publishes `n` messages due at `dueAtMs`, in batches. */
async function publishDueAt(client: FermataClient, topic: string, n: number, dueAtMs: number): Promise<void> {
  for (let at = 0; at < n; at += 250) {
    const batch = Array.from({ length: Math.min(250, n - at) }, (_, i) => ({
      topic,
      payload: `m-${at + i}`,
      deliverAt: dueAtMs,
    }));
    await client.publishBatch(batch);
  }
}

/**
 * A consumer of `group`: the messages it got and each lease's start, by delivery tag (a
 * delivery taken back by its consumer after a failover keeps its lease: one start).
 */
function leaseStarts(cluster: Cluster, topic: string, group: string) {
  const starts = new Map<string, number>();
  const ids = new Set<bigint>();
  const consumer = clientOf(cluster);
  const sub = consumer.subscribe(topic, { group, leaseMs: LEASE_MS, concurrency: 32 }, async (m) => {
    ids.add(m.id);
    starts.set(Buffer.from(m.tag).toString('hex'), m.leaseExpiresAtMs - LEASE_MS);
  });
  return {
    ids,
    starts: () => [...starts.values()],
    close: async () => {
      await sub.close();
      await consumer.close();
    },
  };
}

describe('group limits on a three-node cluster', () => {
  const suite = threeNodeSuite(40);

  it('1,500 messages due at once reach a group limited to 100/s (burst 10) no faster than that rate', {
    timeout: 180_000,
  }, async () => {
    const topic = await createdTopic(suite.client, 'rate');
    await suite.client.createGroup(topic, 'limited', { maxDeliveriesPerSecond: RATE, burst: BURST });
    const limited = leaseStarts(suite.cluster, topic, 'limited');
    try {
      await publishDueAt(suite.client, topic, 1_500, Date.now() + 3_000);
      // 1,500 at 100/s: about 15 s once due.
      await eventually(() => limited.ids.size === 1_500, 120_000, 'every message delivered');
      const starts = limited.starts();
      const first = Math.min(...starts);
      // The window comes from the deliveries' own times: its first lease start, and 10 s on.
      const inTen = starts.filter((t) => t >= first && t <= first + 10_000).length;
      // The limit is an upper bound: 10 s hold at most rate x 10 + burst lease starts. A busy
      // machine may start fewer (a stall longer than burst / rate leaves tokens unused), so the
      // rate reached is a benchmark's figure (`npm run bench -- limits`), not this test's.
      expect(inTen, `${inTen} deliveries in 10 s`).toBeLessThanOrEqual(
        Math.floor((RATE * 10 + BURST) * (1 + SLACK)),
      );
      // And all 1,500 take at least the time their tokens take.
      const last = Math.max(...starts);
      expect(last - first).toBeGreaterThanOrEqual(((1_500 - BURST) / RATE) * 1_000 * (1 - SLACK));
      // And no second more than its tokens: rate + burst.
      expect(busiestWindow(starts, 1_000).count).toBeLessThanOrEqual(
        Math.floor((RATE + BURST) * (1 + SLACK)),
      );
      // The lateness the limit caused is counted apart: in the leader's stats and metric.
      const stats = await suite.client.topicStats(topic);
      const throttled = stats.groups.find((g) => g.group === 'limited')?.throttled;
      expect(throttled).toBeGreaterThan(1_000);
      expect(stats.groups.find((g) => g.group === 'default')?.throttled).toBe(0);
      const line = (await (await suite.cluster.leader()).httpGet('/metrics')).body
        .split('\n')
        .find((l) =>
          l.startsWith(`fermata_delivery_throttled_total{topic="${topic}",group="limited",limit="rate"}`),
        );
      expect(Number(line?.split(' ').at(-1))).toBe(throttled);
    } finally {
      await limited.close();
    }
  });

  it('across a leader kill in the middle, no second sees more than rate + burst', {
    timeout: 240_000,
  }, async () => {
    const topic = await createdTopic(suite.client, 'rate-failover');
    await suite.client.createGroup(topic, 'limited', { maxDeliveriesPerSecond: RATE, burst: BURST });
    const limited = leaseStarts(suite.cluster, topic, 'limited');
    const { ids } = limited;
    try {
      await publishDueAt(suite.client, topic, 1_500, Date.now() + 3_000);
      await eventually(() => ids.size >= 500, 60_000, '500 deliveries before the kill');
      const old = await suite.cluster.leader();
      expect(await old.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
      await suite.cluster.waitForLeader();
      await eventually(() => ids.size === 1_500, 180_000, 'every message delivered after the kill');
      const busiest = busiestWindow(limited.starts(), 1_000);
      expect(
        busiest.count,
        `${busiest.count} lease starts in the second from ${busiest.fromMs}`,
      ).toBeLessThanOrEqual(Math.floor((RATE + BURST) * (1 + SLACK)));
    } finally {
      await limited.close();
      const stopped = suite.cluster.nodes.filter((n) => !n.running);
      for (const n of stopped) await n.start();
      await suite.cluster.waitForLeader();
    }
  });

  it('max_in_flight 5 with two consumers: never more than 5 deliveries handled at once', {
    timeout: 120_000,
  }, async () => {
    const topic = await createdTopic(suite.client, 'in-flight');
    await suite.client.createGroup(topic, 'limited', { maxInFlight: 5 });
    let running = 0;
    let most = 0;
    const handled = new Set<bigint>();
    const handler = async (m: { id: bigint }) => {
      running++;
      most = Math.max(most, running);
      await sleep(20 + Math.floor(Math.random() * 40));
      handled.add(m.id);
      running--;
    };
    // Each could take 8 at once without the limit: 16 together.
    const consumers = [clientOf(suite.cluster), clientOf(suite.cluster)];
    const subs = consumers.map((c) =>
      c.subscribe(topic, { group: 'limited', concurrency: 8, prefetch: 8 }, handler),
    );
    try {
      await publishDueAt(suite.client, topic, 300, Date.now() + 1_000);
      await eventually(() => handled.size === 300, 90_000, 'every message handled');
      expect(most).toBeLessThanOrEqual(5);
      const limited = (await suite.client.topicStats(topic)).groups.find((g) => g.group === 'limited');
      expect(limited?.throttled).toBeGreaterThan(0);
    } finally {
      await Promise.all(subs.map((s) => s.close()));
      await Promise.all(consumers.map((c) => c.close()));
    }
  });
});
