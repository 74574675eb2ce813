/**
 * A stepped wall clock on real nodes (docs/guarantees.md, "Time and clocks"):
 * the leader's system clock jumps an hour forward, then a follower's an hour
 * back and leadership moves to it. Through both, no message is delivered
 * before its publish plus its delay (true time, this process's clock), a
 * lease runs its length and a TTL its length (neither ends early, neither
 * stands still), and a schedule keeps firing once a second. Then the node
 * whose system clock is still an hour ahead is restarted and takes that
 * clock: a leadership transfer to it fails, it never leads, and the cluster's
 * time does not jump ("The bounds between nodes"). The nodes run
 * test-node.ts, whose Date is the system clock plus an offset the test steps.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FermataClient, type Message, NotFoundError, silentLogger } from '@fermata/sdk';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sleep, waitFor } from '../src/index.js';
import { ChaosCluster, type ChaosNode } from '../src/nemesis/cluster.js';

const HOUR_MS = 3_600_000;
/** Nodes and this process read one system clock; the SDK and the event loops add a few ms. */
const EARLY_TOLERANCE_MS = 10;
/** A lease is timed here from the arrival of its delivery, which left the leader when the lease began. */
const LEASE_TRANSIT_MS = 250;

const baseDir = mkdtempSync(join(tmpdir(), 'fermata-clock-'));
let cluster: ChaosCluster | undefined;
const clients: FermataClient[] = [];

afterEach((ctx) => {
  if (ctx.task.result?.state === 'fail' && cluster) console.error(cluster.logs(30));
});
afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await cluster?.stop();
  rmSync(baseDir, { recursive: true, force: true });
});

interface Sent {
  readonly value: string;
  readonly sentMs: number;
  readonly delayMs: number;
}

describe('a stepped wall clock', () => {
  it('delivers nothing early, ends leases and TTLs on time and keeps schedules firing, through a leader stepped forward, a failover to a node stepped back, and a node restarted an hour ahead that is never elected', {
    timeout: 240_000,
  }, async () => {
    cluster = await ChaosCluster.start({ baseDir });
    const c = cluster;
    await c.waitForLeader(60_000);
    const client = new FermataClient({ endpoints: c.endpoints, deadlineMs: 15_000, logger: silentLogger });
    clients.push(client);
    for (const t of ['t', 'lease', 'ttl', 's']) await client.createTopic(t);
    await client.upsertSchedule('s', 'tick', { spec: 'every 1s', catchUp: 'none', payload: 'tick' });

    // Every delivery of topic t, by value: when it arrived here.
    const received = new Map<string, number>();
    // A short lease: a delivery leased ahead by a leader that then hands over comes back after
    // it (docs/guarantees.md, failover), which bounds how late a message may arrive here.
    const sub = client.subscribe('t', { leaseMs: 3_000 }, async (m: Message) => {
      if (!received.has(m.text())) received.set(m.text(), Date.now());
    });
    // Topic lease: deliveries never settled, so each comes back when its lease ends.
    const leaseDeliveries: Array<{ value: string; attempt: number; atMs: number }> = [];
    const leaseSub = client.subscribe('lease', { mode: 'manual', leaseMs: 6_000 }, async (m: Message) => {
      leaseDeliveries.push({ value: m.text(), attempt: m.attempt, atMs: Date.now() });
    });

    const sent: Sent[] = [];
    const publishSome = async (label: string, n: number, delays: [number, number]) => {
      for (let i = 0; i < n; i++) {
        const delayMs = delays[0] + Math.floor(((delays[1] - delays[0]) * i) / Math.max(1, n - 1));
        const value = `${label}-${i}`;
        const sentMs = Date.now();
        await client.publish('t', value, { delayMs });
        sent.push({ value, sentMs, delayMs });
      }
    };
    /** A lease taken now: the next delivery of its message comes no earlier than its end, and not much later. */
    const leaseRound = async (value: string) => {
      await client.publish('lease', value);
      await waitFor(() => leaseDeliveries.some((d) => d.value === value), 15_000, `${value} delivered`);
      await waitFor(
        () => leaseDeliveries.some((d) => d.value === value && d.attempt === 2),
        30_000,
        `${value} delivered again after its lease`,
      );
      const [first, second] = leaseDeliveries.filter((d) => d.value === value);
      // Measured from the first delivery's arrival, a little after its lease began.
      expect(second!.atMs - first!.atMs).toBeGreaterThanOrEqual(6_000 - LEASE_TRANSIT_MS);
      expect(second!.atMs - first!.atMs).toBeLessThan(6_000 + 5_000);
    };
    /** A TTL of 4 s: the message is there 3 s later, and gone soon after 4 s. */
    const ttlRound = async (value: string) => {
      const r = await client.publishDetailed('ttl', value, { ttlMs: 4_000, delayMs: 60_000 });
      const at = Date.now();
      await sleep(3_000 - (Date.now() - at));
      expect((await client.getMessage('ttl', r.id)).message.payload.length).toBeGreaterThan(0);
      await waitFor(
        async () =>
          client.getMessage('ttl', r.id).then(
            () => false,
            (err: unknown) => err instanceof NotFoundError,
          ),
        15_000,
        `${value} expired`,
      );
      expect(Date.now() - at).toBeGreaterThanOrEqual(4_000 - EARLY_TOLERANCE_MS);
    };
    /** Nothing received so far arrived before its publish plus its delay. */
    const noneEarly = () => {
      const early = sent
        .filter((x) => received.has(x.value))
        .map((x) => ({ ...x, byMs: x.sentMs + x.delayMs - received.get(x.value)! }))
        .filter((x) => x.byMs > EARLY_TOLERANCE_MS);
      expect(early).toEqual([]);
    };
    /** The schedule fires about once a second over `ms`. */
    const ticks = async (ms: number) => {
      const before = (await client.getSchedule('s', 'tick')).fired;
      await sleep(ms);
      const after = (await client.getSchedule('s', 'tick')).fired;
      return after - before;
    };

    // 1. The leader's system clock jumps an hour forward, with deliveries, a lease and a TTL running.
    const leader1 = await c.waitForLeader(30_000);
    await publishSome('fwd', 8, [2_000, 9_000]);
    const leaseFwd = leaseRound('lease-fwd');
    const ttlFwd = ttlRound('ttl-fwd');
    c.stepClock(leader1.id, HOUR_MS);
    await Promise.all([leaseFwd, ttlFwd]);
    noneEarly();
    expect(await ticks(5_000)).toBeGreaterThanOrEqual(3);
    await publishSome('fwd-after', 4, [1_000, 4_000]);

    // 2. A follower's clock jumps an hour back; leadership moves to it.
    const follower = c.nodes.find((n) => n.id !== leader1.id && n.handle.running) as ChaosNode;
    c.stepClock(follower.id, -HOUR_MS);
    await sleep(500);
    await c.onLeader((cl) => cl.transferLeadership(follower.id));
    await waitFor(async () => (await c.leader())?.id === follower.id, 20_000, `${follower.id} leads`);
    await publishSome('back', 8, [2_000, 9_000]);
    await Promise.all([leaseRound('lease-back'), ttlRound('ttl-back')]);
    expect(await ticks(5_000)).toBeGreaterThanOrEqual(3);

    // The stepped nodes say so: the metric and a warning.
    const metric = async (n: ChaosNode, series: string) => {
      const body = (await n.handle.httpGet('/metrics')).body;
      const line = body.split('\n').find((l) => l.startsWith(`${series} `));
      return Number(line?.slice(series.length + 1));
    };
    const offset = (n: ChaosNode) => metric(n, 'fermata_clock_offset_ms');
    expect(Math.abs((await offset(leader1)) - HOUR_MS)).toBeLessThan(1_000);
    expect(Math.abs((await offset(follower)) + HOUR_MS)).toBeLessThan(1_000);
    expect(leader1.handle.logLines(/the system clock was stepped/).length).toBeGreaterThan(0);

    // 3. The first leader, its system clock still an hour ahead, is restarted and takes that clock.
    //    Its vote requests carry a time an hour off its voters': a transfer to it fails, it never
    //    leads, and the cluster's time does not jump.
    await c.kill(leader1.id);
    await c.restart(leader1.id, { clockOffsetMs: HOUR_MS });
    await leader1.handle.waitReady(60_000);
    expect(Math.abs(await offset(leader1))).toBeLessThan(1_000);
    let steppedLed = false;
    let watching = true;
    const watch = (async () => {
      while (watching) {
        if ((await leader1.handle.status(1_000))?.role === 'leader') steppedLed = true;
        await sleep(100);
      }
    })();
    await publishSome('restarted', 8, [2_000, 9_000]);
    const transfer = await c
      .onLeader((cl) => cl.transferLeadership(leader1.id))
      .then(
        () => 'moved',
        (err: unknown) => String(err),
      );
    expect(transfer).toMatch(/timed out waiting for leadership to move to/);
    await sleep(2_000);
    const leader3 = await c.waitForLeader(30_000);
    expect(leader3.id).not.toBe(leader1.id);
    // The leader's time: a publish now is due now, not an hour ahead.
    const nowSentMs = Date.now();
    const r = await client.publishDetailed('t', 'now');
    sent.push({ value: 'now', sentMs: nowSentMs, delayMs: 0 });
    expect(Math.abs(r.dueAtMs - nowSentMs)).toBeLessThan(5_000);
    expect(await ticks(5_000)).toBeGreaterThanOrEqual(3);
    watching = false;
    await watch;
    expect(steppedLed).toBe(false);
    // Both sides said why: the others refused its requests, it saw them refused.
    const others = c.nodes.filter((n) => n !== leader1);
    expect(others.some((n) => n.handle.logLines(/refused the (pre-)?vote request of n\d/).length > 0)).toBe(
      true,
    );
    expect(
      leader1.handle.logLines(/refused this node's (pre-)?vote request for its clock/).length,
    ).toBeGreaterThan(0);
    const refusedByOthers = await Promise.all(
      others.map((n) => metric(n, 'fermata_raft_votes_refused_clock_total{refused_by="self"}')),
    );
    expect(refusedByOthers.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);

    // Every message arrived, none before its publish plus its delay, none stuck.
    await waitFor(() => sent.every((s) => received.has(s.value)), 30_000, 'every message delivered');
    await sub.close();
    await leaseSub.close();
    noneEarly();
    const late = sent
      .map((s) => ({ ...s, lateMs: received.get(s.value)! - (s.sentMs + s.delayMs) }))
      .filter((s) => s.lateMs > 3_000 + 5_000);
    expect(late).toEqual([]);
  });
});
