/**
 * A consumer that stops reading, against a real node in this process (so its
 * memory can be measured after a forced garbage collection): the leader
 * holds at most the stream's prefetch of deliveries for it, and releases them
 * when the stream closes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { int64FromSafe, makeClient, type pb } from '@fermata/protocol';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawConsumer } from '../../../test-cluster/src/raw-consumer.js';
import { BrokerServer } from '../src/server/broker-server.js';
import { loadConfig } from '../src/server/config.js';

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Bytes outside the V8 heap (Buffers), after full collections. */
function externalBytes(): number {
  gc();
  gc();
  return process.memoryUsage().external;
}

const PAYLOAD_BYTES = 256 * 1024;
const MESSAGES = 100;
const MIB = 1024 * 1024;

describe('a consumer that stops reading', () => {
  let dir: string;
  let server: BrokerServer;
  let broker: ReturnType<typeof makeClient<'Broker'>>;
  /** Publishes through the unary Publish, retrying while the node is not yet leader. */
  const publish = async (messages: pb.PublishMessage.$Properties[]) => {
    for (let attempt = 0; ; attempt++) {
      const err = await new Promise<grpc.ServiceError | null>((resolve) =>
        broker.publish({ messages }, (e: grpc.ServiceError | null) => resolve(e)),
      );
      if (!err) return;
      if (attempt > 100) throw err;
      await sleep(200);
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fermata-consume-memory-'));
    server = await BrokerServer.start(
      loadConfig({
        env: {},
        overrides: {
          dataDir: dir,
          logLevel: 'warn',
          client: { listenAddress: '127.0.0.1:0' },
          peer: { listenAddress: '127.0.0.1:0' },
          http: { listenAddress: '127.0.0.1:0' },
          // The test publishes to a topic it does not create.
          topics: { autoCreate: true },
        },
      }),
    );
    broker = makeClient('Broker', server.clientAddress, grpc.credentials.createInsecure());
  }, 60_000);

  afterAll(async () => {
    broker?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('costs the leader at most its prefetch of deliveries, released when its stream closes', async () => {
    const payload = Buffer.alloc(PAYLOAD_BYTES, 1);
    for (let i = 0; i < MESSAGES; i += 10)
      await publish(Array.from({ length: 10 }, () => ({ topic: 'unread', payload })));
    const before = externalBytes();
    const raw = rawConsumer(server.clientAddress, undefined, {
      topic: 'unread',
      prefetch: 1_000,
      leaseMs: int64FromSafe(1_000),
    });
    raw.stream.pause();
    // Four leases: each lapses while its delivery waits unread in the stream.
    await sleep(4_000);
    const deliveries = await server.ctx.metrics.deliveries.get();
    const pushed = deliveries.values.find((v) => v.labels.topic === 'unread')?.value ?? 0;
    const held = externalBytes();
    raw.close();
    await sleep(1_000);
    const after = externalBytes();
    console.log(
      `unread stream: ${pushed} deliveries pushed for ${MESSAGES} messages of ${PAYLOAD_BYTES} B; external memory before ${(before / MIB).toFixed(1)} MiB, paused ${(held / MIB).toFixed(1)} MiB, closed ${(after / MIB).toFixed(1)} MiB`,
    );
    // Each message pushed once (no lapsed lease pushed again into the unread stream).
    expect(pushed).toBe(MESSAGES);
    // The held deliveries are visible in memory, and gone after the close (generous bounds).
    expect(held - before).toBeGreaterThan(10 * MIB);
    // (Re-leased deliveries waiting for the stream would double it.)
    expect(held - before).toBeLessThan(2 * MESSAGES * PAYLOAD_BYTES);
    expect(after - before).toBeLessThan(8 * MIB);
  }, 60_000);
});
