import { afterEach, describe, expect, it } from 'vitest';
import {
  ClosedError,
  FermataClient,
  InvalidArgumentError,
  LimitError,
  type Logger,
  type PublishResult,
} from '../src/index.js';
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

async function setup(nodes = 1) {
  cluster = await FakeCluster.start(nodes, 0);
  client = new FermataClient({
    endpoints: cluster.endpoints,
    retry: { initialMs: 5, maxMs: 20, jitter: 0 },
    deadlineMs: 5_000,
    logger: quiet,
  });
  return { cluster, client };
}

describe('producer batching', () => {
  it('sends full batches of maxBatchMessages at once and the remainder on flush', async () => {
    const { cluster, client } = await setup();
    const p = client.producer({ maxBatchMessages: 10, lingerMs: 60_000 });
    const sends = Array.from({ length: 25 }, (_, i) => p.send('t', `m${i}`));
    await until(() => cluster.streamSizes.length === 2, 'two full batches');
    expect(cluster.streamSizes).toEqual([10, 10]);
    await p.flush();
    expect(cluster.streamSizes).toEqual([10, 10, 5]);
    const results = await Promise.all(sends);
    expect(results.map((r) => r.id)).toEqual(Array.from({ length: 25 }, (_, i) => BigInt(i + 1)));
    expect(cluster.stored.map((m) => Buffer.from(m.payload).toString())).toEqual(
      Array.from({ length: 25 }, (_, i) => `m${i}`),
    );
  });

  it('sends a partial batch when the linger time has passed', async () => {
    const { cluster, client } = await setup();
    const p = client.producer({ maxBatchMessages: 100, lingerMs: 20 });
    const results = await Promise.all([p.send('t', 'a'), p.send('t', 'b'), p.send('t', 'c')]);
    expect(cluster.streamSizes).toEqual([3]);
    expect(results.every((r) => !r.deduplicated)).toBe(true);
  });

  it('caps a batch at maxBatchBytes', async () => {
    const { cluster, client } = await setup();
    const p = client.producer({ maxBatchBytes: 1_000, lingerMs: 60_000 });
    const payload = 'x'.repeat(400);
    const sends = Array.from({ length: 5 }, () => p.send('t', payload));
    await p.flush();
    await Promise.all(sends);
    expect(cluster.streamSizes).toEqual([2, 2, 1]);
  });

  it('gives each batch its own idempotency key and keeps the caller key', async () => {
    const { cluster, client } = await setup();
    const p = client.producer({ lingerMs: 0, maxBatchMessages: 2 });
    await Promise.all([p.send('t', 'a', { key: 'mine' }), p.send('t', 'b'), p.send('t', 'c')]);
    expect(cluster.stored.map((m) => m.key)).toEqual(['mine', '', '']);
    expect(cluster.streamSizes).toEqual([2, 1]);
    expect(cluster.requestKeys).toHaveLength(2);
    for (const k of cluster.requestKeys) expect(k).toMatch(/^sdk:[A-Za-z0-9_-]{22}$/);
    expect(new Set(cluster.requestKeys).size).toBe(2);
  });
});

describe('producer backpressure', () => {
  it('makes sends wait when maxBufferedMessages are held, and refuses past maxWaitingSends', async () => {
    const { cluster, client } = await setup();
    cluster.holdStreamResponses = true;
    const p = client.producer({
      maxBatchMessages: 2,
      maxInFlightBatches: 1,
      maxBufferedMessages: 4,
      maxWaitingSends: 1,
      lingerMs: 0,
    });
    const first = [p.send('t', '1'), p.send('t', '2'), p.send('t', '3'), p.send('t', '4')];
    await until(() => cluster.heldCount === 1, 'first batch held');
    expect(cluster.streamSizes).toEqual([2]);
    let readyResolved = false;
    void p.ready().then(() => (readyResolved = true));
    const waitingSend = p.send('t', '5');
    expect(p.bufferedMessages).toBe(5);
    const refused = await p.send('t', '6').catch((e) => e);
    expect(refused).toBeInstanceOf(LimitError);
    expect(refused.limit).toBe('producer.maxWaitingSends');
    // Only one batch is in flight, so nothing more went out while the first was unanswered.
    await new Promise((r) => setTimeout(r, 30));
    expect(cluster.streamSizes).toEqual([2]);
    expect(readyResolved).toBe(false);

    cluster.holdStreamResponses = false;
    cluster.releaseHeld();
    const results = await Promise.all([...first, waitingSend]);
    expect(results.map((r) => r.id)).toEqual([1n, 2n, 3n, 4n, 5n]);
    await until(() => readyResolved, 'ready()');
    expect(cluster.streamSizes).toEqual([2, 2, 1]);
  });
});

describe('producer failover', () => {
  it('resends unanswered batches to the new leader, in order, and the keys prevent duplicates', async () => {
    const { cluster, client } = await setup(3);
    cluster.holdStreamResponses = true;
    const p = client.producer({ maxBatchMessages: 3, lingerMs: 0 });
    const sends = ['a', 'b', 'c', 'd'].map((x) => p.send('t', x));
    await until(() => cluster.heldCount === 2, 'two batches stored, unanswered');
    expect(cluster.stored).toHaveLength(4);
    cluster.holdStreamResponses = false;
    cluster.failover('n3');
    const results: PublishResult[] = await Promise.all(sends);
    expect(cluster.stored).toHaveLength(4);
    expect(results.map((r) => r.id)).toEqual([1n, 2n, 3n, 4n]);
    expect(results.every((r) => r.deduplicated)).toBe(true);
    expect(cluster.node('n3').calls).toContain('publishStream');
    expect(cluster.streamSizes).toEqual([3, 1, 3, 1]);
  });
});

describe('producer redirect', () => {
  it('follows the leader a follower names in a refused batch, and stores each message once', async () => {
    cluster = await FakeCluster.start(3, 2);
    cluster.nodes[0]!.claimedLeader = cluster.nodes[1]!.address;
    client = new FermataClient({ endpoints: [cluster.nodes[0]!.address], logger: quiet });
    const p = client.producer({ maxBatchMessages: 2, lingerMs: 0 });
    const results = await Promise.all(['a', 'b', 'c'].map((x) => p.send('t', x)));
    expect(results.map((r) => r.id)).toEqual([1n, 2n, 3n]);
    expect(cluster.refusedBatches).toBeGreaterThanOrEqual(1);
    expect(cluster.node('n2').calls).toContain('publishStream');
    expect(cluster.node('n3').calls).toContain('publishStream');
    expect(cluster.stored).toHaveLength(3);
  });
});

describe('producer close', () => {
  it('flushes what is queued, then refuses new sends', async () => {
    const { cluster, client } = await setup();
    const p = client.producer({ lingerMs: 60_000 });
    const sends = [p.send('t', 'a'), p.send('t', 'b')];
    await p.close();
    expect((await Promise.all(sends)).map((r) => r.id)).toEqual([1n, 2n]);
    expect(cluster.streamSizes).toEqual([2]);
    await expect(p.send('t', 'c')).rejects.toBeInstanceOf(ClosedError);
  });
});

describe('producer errors', () => {
  it('fails only the message the server names in a refused batch and sends the rest again', async () => {
    const { cluster, client } = await setup();
    cluster.publishStreamError = (msgs) => {
      const i = msgs.findIndex((m) => m.topic === 'bad');
      return i < 0
        ? undefined
        : { code: 3, message: `messages[${i}].topic: no such topic`, field: `messages[${i}].topic` };
    };
    const p = client.producer({ maxBatchMessages: 3, lingerMs: 60_000 });
    const sends = [p.send('t', 'a'), p.send('bad', 'b'), p.send('t', 'c')];
    const outcomes = await Promise.allSettled(sends);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const err = (outcomes[1] as PromiseRejectedResult).reason;
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err.field).toBe('topic');
    expect(cluster.streamSizes).toEqual([3, 2]);
    expect(cluster.stored.map((m) => Buffer.from(m.payload).toString())).toEqual(['a', 'c']);
  });

  it('fails only the message that broke a limit, naming the limit and its field', async () => {
    const { cluster, client } = await setup();
    cluster.publishStreamError = (msgs) => {
      const i = msgs.findIndex((m) => (m.payload?.length ?? 0) > 100);
      if (i < 0) return undefined;
      return {
        code: 8,
        message: `messages[${i}].payload: 101 exceeds the limit maxPayloadBytes = 100`,
        field: `messages[${i}].payload`,
      };
    };
    const p = client.producer({ maxBatchMessages: 2, lingerMs: 60_000 });
    const sends = [p.send('t', 'x'.repeat(101)), p.send('t', 'small')];
    const [big, small] = await Promise.allSettled(sends);
    expect(big!.status).toBe('rejected');
    const err = (big as PromiseRejectedResult).reason;
    expect(err).toBeInstanceOf(LimitError);
    expect([err.limit, err.field]).toEqual(['maxPayloadBytes', 'payload']);
    expect(small!.status).toBe('fulfilled');
    expect(cluster.streamSizes).toEqual([2, 1]);
  });

  it('fails queued messages with the last error once no leader was found within the deadline', async () => {
    cluster = await FakeCluster.start(1, -1);
    client = new FermataClient({
      endpoints: cluster.endpoints,
      retry: { initialMs: 5, maxMs: 20, jitter: 0 },
      deadlineMs: 150,
      logger: quiet,
    });
    const p = client.producer({ lingerMs: 0 });
    await expect(p.send('t', 'x')).rejects.toMatchObject({ name: 'UnavailableError' });
    expect(p.bufferedMessages).toBe(0);
  });
});
