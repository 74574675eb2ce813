/**
 * An attacker who reaches the peer ports of a plaintext three-node cluster of
 * real `fermata serve` processes, and knows the cluster id and node ids (the
 * status page shows them), opens a raw `fermata.v1.Raft` stream to every node
 * and forges, as a node that is no member, an append that would commit
 * `Command{delete_topic}`. Every node refuses it: the topic and its pending
 * messages survive, the term and the leader stay.
 */
import { Long, v1 } from '@fermata/protocol';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, NodeClients, sendRaftBatch, sleep, startCluster } from '../src/index.js';
import { counts, eventually, msg } from './support.js';

const TOPIC = 'keep';
const PENDING = 100;
/** Long enough for a forged commit to have been applied everywhere. */
const SETTLE_MS = 1_000;

const u64 = (n: number) => Long.fromNumber(n, true);

describe('peer port: a non-member cannot write to the log', () => {
  let cluster: Cluster;
  let c: NodeClients;

  beforeAll(async () => {
    cluster = await startCluster({ nodes: 3 });
    const leader = await cluster.leader();
    c = new NodeClients(leader.clientAddress);
    await c.createTopic({ name: TOPIC });
    const messages = Array.from({ length: PENDING }, (_, i) => msg(TOPIC, `m${i}`, { delayMs: 3_600_000 }));
    await c.publish({ messages });
    // Every node knows the leader, so that a leader change is visible on each.
    await eventually(
      async () =>
        (await Promise.all(cluster.nodes.map((n) => n.status()))).every((st) => st?.leaderId === leader.id),
      20_000,
      'every node to know the leader',
    );
  });

  afterAll(async () => {
    c?.close();
    await cluster?.stop();
  });

  it('a forged append of Command{delete_topic} from "evil" is refused by every node; the topic and its messages survive', async () => {
    expect((await counts(c, TOPIC))?.['default']?.pending).toBe(PENDING);
    const info = await c.clusterInfo();
    const data = v1.Command.encode({
      nowMs: Long.fromNumber(Date.now()),
      deleteTopic: { name: TOPIC },
    }).finish();
    const before = await Promise.all(cluster.nodes.map((n) => n.status()));
    const codes: grpc.status[] = [];
    for (const [i, node] of cluster.nodes.entries()) {
      const s = before[i];
      if (!s) throw new Error(`${node.id} has no status`);
      const term = s.term + 100;
      codes.push(
        await sendRaftBatch(node.peerAddress, {
          clusterId: info.clusterId,
          from: 'evil',
          messages: [
            {
              type: v1.RaftMessageType.RAFT_MESSAGE_TYPE_APPEND,
              from: 'evil',
              to: node.id,
              term: u64(term),
              logTerm: u64(s.term),
              index: u64(s.commit),
              commit: u64(s.commit + 1),
              entries: [
                {
                  term: u64(term),
                  index: u64(s.commit + 1),
                  type: v1.RaftEntryType.RAFT_ENTRY_TYPE_NORMAL,
                  data,
                },
              ],
            },
          ],
        }),
      );
    }
    expect(codes).toEqual(cluster.nodes.map(() => grpc.status.PERMISSION_DENIED));
    await sleep(SETTLE_MS);
    expect((await counts(c, TOPIC))?.['default']?.pending).toBe(PENDING);
    const after = await Promise.all(cluster.nodes.map((n) => n.status()));
    expect(after.map((s) => s?.leaderId)).toEqual(before.map((s) => s?.leaderId));
    expect(after.map((s) => s?.term)).toEqual(before.map((s) => s?.term));
    const refused = cluster.nodes.flatMap((n) => n.logLines('raft batch rejected'));
    expect(refused.length, cluster.logs()).toBe(cluster.nodes.length);
  });
});
