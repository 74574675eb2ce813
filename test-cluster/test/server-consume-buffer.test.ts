/**
 * What one node buffers for all its consume streams together is bounded
 * (limits.maxConsumeBufferBytes), on a real node: 64 streams (16 groups x 4)
 * that never read, each allowed a prefetch of 16 deliveries of 256 KiB
 * (256 MiB between them), keep what the node reports holding for its
 * consumers (fermata_consume_loaded_payload_bytes, leased and loaded, plus
 * fermata_consume_unsent_payload_bytes, written and not sent) under the limit; what is held back is counted, stays leased, and reaches a
 * consumer that reads once the unread streams are gone.
 */
import { int64FromSafe } from '@fermata/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, NodeClients, rawConsumer, sleep, startCluster } from '../src/index.js';
import { eventually, metric, msg, publish, uniqueTopic } from './support.js';

const MIB = 1024 * 1024;
const LIMIT_BYTES = 8 * MIB;
const PAYLOAD_BYTES = 256 * 1024;
const GROUPS = 16;
const STREAMS_PER_GROUP = 4;
const MESSAGES = 32;

describe('the node bounds what it buffers for all consume streams together', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({
      nodes: 1,
      env: { FERMATA_LIMITS__MAX_CONSUME_BUFFER_BYTES: String(LIMIT_BYTES) },
    });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('64 unread streams hold at most the limit; the rest waits, counted, and is delivered later', async () => {
    const node = await cluster.leader();
    const c = new NodeClients(node.clientAddress);
    const topic = uniqueTopic('unread');
    const groups = Array.from({ length: GROUPS }, (_, i) => (i === 0 ? 'default' : `g${i}`));
    await c.createTopic({ name: topic });
    for (const g of groups.slice(1)) await c.createGroup({ topic, group: g });
    const payload = Buffer.alloc(PAYLOAD_BYTES, 7);
    for (let i = 0; i < MESSAGES; i += 8) {
      await publish(
        c,
        Array.from({ length: 8 }, (_, j) => ({ ...msg(topic, ''), payload, key: `m${i + j}` })),
      );
    }
    const streams = groups.flatMap((group) =>
      Array.from({ length: STREAMS_PER_GROUP }, () => {
        const raw = rawConsumer(node.clientAddress, undefined, {
          topic,
          group,
          prefetch: 16,
          leaseMs: int64FromSafe(2_000),
        });
        raw.stream.pause();
        return raw;
      }),
    );
    try {
      // Deliveries go out until the node's buffer is full, then wait.
      await eventually(
        async () => (await metric(cluster.nodes[0]!, 'fermata_consume_buffer_full_total')) > 0,
        30_000,
        'the buffer to fill',
      );
      // What the node holds for its consumers: loaded and not yet written, written and not yet sent.
      let most = 0;
      for (let i = 0; i < 20; i++) {
        const held =
          (await metric(cluster.nodes[0]!, 'fermata_consume_unsent_payload_bytes')) +
          (await metric(cluster.nodes[0]!, 'fermata_consume_loaded_payload_bytes'));
        most = Math.max(most, held);
        await sleep(150);
      }
      console.log(
        `64 unread streams: at most ${(most / MIB).toFixed(1)} MiB held (limit ${LIMIT_BYTES / MIB} MiB, ${(GROUPS * MESSAGES * PAYLOAD_BYTES) / MIB} MiB of deliveries)`,
      );
      expect(most).toBeGreaterThan(LIMIT_BYTES / 2);
      expect(most).toBeLessThanOrEqual(LIMIT_BYTES);
      expect(await metric(cluster.nodes[0]!, 'fermata_consume_buffer_limit_bytes')).toBe(LIMIT_BYTES);
    } finally {
      for (const s of streams) s.close();
    }
    // Nothing held back was lost: a consumer that reads gets every message of its group.
    await eventually(
      async () => (await metric(cluster.nodes[0]!, 'fermata_consume_unsent_payload_bytes')) === 0,
      30_000,
      'the closed streams to release their buffers',
    );
    const reader = await c.consume({ topic, group: 'g7', prefetch: 64, leaseMs: int64FromSafe(30_000) });
    try {
      await reader.waitForCount(MESSAGES, 60_000);
      expect(new Set(reader.received.map((r) => r.delivery.key)).size).toBe(MESSAGES);
    } finally {
      reader.cancel();
      c.close();
    }
  });
});
