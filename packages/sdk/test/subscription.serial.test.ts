import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  FermataClient,
  LeaseExpiredError,
  type Logger,
  type Message,
  NotFoundError,
  type SubscribeOptions,
  type Subscription,
} from '../src/index.js';
import { deferred, FakeCluster, until } from './fake-cluster.js';

let cluster: FakeCluster | undefined;
let client: FermataClient | undefined;
let warnings: string[] = [];

const logger: Logger = { debug: () => {}, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) };

afterEach(async () => {
  await client?.close();
  await cluster?.stop();
  client = undefined;
  cluster = undefined;
  warnings = [];
});

async function setup(nodes = 1) {
  cluster = await FakeCluster.start(nodes, 0);
  client = new FermataClient({
    endpoints: cluster.endpoints,
    retry: { initialMs: 5, maxMs: 20, jitter: 0 },
    deadlineMs: 5_000,
    logger,
  });
  return { cluster, client };
}

function sub(c: FermataClient, options: SubscribeOptions, handler: (m: Message) => unknown): Subscription {
  return c.subscribe('t', options, handler);
}

describe('auto mode', () => {
  it('acks each message whose handler resolves, and exposes its fields', async () => {
    const { cluster, client } = await setup();
    const seen: Message[] = [];
    sub(client, {}, (m) => {
      seen.push(m);
    });
    await until(() => cluster.liveConsumers().some((s) => s.subscribe), 'subscribed');
    cluster.enqueue('t', '{"n":1}');
    cluster.enqueue('t', 'two');
    await until(() => cluster.settled.length === 2, 'two acks');
    expect(cluster.settled.map((s) => [s.kind, s.tag, s.via])).toEqual([
      ['ack', 'tag-1', 'stream'],
      ['ack', 'tag-2', 'stream'],
    ]);
    const m = seen[0]!;
    expect(m.id).toBe(1n);
    expect(m.json()).toEqual({ n: 1 });
    expect(seen[1]!.text()).toBe('two');
    expect([m.topic, m.group, m.key, m.attempt, m.dueAtMs, m.enqueuedAtMs]).toEqual([
      't',
      'default',
      'k1',
      1,
      1000,
      900,
    ]);
    expect(m.headers).toEqual({ h: 'v' });
    expect(m.settled).toBe('ack');
  });

  it('acks of handlers that finish together travel in one request', async () => {
    const { cluster, client } = await setup();
    sub(client, { concurrency: 3 }, () => {});
    await until(() => cluster.liveConsumers().some((s) => s.subscribe), 'subscribed');
    // Queued before the window opens, so the three arrive in one delivery batch.
    cluster.liveConsumers()[0]!.window = 0;
    for (const x of ['a', 'b', 'c']) cluster.enqueue('t', x);
    cluster.liveConsumers()[0]!.window = 3;
    cluster.pump();
    await until(() => cluster.settled.length === 3, 'three acks');
    const ackRequests = cluster.consumers[0]!.requests.filter((r) => r.ack);
    expect(ackRequests.map((r) => r.ack!.tags!.length)).toEqual([3]);
  });

  it('nacks a throwing handler with the backoff for its attempt', async () => {
    const { cluster, client } = await setup();
    sub(client, { retryBackoff: { initialMs: 100, multiplier: 3, maxMs: 1_000 } }, () => {
      throw new Error('downstream is down');
    });
    await until(() => cluster.liveConsumers().some((s) => s.subscribe), 'subscribed');
    cluster.enqueue('t', 'a', { attempt: 1 });
    cluster.enqueue('t', 'b', { attempt: 2 });
    cluster.enqueue('t', 'c', { attempt: 4 });
    await until(() => cluster.settled.length === 3, 'three nacks');
    expect(cluster.settled.map((s) => [s.kind, s.delayMs])).toEqual([
      ['nack', 100],
      ['nack', 300],
      ['nack', 1_000],
    ]);
    expect(warnings.filter((w) => /handler failed/.test(w))).toHaveLength(3);
  });

  it('takes the redelivery delay from a backoff function when given one', async () => {
    const { cluster, client } = await setup();
    sub(
      client,
      { retryBackoff: (attempt, error) => attempt * 10 + ((error as Error).message === 'x' ? 1 : 0) },
      () => {
        throw new Error('x');
      },
    );
    await until(() => cluster.liveConsumers().some((s) => s.subscribe), 'subscribed');
    cluster.enqueue('t', 'a', { attempt: 3 });
    await until(() => cluster.settled.length === 1, 'nack');
    expect(cluster.settled[0]!.delayMs).toBe(31);
  });

  it('ignores and logs a lease that expired before the ack', async () => {
    const { cluster, client } = await setup();
    cluster.expiredTags.add('tag-1');
    const handled: string[] = [];
    sub(client, {}, (m) => {
      handled.push(m.text());
    });
    await until(() => cluster.liveConsumers().some((s) => s.subscribe), 'subscribed');
    cluster.enqueue('t', 'late');
    cluster.enqueue('t', 'fine');
    await until(() => cluster.settled.length === 2, 'two acks');
    await until(() => warnings.some((w) => /lease ran out/.test(w)), 'warning');
    expect(handled).toEqual(['late', 'fine']);
  });
});

describe('flow control', () => {
  it('subscribes with the prefetch window, runs at most `concurrency` handlers, and sends credit on setPrefetch', async () => {
    const { cluster, client } = await setup();
    const gates = new Map<string, ReturnType<typeof deferred<void>>>();
    let running = 0;
    let maxRunning = 0;
    const s = sub(client, { prefetch: 2, concurrency: 1 }, async (m) => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      const g = deferred();
      gates.set(m.text(), g);
      await g.promise;
      running--;
    });
    await until(() => cluster.liveConsumers().some((c) => c.subscribe), 'subscribed');
    const stream = cluster.liveConsumers()[0]!;
    expect(stream.subscribe!.prefetch).toBe(2);
    for (const x of ['a', 'b', 'c', 'd', 'e']) cluster.enqueue('t', x);
    await until(() => gates.has('a'), 'first handler');
    expect(stream.unsettled.size).toBe(2);
    expect(s.inFlight).toBe(1);
    expect(s.bufferedCount).toBe(1);

    s.setPrefetch(3);
    await until(() => stream.requests.some((r) => r.credit), 'credit');
    expect(stream.requests.find((r) => r.credit)!.credit!.n).toBe(3);
    await until(() => stream.unsettled.size === 3, 'third delivery');

    for (const x of ['a', 'b', 'c', 'd', 'e']) {
      await until(() => gates.has(x), `handler ${x}`);
      gates.get(x)!.resolve();
    }
    await until(() => cluster.settled.length === 5, 'five acks');
    expect(maxRunning).toBe(1);
  });

  it('pause() closes the window and resume() restores it', async () => {
    const { cluster, client } = await setup();
    const s = sub(client, { prefetch: 4 }, () => {});
    await until(() => cluster.liveConsumers().some((c) => c.subscribe), 'subscribed');
    s.pause();
    const stream = cluster.liveConsumers()[0]!;
    await until(() => stream.window === 0, 'window 0');
    cluster.enqueue('t', 'held back');
    await new Promise((r) => setTimeout(r, 30));
    expect(cluster.settled).toHaveLength(0);
    s.resume();
    await until(() => cluster.settled.length === 1, 'delivered after resume');
    expect(stream.requests.filter((r) => r.credit).map((r) => r.credit!.n)).toEqual([0, 4]);
  });
});

describe('manual mode', () => {
  it('settles only when told; extend changes the tag the ack then uses', async () => {
    const { cluster, client } = await setup();
    const got: Message[] = [];
    sub(client, { mode: 'manual' }, (m) => {
      got.push(m);
    });
    await until(() => cluster.liveConsumers().some((c) => c.subscribe), 'subscribed');
    cluster.enqueue('t', 'a');
    cluster.enqueue('t', 'b');
    await until(() => got.length === 2, 'two deliveries');
    await new Promise((r) => setTimeout(r, 20));
    expect(cluster.settled).toHaveLength(0);
    const [a, b] = got as [Message, Message];
    const extending = a.extend(5_000);
    const acking = a.ack();
    await extending;
    expect(Buffer.from(a.tag).toString()).toBe('tag-1+');
    await acking;
    await b.nack({ delayMs: 7 });
    expect(cluster.settled.map((s) => [s.kind, s.tag, s.leaseMs ?? s.delayMs])).toEqual([
      ['extend', 'tag-1', 5_000],
      ['ack', 'tag-1+', undefined],
      ['nack', 'tag-2', 7],
    ]);
    // A second ack returns the first outcome and sends nothing.
    await a.ack();
    expect(cluster.settled).toHaveLength(3);
  });

  it('surfaces an expired lease as LeaseExpiredError', async () => {
    const { cluster, client } = await setup();
    const got: Message[] = [];
    sub(client, { mode: 'manual' }, (m) => {
      got.push(m);
    });
    await until(() => cluster.liveConsumers().some((c) => c.subscribe), 'subscribed');
    cluster.expiredTags.add('tag-1');
    cluster.enqueue('t', 'a');
    await until(() => got.length === 1, 'delivery');
    const err = await got[0]!.ack().catch((e) => e);
    expect(err).toBeInstanceOf(LeaseExpiredError);
    expect(Buffer.from(err.tag).toString()).toBe('tag-1');
  });
});

describe('lease extension', () => {
  it('extends the lease while a long handler runs, then acks the latest tag', async () => {
    const { cluster, client } = await setup();
    cluster.subscribedLeaseMs = 60;
    sub(client, { autoExtend: true }, async () => {
      await until(() => cluster.settled.filter((s) => s.kind === 'extend').length >= 2, 'two extensions');
    });
    await until(() => cluster.liveConsumers().some((c) => c.subscribe), 'subscribed');
    cluster.enqueue('t', 'slow');
    await until(() => cluster.settled.some((s) => s.kind === 'ack'), 'ack');
    const extends_ = cluster.settled.filter((s) => s.kind === 'extend');
    expect(extends_.slice(0, 2).map((s) => [s.tag, s.leaseMs])).toEqual([
      ['tag-1', 60],
      ['tag-1+', 60],
    ]);
    const ack = cluster.settled.find((s) => s.kind === 'ack')!;
    expect(ack.tag).toBe(`${extends_.at(-1)!.tag}+`);
  });
});

describe('failover', () => {
  it('reconnects to the leader named when the stream ends, and settles old deliveries there', async () => {
    const { cluster, client } = await setup(3);
    const gate = deferred();
    const handled: string[] = [];
    const s = sub(client, {}, async (m) => {
      if (m.text() === 'before') await gate.promise;
      handled.push(m.text());
    });
    await until(() => cluster.liveConsumers().some((c) => c.subscribe), 'subscribed');
    cluster.enqueue('t', 'before');
    await until(() => s.inFlight === 1, 'handler running');
    cluster.failover('n2');
    await until(
      () => cluster.liveConsumers().some((c) => c.subscribe && c.node.id === 'n2'),
      'resubscribed on n2',
    );
    gate.resolve();
    await until(() => cluster.settled.length === 1, 'old delivery acked');
    expect(cluster.settled[0]).toMatchObject({ kind: 'ack', tag: 'tag-1', node: 'n2' });
    cluster.enqueue('t', 'after');
    await until(() => cluster.settled.length === 2, 'new delivery acked');
    expect(handled).toEqual(['before', 'after']);
    expect(cluster.settled[1]).toMatchObject({ kind: 'ack', node: 'n2', via: 'stream' });
    expect(s.connected).toBe(true);
  });

  it('a subscribe sent to a follower is redirected to the leader it names', async () => {
    cluster = await FakeCluster.start(3, 2);
    cluster.nodes[0]!.claimedLeader = cluster.nodes[1]!.address;
    client = new FermataClient({ endpoints: [cluster.nodes[0]!.address], logger });
    const handled: string[] = [];
    client.subscribe('t', (m) => {
      handled.push(m.text());
    });
    await until(
      () => cluster!.liveConsumers().some((c) => c.subscribe && c.node.id === 'n3'),
      'subscribed on n3',
    );
    expect(cluster.node('n2').calls).toContain('consume');
    cluster.enqueue('t', 'x');
    await until(() => handled.length === 1, 'delivery');
  });

  it('stops for good on an error retrying cannot fix, rejecting done', async () => {
    const { cluster, client } = await setup();
    cluster.brokerOverrides.consume = (call) => {
      call.emit('error', { code: grpc.status.NOT_FOUND, details: 'topic t not found' });
    };
    const errors: unknown[] = [];
    const s = sub(client, { onError: (e) => errors.push(e) }, () => {});
    await expect(s.done).rejects.toBeInstanceOf(NotFoundError);
    expect(errors).toHaveLength(1);
  });

  it('stops for good on a FAILED_PRECONDITION that names no leader (a push group), calling onError once', async () => {
    const { cluster, client } = await setup();
    let opened = 0;
    const refusal =
      'subscribe.group: "t/hook" is a push group: the leader pushes its messages to its endpoint';
    cluster.brokerOverrides.consume = (call) => {
      opened++;
      call.emit('error', { code: grpc.status.FAILED_PRECONDITION, details: refusal });
    };
    const errors: unknown[] = [];
    const s = sub(client, { onError: (e) => errors.push(e) }, () => {});
    await expect(s.done).rejects.toThrow(refusal);
    expect(errors).toHaveLength(1);
    expect(opened).toBe(1);
  });
});

describe('close', () => {
  it('waits for running handlers and their acks, and hands back deliveries not yet started', async () => {
    const { cluster, client } = await setup();
    const gate = deferred();
    const s = sub(client, { prefetch: 3, concurrency: 1 }, async () => {
      await gate.promise;
    });
    await until(() => cluster.liveConsumers().some((c) => c.subscribe), 'subscribed');
    for (const x of ['a', 'b', 'c']) cluster.enqueue('t', x);
    await until(() => s.inFlight === 1 && s.bufferedCount === 2, 'one running, two buffered');
    let closed = false;
    const closing = s.close().then(() => (closed = true));
    await until(() => cluster.settled.length === 2, 'buffered handed back');
    expect(cluster.settled.map((x) => [x.kind, x.tag, x.delayMs])).toEqual([
      ['nack', 'tag-2', 0],
      ['nack', 'tag-3', 0],
    ]);
    await new Promise((r) => setTimeout(r, 30));
    expect(closed).toBe(false);
    gate.resolve();
    await closing;
    expect(cluster.settled.map((x) => [x.kind, x.tag])).toContainEqual(['ack', 'tag-1']);
    expect(cluster.consumers[0]!.requests.some((r) => r.credit?.n === 0)).toBe(true);
    await expect(s.done).resolves.toBeUndefined();
  });
});

describe('settling without a stream', () => {
  it('settles over unary calls while no stream is subscribed, retrying until a leader answers', async () => {
    const { cluster, client } = await setup(2);
    const gate = deferred();
    const s = sub(client, {}, async () => {
      await gate.promise;
    });
    await until(() => cluster.liveConsumers().some((c) => c.subscribe), 'subscribed');
    cluster.enqueue('t', 'a');
    await until(() => s.inFlight === 1, 'handler running');
    cluster.failover(undefined);
    await until(() => !s.connected, 'stream lost');
    gate.resolve();
    await new Promise((r) => setTimeout(r, 30));
    expect(cluster.settled).toHaveLength(0);
    cluster.leaderId = 'n2';
    await until(() => cluster.settled.length === 1, 'ack');
    expect(cluster.settled[0]).toMatchObject({ kind: 'ack', tag: 'tag-1', node: 'n2' });
    await until(() => s.connected, 'resubscribed');
  });

  it('does not start a handler for a delivery whose lease ran out while it waited', async () => {
    const { cluster, client } = await setup();
    cluster.subscribedLeaseMs = 40;
    const handled: string[] = [];
    sub(client, { prefetch: 2, concurrency: 1 }, async (m) => {
      handled.push(m.text());
      await new Promise((r) => setTimeout(r, 80));
    });
    await until(() => cluster.liveConsumers().some((c) => c.subscribe), 'subscribed');
    cluster.liveConsumers()[0]!.window = 0;
    cluster.enqueue('t', 'a');
    cluster.enqueue('t', 'b');
    cluster.liveConsumers()[0]!.window = 2;
    cluster.pump();
    await until(() => cluster.settled.length === 1, 'first ack');
    await new Promise((r) => setTimeout(r, 30));
    expect(handled).toEqual(['a']);
    expect(cluster.settled.map((x) => x.tag)).toEqual(['tag-1']);
  });
});
