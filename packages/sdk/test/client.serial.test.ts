import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  FermataClient,
  InvalidArgumentError,
  type Logger,
  NotFoundError,
  NotLeaderError,
  UnavailableError,
} from '../src/index.js';
import { FakeCluster, until } from './fake-cluster.js';

const quiet: Logger = { debug: () => {}, warn: () => {}, error: () => {} };
const fastRetry = { initialMs: 5, maxMs: 40, multiplier: 2, jitter: 0 };

let cluster: FakeCluster | undefined;
let client: FermataClient | undefined;

afterEach(async () => {
  await client?.close();
  await cluster?.stop();
  client = undefined;
  cluster = undefined;
});

function connect(
  c: FakeCluster,
  endpoints = c.endpoints,
  extra: Partial<ConstructorParameters<typeof FermataClient>[0]> = {},
) {
  client = new FermataClient({ endpoints, retry: fastRetry, deadlineMs: 5_000, logger: quiet, ...extra });
  return client;
}

describe('leader discovery', () => {
  it('finds the leader through GetClusterInfo on a follower and sends the call there', async () => {
    cluster = await FakeCluster.start(3, 2);
    const c = connect(cluster, [cluster.nodes[0]!.address]);
    const id = await c.publish('t', 'hello');
    expect(id).toBe(1n);
    expect(cluster.nodes[0]!.calls).toEqual(['getClusterInfo']);
    expect(cluster.nodes[2]!.calls).toEqual(['publish']);
    expect(c.leaderAddress).toBe(cluster.nodes[2]!.address);
  });

  it('skips an endpoint that is down', async () => {
    cluster = await FakeCluster.start(2, 1);
    const dead = '127.0.0.1:1';
    const c = connect(cluster, [dead, cluster.nodes[1]!.address]);
    await expect(c.publish('t', 'x')).resolves.toBe(1n);
  });

  it('asks for a leader other than one it could not reach, and lets nodes wait for it', async () => {
    cluster = await FakeCluster.start(2, 1);
    const dead = '127.0.0.1:1';
    const asked = cluster.nodes[0]!;
    asked.claimedLeader = dead;
    const c = connect(cluster, [asked.address]);
    const done = c.publish('t', 'x');
    await until(
      () => asked.infoRequests.some((r) => r.unreachableLeaderAddress === dead),
      'a discovery naming it',
    );
    asked.claimedLeader = undefined;
    await expect(done).resolves.toBe(1n);
    // Every discovery lets the node wait most of its time for a leader (discoveryTimeoutMs 2 000).
    for (const r of asked.infoRequests) {
      expect(r.waitForLeaderMs).toBeGreaterThan(1_000);
      expect(r.waitForLeaderMs).toBeLessThan(2_000);
    }
    // The first discovery knew of no unreachable leader.
    expect(asked.infoRequests[0]!.unreachableLeaderAddress).toBe('');
  });

  it('follows a redirect when a stale node names a follower as leader', async () => {
    cluster = await FakeCluster.start(3, 2);
    cluster.nodes[0]!.claimedLeader = cluster.nodes[1]!.address;
    const c = connect(cluster, [cluster.nodes[0]!.address]);
    await c.publish('t', 'x');
    expect(cluster.nodes[1]!.calls).toEqual(['publish']);
    expect(cluster.nodes[2]!.calls).toEqual(['publish']);
    expect(cluster.stored).toHaveLength(1);
  });

  it('redirects to the address in fermata-leader after a failover, without asking the endpoints again', async () => {
    cluster = await FakeCluster.start(3, 0);
    const c = connect(cluster);
    await c.publish('t', 'a');
    cluster.failover('n3');
    const infoCallsBefore = cluster.nodes
      .flatMap((n) => n.calls)
      .filter((x) => x === 'getClusterInfo').length;
    await c.publish('t', 'b');
    const infoCallsAfter = cluster.nodes.flatMap((n) => n.calls).filter((x) => x === 'getClusterInfo').length;
    expect(infoCallsAfter).toBe(infoCallsBefore);
    expect(cluster.nodes[0]!.calls.slice(-1)).toEqual(['publish']);
    expect(cluster.nodes[2]!.calls.filter((x) => x !== 'getClusterInfo')).toEqual(['publish']);
    expect(c.leaderAddress).toBe(cluster.nodes[2]!.address);
  });

  it('retries with backoff while there is no leader, and succeeds once one is elected', async () => {
    cluster = await FakeCluster.start(2, -1);
    const c = connect(cluster);
    const done = c.publish('t', 'x');
    await until(() => cluster!.nodes[0]!.calls.length >= 3, 'three discovery rounds');
    cluster.leaderId = 'n2';
    await expect(done).resolves.toBe(1n);
  });

  it('gives up at the deadline with the last retryable error', async () => {
    cluster = await FakeCluster.start(2, -1);
    const c = connect(cluster, cluster.endpoints, { deadlineMs: 600 });
    const err = await c.publish('t', 'x').catch((e) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect(err.message).toMatch(/no leader known/);
    // Backoff is exponential with a 40 ms cap: 600 ms allows some rounds, never the thousands of a hot loop.
    const rounds = cluster.nodes[0]!.calls.length;
    expect(rounds).toBeGreaterThanOrEqual(2);
    expect(rounds).toBeLessThan(100);
  });

  it('gives up with NotLeaderError when the named leader keeps refusing as not leader', async () => {
    cluster = await FakeCluster.start(2, 1);
    cluster.brokerOverrides.publish = (_call, cb) => cb(cluster!.notLeader());
    const c = connect(cluster, [cluster.nodes[1]!.address], { deadlineMs: 200 });
    const err = await c.publish('t', 'x').catch((e) => e);
    // Either the budget ran out between attempts (the last error itself) or during the last one (its cause).
    const notLeader = err instanceof NotLeaderError ? err : err.cause;
    expect(notLeader).toBeInstanceOf(NotLeaderError);
    expect(notLeader.leaderAddress).toBe(cluster.nodes[1]!.address);
  });
});

describe('idempotent publish', () => {
  it('attaches an sdk: key to the request and reuses it on the retry after a lost response', async () => {
    cluster = await FakeCluster.start(2, 0);
    const c = connect(cluster);
    cluster.failPublishAfterStore.push({ code: grpc.status.UNAVAILABLE, details: 'connection reset' });
    const r = await c.publishDetailed('t', 'once');
    expect(cluster.publishSizes).toEqual([1, 1]);
    expect(cluster.stored).toHaveLength(1);
    expect(cluster.stored[0]!.key).toBe('');
    expect(cluster.requestKeys).toHaveLength(2);
    expect(cluster.requestKeys[0]).toMatch(/^sdk:[A-Za-z0-9_-]{22}$/);
    expect(cluster.requestKeys[1]).toBe(cluster.requestKeys[0]);
    expect(r).toEqual({ id: cluster.stored[0]!.id, deduplicated: true, dueAtMs: 12_345 });
  });

  it('keeps the caller key and attaches none when idempotentPublish is off', async () => {
    cluster = await FakeCluster.start(1, 0);
    const c = connect(cluster, cluster.endpoints, { idempotentPublish: false });
    await c.publish('t', 'a', { key: 'order-1' });
    await c.publish('t', 'b');
    expect(cluster.stored.map((m) => m.key)).toEqual(['order-1', '']);
    expect(cluster.requestKeys).toEqual(['', '']);
  });

  it('gives a batch one request key, a new one per call, and leaves message keys to the caller', async () => {
    cluster = await FakeCluster.start(1, 0);
    const c = connect(cluster);
    const results = await c.publishBatch([
      { topic: 't', payload: 'a' },
      { topic: 't', payload: 'b', key: 'mine' },
      { topic: 'u', payload: new Uint8Array([1, 2]) },
    ]);
    expect(results.map((r) => r.id)).toEqual([1n, 2n, 3n]);
    expect(cluster.stored.map((m) => m.key)).toEqual(['', 'mine', '']);
    expect(cluster.publishSizes).toEqual([3]);
    await c.publish('t', 'c');
    expect(cluster.requestKeys).toHaveLength(2);
    expect(new Set(cluster.requestKeys).size).toBe(2);
  });
});

describe('publish options', () => {
  it('sends delayMs, deliverAt, ttl and headers as the proto fields', async () => {
    cluster = await FakeCluster.start(1, 0);
    const c = connect(cluster);
    await c.publish('t', 'a', { delayMs: 1500, headers: { a: 'b' } });
    await c.publish('t', 'b', { deliverAt: new Date(1_700_000_000_123) });
    const [a, b] = cluster.stored;
    expect(a!.delayMs).toBe(1500n);
    expect(a!.deliverAtMs).toBeUndefined();
    expect(a!.headers).toEqual({ a: 'b' });
    expect(b!.deliverAtMs).toBe(1_700_000_000_123n);
    expect(Buffer.from(b!.payload).toString()).toBe('b');
  });

  it('refuses bad options locally with InvalidArgumentError naming the field', async () => {
    cluster = await FakeCluster.start(1, 0);
    const c = connect(cluster);
    const both = await c.publish('t', 'a', { delayMs: 1, deliverAt: 2 }).catch((e) => e);
    expect(both).toBeInstanceOf(InvalidArgumentError);
    expect(both.field).toBe('delayMs');
    const neg = await c
      .publishBatch([
        { topic: 't', payload: 'a' },
        { topic: 't', payload: 'b', ttlMs: -1 },
      ])
      .catch((e) => e);
    expect(neg.field).toBe('messages[1].ttlMs');
    expect(cluster.publishSizes).toEqual([]);
  });
});

describe('metadata', () => {
  it('sends the token as a bearer authorization header', async () => {
    cluster = await FakeCluster.start(1, 0);
    const c = connect(cluster, cluster.endpoints, { token: 's3cret' });
    await c.publish('t', 'a');
    for (const md of cluster.nodes[0]!.metadata) expect(md.get('authorization')).toEqual(['Bearer s3cret']);
  });
});

describe('messages and cluster calls', () => {
  it('cancel, getMessage, listMessages pages and clusterInfo convert the wire shapes', async () => {
    cluster = await FakeCluster.start(3, 1);
    const c = connect(cluster);
    for (const p of ['a', 'b', 'c']) await c.publish('t', p, { key: `key-${p}` });
    expect(await c.cancel('t', { key: 'key-b' })).toEqual({ status: 'cancelled', id: 2n });
    expect(await c.cancel('t', 99n)).toEqual({ status: 'not-found', id: 0n });
    const details = await c.getMessage('t', 3n);
    expect(details.message.id).toBe(3n);
    expect(details.message.key).toBe('key-c');
    expect(details.groups).toEqual([{ group: 'default', state: 'pending', dueAtMs: 0, attempt: 0 }]);
    await expect(c.getMessage('t', 42n)).rejects.toBeInstanceOf(NotFoundError);
    const first = await c.listMessages('t');
    expect(first.messages.map((m) => m.message.id)).toEqual([1n, 2n]);
    expect(first.nextPageToken).toBeDefined();
    const ids: bigint[] = [];
    for await (const m of c.iterateMessages('t')) ids.push(m.message.id);
    expect(ids).toEqual([1n, 2n, 3n]);
    const info = await c.clusterInfo();
    expect(info.leaderId).toBe('n2');
    expect(info.term).toBe(7n);
    expect(info.members.map((m) => m.role)).toEqual(['follower', 'leader', 'follower']);
    expect(await c.transferLeadership('n3')).toBe('n3');
    await c.publish('t', 'after transfer');
    expect(cluster.nodes[2]!.calls).toContain('publish');
  });
});

describe('close', () => {
  it('fails later calls with ClosedError', async () => {
    cluster = await FakeCluster.start(1, 0);
    const c = connect(cluster);
    await c.publish('t', 'a');
    await c.close();
    await expect(c.publish('t', 'b')).rejects.toMatchObject({ name: 'ClosedError' });
  });
});
