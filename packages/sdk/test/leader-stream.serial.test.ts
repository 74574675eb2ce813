import { toInt64, toUint64 } from '@fermata/protocol';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { FermataClient, type Logger, PermissionDeniedError } from '../src/index.js';
import { FakeCluster, until } from './fake-cluster.js';

const quiet: Logger = { debug: () => {}, warn: () => {}, error: () => {} };

let cluster: FakeCluster | undefined;
let client: FermataClient | undefined;

afterEach(async () => {
  await client?.close();
  await cluster?.stop();
  client = undefined;
  cluster = undefined;
});

async function setup() {
  cluster = await FakeCluster.start(1, 0);
  client = new FermataClient({
    endpoints: cluster.endpoints,
    retry: { initialMs: 5, maxMs: 20, jitter: 0 },
    deadlineMs: 5_000,
    logger: quiet,
  });
  return { cluster, client };
}

const calls = (c: FakeCluster, name: string) => c.node('n1').calls.filter((x) => x === name).length;

/** The first publish stream ends with `code`; later ones answer every batch. */
function failFirstPublishStream(c: FakeCluster, code: grpc.status): void {
  let opened = 0;
  c.brokerOverrides.publishStream = (call) => {
    if (opened++ === 0) {
      call.emit('error', { code, details: `refused with ${grpc.status[code]}` });
      return;
    }
    call.on('data', (req: { sequence: unknown; messages: unknown[] }) => {
      call.write({
        sequence: req.sequence as never,
        results: req.messages.map((_, i) => ({ id: toUint64(BigInt(i + 1)), deduplicated: false })),
      });
    });
    call.on('end', () => call.end());
  };
}

/** The first consume stream ends with `code`; later ones subscribe and stay open. */
function failFirstConsumeStream(c: FakeCluster, code: grpc.status): void {
  let opened = 0;
  c.brokerOverrides.consume = (call) => {
    if (opened++ === 0) {
      call.emit('error', { code, details: `refused with ${grpc.status[code]}` });
      return;
    }
    call.on('data', (req: { subscribe?: { topic: string; group: string; prefetch: number } }) => {
      if (req.subscribe) call.write({ subscribed: { ...req.subscribe, leaseMs: toInt64(30_000n) } });
    });
  };
}

describe('leader streams: one rule for what reopens', () => {
  it('a publish stream ended by RESOURCE_EXHAUSTED is reopened, as a consume stream is', async () => {
    const { cluster, client } = await setup();
    failFirstPublishStream(cluster, grpc.status.RESOURCE_EXHAUSTED);
    failFirstConsumeStream(cluster, grpc.status.RESOURCE_EXHAUSTED);
    const p = client.producer({ lingerMs: 0 });
    const s = client.subscribe('t', () => {});
    await expect(p.send('t', 'x')).resolves.toMatchObject({ id: 1n });
    await until(() => s.connected, 'subscribed on the second consume stream');
    expect([calls(cluster, 'publishStream'), calls(cluster, 'consume')]).toEqual([2, 2]);
    await s.close();
  });

  it('a stream refused for good (PERMISSION_DENIED) is not reopened: the send and the subscription fail', async () => {
    const { cluster, client } = await setup();
    failFirstPublishStream(cluster, grpc.status.PERMISSION_DENIED);
    failFirstConsumeStream(cluster, grpc.status.PERMISSION_DENIED);
    const p = client.producer({ lingerMs: 0 });
    const s = client.subscribe('t', { onError: () => {} }, () => {});
    await expect(p.send('t', 'x')).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(s.done).rejects.toBeInstanceOf(PermissionDeniedError);
    expect([calls(cluster, 'publishStream'), calls(cluster, 'consume')]).toEqual([1, 1]);
  });
});
