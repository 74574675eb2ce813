import { afterEach, describe, expect, it } from 'vitest';
import { AlreadyExistsError, FermataClient, type Logger, type Message, NotFoundError } from '../src/index.js';
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

describe('topics and groups', () => {
  it('create, update (mask of the settings given), list, stats, groups, delete', async () => {
    cluster = await FakeCluster.start(3, 1);
    client = new FermataClient({ endpoints: cluster.endpoints, logger: quiet });
    const t = await client.createTopic('orders', {
      maxAttempts: 5,
      expiryAction: 'dead-letter',
      defaultLeaseMs: 10_000,
    });
    expect(t).toEqual({
      name: 'orders',
      settings: {
        maxAttempts: 5,
        defaultLeaseMs: 10_000,
        deadLetterTopic: '',
        expiryAction: 'dead-letter',
        timeBucketMs: 0,
        dedupWindowMs: 0,
        ordering: 'none',
        orderingKeyFromKey: false,
        maxLatenessMs: 0,
        deadlineAction: 'dead-letter',
        paused: false,
      },
      groups: ['default'],
      createdAtMs: 5,
      groupSettings: {},
    });
    await expect(client.createTopic('orders')).rejects.toBeInstanceOf(AlreadyExistsError);

    await client.updateTopic('orders', { dedupWindowMs: 60_000, deadLetterTopic: 'orders.dead' });
    expect(cluster.topicUpdates[0]!.updateMask).toEqual(['dead_letter_topic', 'dedup_window_ms']);

    await client.updateTopic('orders', { paused: false, maxLatenessMs: 0 });
    expect(cluster.topicUpdates[1]!.updateMask).toEqual(['max_lateness_ms', 'paused']);

    const created = await client.createGroup('orders', 'audit', { maxInFlight: 20, ordering: 'key' });
    expect(created.groups).toEqual(['default', 'audit']);
    expect(created.groupSettings['audit']).toEqual({
      maxDeliveriesPerSecond: 0,
      burst: 0,
      maxInFlight: 20,
      ordering: 'key',
      paused: false,
    });
    const updated = await client.updateGroup('orders', 'audit', { maxInFlight: 0, paused: true });
    expect(cluster.groupUpdates[0]!.updateMask).toEqual(['max_in_flight', 'paused']);
    expect(updated.groupSettings['audit']).toMatchObject({
      maxInFlight: 0,
      ordering: undefined,
      paused: true,
    });
    await expect(client.updateGroup('orders', 'audit', { maxInFlightt: 1 } as never)).rejects.toThrow(
      /unknown option "maxInFlightt"; did you mean "maxInFlight"/,
    );
    expect((await client.listTopics()).map((x) => x.name)).toEqual(['orders']);
    expect(await client.topicStats('orders')).toEqual({
      topic: 'orders',
      groups: [
        {
          group: 'default',
          pending: 4,
          inFlight: 2,
          deadLettered: 1,
          nextDueMs: 77,
          settings: {
            maxDeliveriesPerSecond: 100,
            burst: 100,
            maxInFlight: 0,
            ordering: 'key',
            paused: true,
          },
          paused: true,
          throttled: 6,
        },
        {
          group: 'audit',
          pending: 0,
          inFlight: 0,
          deadLettered: 0,
          nextDueMs: undefined,
          settings: {
            maxDeliveriesPerSecond: 0,
            burst: 0,
            maxInFlight: 0,
            ordering: undefined,
            paused: false,
          },
          paused: false,
          throttled: 0,
        },
      ],
      deletions: [
        { group: 'audit', startedAtMs: 50, entriesAtStart: 9, removedEntries: 3, removedRecords: 1 },
      ],
    });
    expect(await client.deleteGroup('orders', 'audit')).toBe(0n);
    expect(await client.deleteTopic('orders')).toBe(3n);
    await expect(client.deleteTopic('orders')).rejects.toBeInstanceOf(NotFoundError);
    // Every admin call went to the leader.
    expect(cluster.nodes[1]!.calls.filter((c) => c !== 'getClusterInfo')).toHaveLength(11);
  });
});

describe('the documented ten-line example', () => {
  it('publishes with a delay and consumes the JSON payload', async () => {
    cluster = await FakeCluster.start(3, 0);
    client = new FermataClient({ endpoints: cluster.endpoints, logger: quiet });
    const id = await client.publish('emails', JSON.stringify({ to: 'ada@example.com' }), { delayMs: 5_000 });
    expect(id).toBe(1n);
    expect(cluster.stored[0]!.delayMs).toBe(5_000n);
    const got: unknown[] = [];
    client.subscribe('emails', async (message: Message) => {
      got.push(message.json());
    });
    await until(() => cluster!.liveConsumers().some((s) => s.subscribe), 'subscribed');
    cluster.enqueue('emails', Buffer.from(cluster.stored[0]!.payload).toString());
    await until(() => cluster!.settled.length === 1, 'ack');
    expect(got).toEqual([{ to: 'ada@example.com' }]);
  });
});
