import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, i64, NodeClients, retryUnavailable, startCluster } from '../src/index.js';

describe('the cluster harness', () => {
  let cluster: Cluster;
  let leaderClients: NodeClients;
  beforeAll(async () => {
    cluster = await startCluster({ nodes: 3 });
    leaderClients = new NodeClients((await cluster.leader()).clientAddress);
  });
  afterAll(async () => {
    leaderClients?.close();
    await cluster?.stop();
  });

  it('starts three nodes that elect one leader every node agrees on', async () => {
    const leader = await cluster.leader();
    const views = await Promise.all(cluster.nodes.map((n) => n.status()));
    for (const v of views) expect(v?.leaderId).toBe(leader.id);
    const info = await leaderClients.clusterInfo();
    expect(info.members.map((m) => m.id).sort()).toEqual(['n1', 'n2', 'n3']);
  });

  it('publishes and consumes through the leader', async () => {
    await retryUnavailable(() =>
      leaderClients.publish({ messages: [{ topic: 'harness', payload: Buffer.from('x') }] }),
    );
    const s = await leaderClients.consume({ topic: 'harness', prefetch: 4, leaseMs: i64(5000) });
    const [got] = await s.waitForCount(1);
    expect(Buffer.from(got!.delivery.payload).toString()).toBe('x');
    const r = await s.ack([got!.delivery.tag]);
    expect(r.outcomes[0]?.status).toBe(1);
    s.end();
  });
});
