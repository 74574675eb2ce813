/**
 * Three real nodes: the operations endpoints (/metrics, /livez, /readyz, gRPC
 * health), a leader SIGKILLed while producers and consumers run (every
 * acknowledged publish is delivered afterwards, nothing before its due time,
 * consumers continue on the new leader), and a leader SIGTERMed (exit 0 in
 * the grace period, leadership handed over, streams ended with a clear status).
 */
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type Cluster,
  type ConsumeSession,
  i64,
  isCallError,
  NodeClients,
  retryUnavailable,
  sleep,
  startCluster,
} from '../src/index.js';
import { eventually, idOf, leaderClients, ms, msg, onLeader, publish, text, uniqueTopic } from './support.js';

/** grpc.health.v1, from its .proto text: the test checks the wire format, not the server's own codec. */
const healthRoot = protobuf.parse(`
  syntax = "proto3";
  package grpc.health.v1;
  message HealthCheckRequest { string service = 1; }
  message HealthCheckResponse { int32 status = 1; }
`).root;
const HealthReq = healthRoot.lookupType('grpc.health.v1.HealthCheckRequest');
const HealthRes = healthRoot.lookupType('grpc.health.v1.HealthCheckResponse');
const SERVING = 1;

function healthCheck(address: string, service: string): Promise<number> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  return new Promise<number>((resolve, reject) => {
    client.makeUnaryRequest(
      '/grpc.health.v1.Health/Check',
      (r: { service: string }) => Buffer.from(HealthReq.encode(HealthReq.create(r)).finish()),
      (b: Buffer) => HealthRes.toObject(HealthRes.decode(b), { defaults: true }) as { status: number },
      { service },
      { deadline: Date.now() + 10_000 },
      (err, res) => {
        client.close();
        if (err) reject(err);
        else resolve(res!.status);
      },
    );
  });
}

/** The value of one sample line of a Prometheus text exposition (sum over matching label sets). */
function metric(body: string, name: string, labels: Record<string, string> = {}): number | undefined {
  let total: number | undefined;
  for (const line of body.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!m || m[1] !== name) continue;
    const ls = m[2] ?? '';
    if (!Object.entries(labels).every(([k, v]) => ls.includes(`${k}="${v}"`))) continue;
    total = (total ?? 0) + Number(m[3]);
  }
  return total;
}

describe('a three-node cluster', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster({ nodes: 3 });
  });
  afterEach((ctx) => {
    if (ctx.task.result?.state === 'fail') console.error(cluster.logs(40));
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('serves /livez, /readyz, /metrics and the gRPC health service on every node', async () => {
    const c = await leaderClients(cluster);
    const topic = uniqueTopic('metrics');
    try {
      const s = await retryUnavailable(() => c.consume({ topic, prefetch: 10, leaseMs: i64(30_000) }));
      await publish(c, [msg(topic, 'a'), msg(topic, 'b'), msg(topic, 'c', { delayMs: 600_000 })]);
      const got = await s.waitForCount(2);
      await s.ack([got[0]!.delivery.tag]);
      await s.nack(got[1]!.delivery.tag, 600_000);
      s.cancel();
    } finally {
      c.close();
    }
    const leader = await cluster.leader();
    for (const node of cluster.nodes) {
      expect((await node.httpGet('/livez')).status).toBe(200);
      await eventually(
        async () => (await node.httpGet('/readyz')).status === 200,
        20_000,
        `${node.id} ready`,
      );
      for (const service of ['', 'fermata.v1.Broker'])
        expect(await healthCheck(node.clientAddress, service)).toBe(SERVING);
      const m = await node.httpGet('/metrics');
      expect(m.status).toBe(200);
      expect(m.contentType).toContain('text/plain');
      expect(metric(m.body, 'fermata_raft_term')).toBeGreaterThan(0);
      expect(metric(m.body, 'fermata_raft_commit_index')).toBeGreaterThan(0);
      expect(metric(m.body, 'fermata_raft_applied_index')).toBeGreaterThan(0);
      expect(metric(m.body, 'fermata_raft_is_leader')).toBe(node === leader ? 1 : 0);
      expect(metric(m.body, 'fermata_fsync_duration_ms_count')).toBeGreaterThan(0);
      expect(metric(m.body, 'fermata_apply_batch_entries_count')).toBeGreaterThan(0);
    }
    // Leader-side counters and per-topic gauges.
    const body = (await leader.httpGet('/metrics')).body;
    expect(metric(body, 'fermata_publishes_total')).toBeGreaterThanOrEqual(3);
    expect(metric(body, 'fermata_deliveries_total', { topic })).toBe(2);
    expect(metric(body, 'fermata_acks_total', { topic })).toBe(1);
    expect(metric(body, 'fermata_nacks_total', { topic })).toBe(1);
    expect(metric(body, 'fermata_delivery_lateness_ms_count')).toBeGreaterThanOrEqual(2);
    // Per-queue gauges are read from the store shortly after applies.
    await eventually(
      async () => {
        const b = (await leader.httpGet('/metrics')).body;
        return (
          metric(b, 'fermata_pending_messages', { topic, group: 'default' }) === 2 &&
          metric(b, 'fermata_in_flight_messages', { topic, group: 'default' }) === 0
        );
      },
      10_000,
      'pending 2 and in flight 0 in the queue gauges',
    );
    // An unknown service is NOT_FOUND.
    const err = await healthCheck(leader.clientAddress, 'no.such.Service').catch((e: grpc.ServiceError) => e);
    expect((err as grpc.ServiceError).code).toBe(grpc.status.NOT_FOUND);
  });

  it('TransferLeadership moves the leader to the named node; streams on the old leader end naming the new one', async () => {
    const old = await cluster.leader();
    const target = cluster.others(old)[0]!;
    const c = new NodeClients(old.clientAddress);
    try {
      const topic = uniqueTopic('transfer');
      const s = await retryUnavailable(() => c.consume({ topic, prefetch: 1 }));
      const r = await c.transferLeadership(target.id);
      expect(r.leaderId).toBe(target.id);
      expect((await cluster.leader()).id).toBe(target.id);
      const ended = await s.waitEnded(20_000);
      expect({ code: ended.code, leader: ended.meta['fermata-leader'] }).toEqual({
        code: grpc.status.FAILED_PRECONDITION,
        leader: target.clientAddress,
      });
      // The old leader now redirects a call that asks to be (the SDK's direct path), and forwards the others.
      const direct = new NodeClients(old.clientAddress, { direct: true });
      const err = await direct.publish({ messages: [msg(topic, 'x')] }).catch((e: unknown) => e);
      direct.close();
      expect(err).toMatchObject({
        code: grpc.status.FAILED_PRECONDITION,
        meta: { 'fermata-leader': target.clientAddress },
      });
      const [forwarded] = (await c.publish({ messages: [msg(topic, 'y')] })).results;
      expect(forwarded!.id).toBeDefined();
    } finally {
      c.close();
    }
  });

  it('GetClusterInfo waiting for a leader: a live leader is named at once, a killed one only once another is elected', {
    timeout: 90_000,
  }, async () => {
    const old = await cluster.leader();
    const follower = cluster.others(old)[0]!;
    const c = new NodeClients(follower.clientAddress);
    const ask = () =>
      c.clusterInfo({ waitForLeaderMs: 8_000, unreachableLeaderAddress: old.clientAddress }, 20_000);
    try {
      // The client calls the leader unreachable, but the follower hears from it: answered with its
      // next heartbeat (8 s otherwise).
      const started = Date.now();
      const live = await ask();
      expect(live.leaderAddress).toBe(old.clientAddress);
      expect(Date.now() - started).toBeLessThan(4_000);
      // Killed: the follower still names it until its election timeout; the answer waits for the next.
      await old.kill('SIGKILL');
      const next = await ask();
      expect(next.leaderId).not.toBe('');
      expect(next.leaderId).not.toBe(old.id);
      expect(next.leaderAddress).not.toBe(old.clientAddress);
      // Without waiting, a node answers at once with what it knows (the test harness's default).
      expect((await c.clusterInfo()).leaderId).toBe(next.leaderId);
    } finally {
      c.close();
      await old.start();
      await cluster.leader(60_000);
    }
  });

  it('SIGKILL of the leader under load: every acknowledged publish is delivered, none early, consumers continue', {
    timeout: 180_000,
  }, async () => {
    const topic = uniqueTopic('failover');
    const oldLeader = await cluster.leader();
    /** id -> due time of every acknowledged publish. */
    const acked = new Map<string, number>();
    const deliveries: Array<{
      id: string;
      dueAtMs: number;
      receivedAtMs: number;
      payload: string;
      node: string;
      attempt: number;
    }> = [];
    let producing = true;
    let consuming = true;
    let publishFailures = 0;

    const leaderAddress = async (): Promise<string> => (await cluster.leader(60_000)).clientAddress;

    const producer = async (p: number) => {
      let c = new NodeClients(oldLeader.clientAddress);
      let seq = 0;
      while (producing) {
        const messages = Array.from({ length: 5 }, () =>
          msg(topic, `p${p}-${seq++}`, { delayMs: Math.floor(Math.random() * 1500) }),
        );
        try {
          const r = await c.publish({ messages }, 10_000);
          for (const res of r.results) acked.set(idOf(res), ms(res.dueAtMs));
        } catch (err) {
          publishFailures++;
          c.close();
          const hint = isCallError(err) ? err.meta['fermata-leader'] : undefined;
          c = new NodeClients(hint && hint !== oldLeader.clientAddress ? hint : await leaderAddress());
          await sleep(50);
        }
        await sleep(20);
      }
      c.close();
    };

    const consumer = async () => {
      while (consuming) {
        const address = await leaderAddress().catch(() => undefined);
        if (!address) continue;
        const c = new NodeClients(address);
        let s: ConsumeSession | undefined;
        try {
          s = await c.consume({ topic, prefetch: 50, leaseMs: i64(1_500) });
          let seen = 0;
          while (consuming && !s.ended) {
            await s.waitFor(
              () => s!.received.length > seen || s!.ended !== undefined || !consuming,
              60_000,
              'work',
            );
            const batch = s.received.slice(seen);
            seen += batch.length;
            for (const r of batch) {
              deliveries.push({
                id: idOf(r.delivery),
                dueAtMs: ms(r.delivery.dueAtMs),
                receivedAtMs: r.receivedAtMs,
                payload: text(r.delivery.payload),
                node: address,
                attempt: r.delivery.attempt,
              });
            }
            if (batch.length > 0)
              await s
                .ack(
                  batch.map((r) => r.delivery.tag),
                  10_000,
                )
                .catch(() => undefined);
          }
        } catch {
          // The node went away or is no longer leader: find the new one.
        } finally {
          s?.cancel();
          c.close();
        }
        await sleep(50);
      }
    };

    const producers = [producer(1), producer(2)];
    const consumers = [consumer(), consumer()];
    // A third consumer on the old leader takes deliveries and never acks: their leases are in
    // the replicated store, so the new leader must hand them out again once they run out.
    const holderClients = new NodeClients(oldLeader.clientAddress);
    const holder = await retryUnavailable(() =>
      holderClients.consume({ topic, prefetch: 10, leaseMs: i64(1_500) }),
    );
    await eventually(
      () => deliveries.length >= 20 && acked.size >= 50 && holder.received.length >= 5,
      30_000,
      'traffic before the kill',
    );
    const held = new Set(holder.received.map((r) => idOf(r.delivery)));

    const killedAt = Date.now();
    const ackedBeforeKill = acked.size;
    expect(await oldLeader.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const newLeader = await cluster.leader(60_000);
    expect(newLeader.id).not.toBe(oldLeader.id);
    await eventually(() => acked.size >= ackedBeforeKill + 150, 60_000, 'publishes on the new leader');
    producing = false;
    await Promise.all(producers);

    const delivered = new Set<string>();
    await eventually(
      () => {
        for (const d of deliveries) delivered.add(d.id);
        return [...acked.keys()].every((id) => delivered.has(id));
      },
      60_000,
      'every acknowledged publish to be delivered',
    ).catch((err: unknown) => {
      const missing = [...acked.keys()].filter((id) => !delivered.has(id));
      throw new Error(
        `${String(err)}; ${missing.length} of ${acked.size} missing, e.g. ${missing.slice(0, 5).join(', ')}`,
      );
    });
    consuming = false;
    await Promise.all(consumers);

    for (const d of deliveries) {
      expect(d.receivedAtMs).toBeGreaterThanOrEqual(d.dueAtMs);
      const firstDue = acked.get(d.id);
      if (firstDue !== undefined) expect(d.receivedAtMs).toBeGreaterThanOrEqual(firstDue);
    }
    const afterKill = deliveries.filter(
      (d) => d.node === newLeader.clientAddress && d.receivedAtMs > killedAt,
    );
    expect(afterKill.length).toBeGreaterThan(0);
    // Every message the holder held came back to the working consumers, as a later attempt.
    for (const id of held) {
      const later = deliveries.filter((d) => d.id === id);
      expect(later.length, `held message ${id} was delivered again`).toBeGreaterThan(0);
      expect(Math.max(...later.map((d) => d.attempt))).toBeGreaterThanOrEqual(2);
    }
    holder.cancel();
    holderClients.close();
    console.log(
      JSON.stringify({
        acknowledgedPublishes: acked.size,
        deliveries: deliveries.length,
        redeliveries: deliveries.length - new Set(deliveries.map((d) => d.id)).size,
        publishFailures,
        deliveredOnNewLeader: afterKill.length,
        heldByTheLostConsumer: held.size,
      }),
    );

    // The killed node comes back and catches up.
    await oldLeader.start();
    await oldLeader.waitReady();
  });

  it('SIGTERM of the leader: exits 0 within the grace period, hands leadership over, ends streams clearly', {
    timeout: 120_000,
  }, async () => {
    const leader = await cluster.leader();
    const term = (await leader.status())!.term;
    const c = new NodeClients(leader.clientAddress);
    const topic = uniqueTopic('sigterm');
    const s = await retryUnavailable(() => c.consume({ topic, prefetch: 5 }));
    const t0 = Date.now();
    const exit = await leader.stop(30_000);
    const stopMs = Date.now() - t0;
    expect(exit).toEqual({ code: 0, signal: null });
    // shutdown.graceMs defaults to 10 s.
    expect(stopMs).toBeLessThan(10_000 + 5_000);
    const ended = await s.waitEnded(10_000);
    expect([grpc.status.UNAVAILABLE, grpc.status.FAILED_PRECONDITION]).toContain(ended.code);
    expect(ended.details).not.toBe('');
    c.close();

    const next = await cluster.leader(30_000);
    expect(next.id).not.toBe(leader.id);
    expect((await next.status())!.term).toBeGreaterThan(term);
    expect(leader.logLines(/leadership transfer on shutdown failed/)).toEqual([]);
    expect(leader.logLines('stopped')).toHaveLength(1);
    // The remaining two serve.
    const nc = new NodeClients(next.clientAddress);
    try {
      const r = await publish(nc, [msg(topic, 'after')]);
      expect(r.results).toHaveLength(1);
    } finally {
      nc.close();
    }
    await leader.start();
    await leader.waitReady();
    // A follower stops cleanly too.
    const follower = cluster.others(await cluster.leader())[0]!;
    expect(await follower.stop(30_000)).toEqual({ code: 0, signal: null });
    await follower.start();
    await follower.waitReady();
  });

  it('AddMember brings a joining node in as a voter that catches up; RemoveMember takes it out', {
    timeout: 120_000,
  }, async () => {
    const n4 = await cluster.addNode();
    const added = await onLeader(cluster, (c) =>
      c.addMember({ id: n4.id, peerAddress: n4.peerAddress, address: n4.clientAddress }),
    );
    expect(added.members.map((m) => m.id)).toContain(n4.id);
    await n4.waitReady();
    await eventually(
      async () => {
        const info = await onLeader(cluster, (c) => c.clusterInfo());
        const m = info.members.find((x) => x.id === n4.id);
        const s = await n4.status();
        return m?.voter === true && s !== undefined && s.applied >= Number(info.commitIndex);
      },
      60_000,
      'the new member to be a voter that applied everything',
    );
    const view = new NodeClients(n4.clientAddress);
    try {
      const info = await view.clusterInfo();
      expect(info.members.map((m) => m.id).sort()).toEqual(['n1', 'n2', 'n3', 'n4']);
      expect(info.leaderId).not.toBe('');
    } finally {
      view.close();
    }
    const removed = await onLeader(cluster, (c) => c.removeMember({ id: n4.id }));
    expect(removed.members.map((m) => m.id).sort()).toEqual(['n1', 'n2', 'n3']);
    await n4.stop();
    // The three go on.
    const r = await onLeader(cluster, (c) =>
      c.publish({ messages: [msg(uniqueTopic('after-remove'), 'x')] }),
    );
    expect(r.results).toHaveLength(1);
  });

  it('a node without a quorum is not ready, reports NOT_SERVING and answers UNAVAILABLE; it recovers with its peers', {
    timeout: 120_000,
  }, async () => {
    const leader = await cluster.leader();
    const [a, b] = cluster.others(leader).filter((n) => n.id !== 'n4');
    await Promise.all([a!.kill('SIGKILL'), b!.kill('SIGKILL')]);
    // Check-quorum: the lone leader steps down within an election timeout or so.
    await eventually(async () => (await leader.httpGet('/readyz')).status === 503, 30_000, 'readyz 503');
    expect(await healthCheck(leader.clientAddress, '')).not.toBe(SERVING);
    const c = new NodeClients(leader.clientAddress);
    try {
      const err = await c
        .publish({ messages: [msg(uniqueTopic('no-quorum'), 'x')] }, 10_000)
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ code: grpc.status.UNAVAILABLE });
    } finally {
      c.close();
    }
    await Promise.all([a!.start(), b!.start()]);
    await cluster.leader();
    for (const n of [leader, a!, b!]) await n.waitReady();
    expect(await healthCheck(leader.clientAddress, '')).toBe(SERVING);
  });
});
