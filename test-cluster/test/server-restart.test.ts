/**
 * A single node restarted with 100,000 pending messages delivers every one of
 * them: after a graceful stop (SIGTERM: exit 0) and after a crash (SIGKILL),
 * through real processes and raw gRPC.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type Cluster,
  type ConsumeSession,
  i64,
  type NodeClients,
  retryUnavailable,
  startCluster,
} from '../src/index.js';
import { counts, idOf, leaderClients, msg } from './support.js';

const MESSAGES = 100_000;
const BATCH = 1_000;
const PUBLISH_CONCURRENCY = 4;

/** Publishes `MESSAGES` small messages due within the next `spreadMs`; returns their ids. */
async function publishMany(c: NodeClients, topic: string, spreadMs: number): Promise<Set<string>> {
  const ids = new Set<string>();
  let next = 0;
  const worker = async () => {
    while (next < MESSAGES / BATCH) {
      const b = next++;
      const messages = Array.from({ length: BATCH }, (_, i) =>
        msg(topic, `m${b * BATCH + i}`, { delayMs: ((b * BATCH + i) * 7919) % spreadMs }),
      );
      const r = await retryUnavailable(() => c.publish({ messages }, 60_000));
      for (const res of r.results) ids.add(idOf(res));
    }
  };
  await Promise.all(Array.from({ length: PUBLISH_CONCURRENCY }, worker));
  return ids;
}

/** Consumes `topic` until every id of `expected` was delivered, acking as it goes. */
async function drain(
  c: NodeClients,
  topic: string,
  expected: Set<string>,
): Promise<{ delivered: Set<string>; ms: number }> {
  const started = Date.now();
  const s: ConsumeSession = await retryUnavailable(() =>
    c.consume({ topic, prefetch: 1000, leaseMs: i64(120_000) }),
  );
  const delivered = new Set<string>();
  let acked = 0;
  try {
    while (delivered.size < expected.size) {
      await s.waitFor(
        () => s.received.length > acked || s.ended !== undefined,
        60_000,
        `deliveries (${delivered.size} so far)`,
      );
      if (s.ended) throw new Error(`consume stream ended: ${JSON.stringify(s.ended)}`);
      const batch = s.received.slice(acked, acked + 1000);
      acked += batch.length;
      for (const r of batch) delivered.add(idOf(r.delivery));
      const res = await s.ack(
        batch.map((r) => r.delivery.tag),
        60_000,
      );
      expect(res.error ?? null).toBeNull();
    }
  } finally {
    s.cancel();
  }
  return { delivered, ms: Date.now() - started };
}

describe('a single node restarted with 100,000 pending messages', () => {
  let cluster: Cluster;
  let c: NodeClients | undefined;

  beforeAll(async () => {
    cluster = await startCluster({ nodes: 1 });
  });
  afterEach((ctx) => {
    if (ctx.task.result?.state === 'fail') console.error(cluster.logs(40));
  });
  afterAll(async () => {
    c?.close();
    await cluster?.stop();
  });

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`delivers all of them after ${signal}`, { timeout: 240_000 }, async () => {
      const node = cluster.nodes[0]!;
      c?.close();
      c = await leaderClients(cluster);
      const topic = `restart-${signal.toLowerCase()}`;
      const t0 = Date.now();
      const ids = await publishMany(c, topic, 3_000);
      const publishMs = Date.now() - t0;
      expect(ids.size).toBe(MESSAGES);
      expect((await counts(c, topic))?.['default']).toEqual({
        pending: MESSAGES,
        inFlight: 0,
        deadLettered: 0,
      });
      c.close();

      const exit = await node.kill(signal);
      if (signal === 'SIGTERM') expect(exit).toEqual({ code: 0, signal: null });
      else expect(exit).toEqual({ code: null, signal: 'SIGKILL' });
      const t1 = Date.now();
      await node.start();
      c = await leaderClients(cluster);
      const restartMs = Date.now() - t1;
      expect((await counts(c, topic))?.['default']).toEqual({
        pending: MESSAGES,
        inFlight: 0,
        deadLettered: 0,
      });

      const { delivered, ms } = await drain(c, topic, ids);
      expect(delivered.size).toBe(MESSAGES);
      expect([...ids].every((id) => delivered.has(id))).toBe(true);
      expect((await counts(c, topic))?.['default']).toEqual({ pending: 0, inFlight: 0, deadLettered: 0 });
      console.log(JSON.stringify({ signal, messages: MESSAGES, publishMs, restartMs, drainMs: ms }));
    });
  }
});
