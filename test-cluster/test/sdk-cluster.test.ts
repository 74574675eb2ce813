/**
 * The SDK against three real `fermata serve` processes: cluster info, leader
 * transfer and membership changes through the client, and a producer (the
 * batching `producer()` and plain `publish`) and a consumer that keep working
 * across a leader SIGKILL and the killed node's restart: every acknowledged
 * publish is delivered, nothing before its due time, and the SDK's retries
 * store no message twice.
 */
import {
  DeadlineExceededError,
  type FermataClient,
  FermataError,
  type Message,
  NotLeaderError,
  type PublishResult,
  UnavailableError,
} from '@fermata/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, sleep, startCluster } from '../src/index.js';
import { clientOf, type LogLine, rejection, type Seen, seen, topicName } from './sdk-support.js';
import { eventually } from './support.js';

const bigintSafe = (_k: string, v: unknown) => (typeof v === 'bigint' ? String(v) : v);

describe('the SDK against a three-node cluster', () => {
  let cluster: Cluster;
  let client: FermataClient & { log: LogLine[] };

  beforeAll(async () => {
    cluster = await startCluster({ nodes: 3 });
    client = clientOf(cluster);
  });
  afterEach((ctx) => {
    if (ctx.task.result?.state === 'fail') {
      console.error(cluster.logs(40));
      console.error(JSON.stringify(client.log.slice(-40), bigintSafe));
    }
  });
  afterAll(async () => {
    await client?.close();
    await cluster?.stop();
  });

  /** Every node running and ready, one leader (liveness only). */
  async function allReady(): Promise<void> {
    for (const node of cluster.nodes) {
      if (!node.running) await node.start();
      await node.waitReady();
    }
    await cluster.leader();
  }

  it('clusterInfo names the leader and three voters; a client given only a follower finds the leader', async () => {
    const leader = await cluster.leader();
    // Right after start-up the leader may not have heard from a follower recently ('unreachable').
    await eventually(
      async () =>
        (await client.clusterInfo()).members.every((m) => m.role === 'leader' || m.role === 'follower'),
      30_000,
      'every member heard from',
    );
    const info = await client.clusterInfo();
    expect(info.leaderId).toBe(leader.id);
    expect(info.leaderAddress).toBe(leader.clientAddress);
    expect(info.nodeId).toBe(leader.id);
    expect(info.members.map((m) => m.id).sort()).toEqual(['n1', 'n2', 'n3']);
    for (const m of info.members) {
      const node = cluster.node(m.id);
      expect(m).toMatchObject({ address: node.clientAddress, peerAddress: node.peerAddress, voter: true });
      expect(m.role).toBe(m.id === leader.id ? 'leader' : 'follower');
    }
    const follower = cluster.others(leader)[0]!;
    const narrow = clientOf(cluster, { endpoints: [follower.clientAddress] });
    try {
      const topic = topicName('via-follower');
      const id = await narrow.publish(topic, 'x', { delayMs: 600_000 });
      expect(narrow.leaderAddress).toBe(leader.clientAddress);
      expect((await client.getMessage(topic, id)).message.id).toBe(id);
      // The batching producer and a subscription are redirected too.
      const producer = narrow.producer({ lingerMs: 1 });
      const sent = await Promise.all([producer.send(topic, 'p1'), producer.send(topic, 'p2')]);
      await producer.close();
      const got: bigint[] = [];
      const sub = narrow.subscribe(topic, async (m) => {
        got.push(m.id);
      });
      await eventually(() => got.length >= 2, 30_000, 'the two produced messages');
      expect(got.sort()).toEqual(sent.map((r) => r.id).sort());
      await sub.close();
    } finally {
      await narrow.close();
    }
  });

  it('transferLeadership moves the leader (to a named node, and to the best follower); the client follows', async () => {
    const old = await cluster.leader();
    const target = cluster.others(old)[0]!;
    expect(await client.transferLeadership(target.id)).toBe(target.id);
    expect((await cluster.leader()).id).toBe(target.id);
    const topic = topicName('transfer');
    await client.publish(topic, 'after the transfer', { delayMs: 600_000 });
    expect(client.leaderAddress).toBe(target.clientAddress);
    expect((await client.clusterInfo()).leaderId).toBe(target.id);

    const next = await client.transferLeadership();
    expect(next).not.toBe(target.id);
    expect(['n1', 'n2', 'n3']).toContain(next);
    expect((await cluster.leader()).id).toBe(next);
    expect((await client.topicStats(topic)).groups[0]!.pending).toBe(1);
  });

  it('removeMember and addMember: a follower leaves and comes back as a voter; a learner is added and removed', async () => {
    await allReady();
    const leader = await cluster.leader();
    const follower = cluster.others(leader)[0]!;
    const topic = topicName('members');

    const afterRemove = await client.removeMember(follower.id);
    expect(afterRemove.map((m) => m.id).sort()).toEqual(
      cluster.nodes
        .filter((n) => n !== follower)
        .map((n) => n.id)
        .sort(),
    );
    // Two voters still make a quorum.
    await client.publish(topic, 'with two', { delayMs: 600_000 });
    await follower.stop();

    // A learner that never answers can be added (learnerOnly) and removed again.
    const ghost = { peerAddress: '127.0.0.1:9', address: '127.0.0.1:9' };
    const withGhost = await client.addMember('n4', { ...ghost, learnerOnly: true });
    expect(withGhost.find((m) => m.id === 'n4')).toMatchObject({ ...ghost, voter: false });
    const withoutGhost = await client.removeMember('n4');
    expect(withoutGhost.map((m) => m.id)).not.toContain('n4');

    // The removed node comes back with its data and is added again: learner, caught up, voter.
    await follower.start();
    const back = await client.addMember(follower.id, {
      peerAddress: follower.peerAddress,
      address: follower.clientAddress,
    });
    expect(back.find((m) => m.id === follower.id)).toMatchObject({
      voter: true,
      address: follower.clientAddress,
      peerAddress: follower.peerAddress,
    });
    await follower.waitReady();
    await eventually(
      async () => {
        const info = await client.clusterInfo();
        return (
          info.members.length === 3 &&
          info.members.every((m) => m.voter && (m.role === 'leader' || m.role === 'follower'))
        );
      },
      30_000,
      'three voters again',
    );
    // It has the messages written while it was out.
    await eventually(
      async () => (await follower.status())?.applied === (await leader.status())?.applied,
      30_000,
      'the returned node to catch up',
    );
    await client.publish(topic, 'with three', { delayMs: 600_000 });
    expect((await client.topicStats(topic)).groups[0]!.pending).toBe(2);
  });

  it('a producer, plain publishes and a consumer keep working across a leader SIGKILL and its restart; no duplicates, none early, none lost', {
    timeout: 240_000,
  }, async () => {
    await allReady();
    const topic = topicName('failover');
    await client.createTopic(topic);
    const producerClient = clientOf(cluster);
    const consumerClient = clientOf(cluster);

    /** Acknowledged publishes by payload (payloads are unique per publish call). */
    const acked = new Map<string, PublishResult & { at: number }>();
    const failed: Array<{ payload: string; error: string }> = [];
    const deliveries: Array<Seen & { payload: string }> = [];
    let producing = true;

    const record = (payload: string) => (r: PublishResult) => acked.set(payload, { ...r, at: Date.now() });
    const fail = (payload: string) => (e: unknown) => failed.push({ payload, error: String(e) });
    // Mostly short delays; some long enough to fall due on the next leader.
    const delay = () => Math.floor(Math.random() * (Math.random() < 0.2 ? 3_000 : 800));

    // The batching producer: small batches, several in flight.
    const producer = producerClient.producer({ lingerMs: 5, maxBatchMessages: 20, maxInFlightBatches: 4 });
    const sends: Promise<unknown>[] = [];
    const produceLoop = (async () => {
      for (let n = 0; producing; n++) {
        await producer.ready();
        const payload = `P-${n}`;
        sends.push(producer.send(topic, payload, { delayMs: delay() }).then(record(payload), fail(payload)));
        if (n % 5 === 4) await sleep(25);
      }
    })();
    // Plain publish calls, one after another.
    const publishLoop = (async () => {
      for (let n = 0; producing; n++) {
        const payload = `U-${n}`;
        await producerClient
          .publishDetailed(topic, payload, { delayMs: delay() })
          .then(record(payload), fail(payload));
        await sleep(15);
      }
    })();
    const sub = consumerClient.subscribe(
      topic,
      { leaseMs: 2_000, concurrency: 8, prefetch: 32, retryBackoff: { initialMs: 100, jitter: 0 } },
      async (m) => {
        deliveries.push({ ...seen(m), payload: m.text() });
        // Some work, so that handlers are running (and acks outstanding) when the leader dies.
        await sleep(10 + Math.floor(Math.random() * 40));
      },
    );
    let stopped: unknown;
    sub.done.catch((e: unknown) => (stopped = e));

    const count = (prefix: string) => [...acked.keys()].filter((p) => p.startsWith(prefix)).length;
    await eventually(
      () => count('P-') >= 100 && count('U-') >= 20 && deliveries.length >= 50,
      60_000,
      'traffic before the kill',
    );

    const old = await cluster.leader();
    const before = { p: count('P-'), u: count('U-') };
    const killedAt = Date.now();
    expect(await old.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const next = await cluster.leader();
    expect(next.id).not.toBe(old.id);
    // Both kinds of publish go on, and messages published after the kill are delivered.
    await eventually(
      () =>
        count('P-') >= before.p + 100 &&
        count('U-') >= before.u + 20 &&
        deliveries.some((d) => (acked.get(d.payload)?.at ?? 0) > killedAt),
      90_000,
      'publishes and deliveries on the new leader',
    );

    // The killed node comes back and catches up while the traffic goes on.
    const restartedAt = Date.now();
    await old.start();
    await old.waitReady();
    const mid = { p: count('P-'), u: count('U-') };
    await eventually(
      () =>
        count('P-') >= mid.p + 50 &&
        count('U-') >= mid.u + 10 &&
        deliveries.some((d) => (acked.get(d.payload)?.at ?? 0) > restartedAt),
      90_000,
      'publishes and deliveries after the restart',
    );

    producing = false;
    await Promise.all([produceLoop, publishLoop]);
    await producer.close();
    await Promise.all(sends);

    // Every acknowledged publish is delivered (at least once).
    const deliveredPayloads = () => new Set(deliveries.map((d) => d.payload));
    await eventually(
      () => {
        const got = deliveredPayloads();
        return [...acked.keys()].every((p) => got.has(p));
      },
      90_000,
      'every acknowledged publish to be delivered',
    ).catch((err: unknown) => {
      const got = deliveredPayloads();
      const missing = [...acked.keys()].filter((p) => !got.has(p));
      throw new Error(`${String(err)}; ${missing.length} of ${acked.size} missing: ${missing.slice(0, 10)}`);
    });
    await sleep(1_000);
    await consumerClient.close();
    await producerClient.close();
    expect(stopped).toBeUndefined();

    // No publish failed: the SDK retried through the failover within its deadline.
    expect(failed).toEqual([]);
    // No duplicates: each payload (one publish call) is stored under exactly one id, the acknowledged one.
    const idsByPayload = new Map<string, Set<bigint>>();
    for (const d of deliveries) {
      const ids = idsByPayload.get(d.payload) ?? new Set<bigint>();
      ids.add(d.id);
      idsByPayload.set(d.payload, ids);
    }
    const duplicated = [...idsByPayload].filter(([, ids]) => ids.size > 1);
    expect(duplicated.map(([p, ids]) => `${p}: ${[...ids].join(',')}`)).toEqual([]);
    for (const [payload, r] of acked) expect([...idsByPayload.get(payload)!]).toEqual([r.id]);
    // Nothing the cluster did not acknowledge was delivered (there is nothing unacknowledged).
    expect([...idsByPayload.keys()].filter((p) => !acked.has(p))).toEqual([]);
    // No message key was given, and none was stored (the SDK's idempotency key is the request's).
    expect(deliveries.filter((d) => d.key !== '')).toEqual([]);
    // Deliveries of one id repeat only as redeliveries: each a later attempt.
    const attemptsById = new Map<bigint, number[]>();
    for (const d of deliveries) attemptsById.set(d.id, [...(attemptsById.get(d.id) ?? []), d.attempt]);
    for (const [id, attempts] of attemptsById) {
      expect(new Set(attempts).size, `attempts of ${id}: ${attempts}`).toBe(attempts.length);
      expect(Math.min(...attempts)).toBeGreaterThanOrEqual(1);
    }
    // Never early: not before the delivery's due time, nor before the due time the publish answered.
    for (const d of deliveries) {
      expect(d.receivedAtMs).toBeGreaterThanOrEqual(d.dueAtMs);
      expect(d.receivedAtMs).toBeGreaterThanOrEqual(acked.get(d.payload)!.dueAtMs);
    }
    // The topic is drained: everything was acked.
    await eventually(
      async () => {
        const g = (await client.topicStats(topic)).groups[0]!;
        return g.pending === 0 && g.inFlight === 0;
      },
      30_000,
      'the topic to drain',
    );
    console.log(
      JSON.stringify({
        acknowledgedPublishes: acked.size,
        viaProducer: count('P-'),
        viaPublish: count('U-'),
        deduplicatedRetries: [...acked.values()].filter((r) => r.deduplicated).length,
        deliveries: deliveries.length,
        redeliveries: deliveries.length - attemptsById.size,
        killed: old.id,
        newLeader: next.id,
      }),
    );
  });
  it('deliveries held by a manual consumer survive a leader SIGKILL: extend, ack and nack work on the new leader', {
    timeout: 120_000,
  }, async () => {
    await allReady();
    const topic = topicName('held');
    await client.createTopic(topic);
    const consumer = clientOf(cluster);
    const held: Message[] = [];
    const got: Seen[] = [];
    const sub = consumer.subscribe(topic, { mode: 'manual', leaseMs: 30_000, concurrency: 10 }, (m) => {
      got.push(seen(m));
      if (m.attempt === 1) held.push(m);
      else return m.ack();
    });
    const ids = (
      await client.publishBatch(Array.from({ length: 3 }, (_, i) => ({ topic, payload: `h${i}` })))
    ).map((r) => r.id);
    await eventually(() => held.length === 3, 30_000, 'three deliveries');
    const [toExtend, toAck, toNack] = [...held].sort((a, b) => (a.id < b.id ? -1 : 1));

    const old = await cluster.leader();
    await old.kill('SIGKILL');
    const next = await cluster.leader();
    expect(next.id).not.toBe(old.id);
    // The leases are replicated: the tags still work on the new leader.
    const leaseBefore = toExtend!.leaseExpiresAtMs;
    await toExtend!.extend(60_000);
    expect(toExtend!.leaseExpiresAtMs).toBeGreaterThan(leaseBefore);
    await toAck!.ack();
    await toNack!.nack({ delayMs: 300 });
    await toExtend!.ack();
    await eventually(
      () => got.some((s) => s.id === toNack!.id && s.attempt === 2),
      30_000,
      'the nacked message back',
    );
    await eventually(() => sub.connected, 30_000, 'the subscription on the new leader');
    await eventually(
      async () => {
        const g = (await client.topicStats(topic)).groups[0]!;
        return g.pending === 0 && g.inFlight === 0;
      },
      30_000,
      'everything acked',
    );
    // Only the nacked one came back.
    expect(got.map((s) => `${s.id}/${s.attempt}`).sort()).toEqual(
      [...ids.map((id) => `${id}/1`), `${toNack!.id}/2`].sort(),
    );
    await consumer.close();
    await old.start();
    await old.waitReady();
  });

  it('a leader that freezes with its connections open (SIGSTOP) is abandoned: calls go to the new leader within the deadline', {
    timeout: 120_000,
  }, async () => {
    await allReady();
    const topic = topicName('frozen');
    // Learn the leader first, so the client holds an open channel to it.
    await client.publish(topic, 'before', { delayMs: 600_000 });
    const leader = await cluster.leader();
    const frozen = clientOf(cluster, { deadlineMs: 30_000, attemptTimeoutMs: 2_000 });
    try {
      await frozen.publish(topic, 'warm', { delayMs: 600_000 });
      expect(frozen.leaderAddress).toBe(leader.clientAddress);
      process.kill(leader.pid!, 'SIGSTOP');
      try {
        const id = await frozen.publish(topic, 'during', { delayMs: 600_000 });
        // It was stored by a new leader, not by the frozen one.
        expect(frozen.leaderAddress).not.toBe(leader.clientAddress);
        expect((await frozen.getMessage(topic, id)).message.id).toBe(id);
      } finally {
        process.kill(leader.pid!, 'SIGCONT');
      }
    } finally {
      await frozen.close();
    }
    await allReady();
  });

  it('without a quorum a call fails once its deadline has passed; the same client works again when the nodes return', {
    timeout: 120_000,
  }, async () => {
    await allReady();
    const topic = topicName('quorum');
    await client.publish(topic, 'before', { delayMs: 600_000 });
    const leader = await cluster.leader();
    const followers = cluster.others(leader);
    await Promise.all(followers.map((f) => f.kill('SIGKILL')));
    const t0 = Date.now();
    const err = await rejection(client.publish(topic, 'lost?', { deadlineMs: 3_000 }), FermataError);
    // Liveness: it gives up (not a speed requirement: the bound is generous).
    expect(Date.now() - t0).toBeLessThan(30_000);
    expect(
      err instanceof UnavailableError ||
        err instanceof NotLeaderError ||
        err instanceof DeadlineExceededError,
      `${err.name}: ${err.message}`,
    ).toBe(true);
    await Promise.all(followers.map((f) => f.start()));
    await allReady();
    const id = await client.publish(topic, 'after', { delayMs: 600_000 });
    expect((await client.getMessage(topic, id)).message.id).toBe(id);
  });
});
