/**
 * A three-node cluster in containers, set up as the StatefulSet sets up its
 * pods, under the faults Kubernetes and networks cause, while producers
 * publish with delays of 0-5 s and consumers ack. After each scenario a
 * total-queue checker reads the whole history: no acknowledged publish lost,
 * nothing delivered that was not published, nothing delivered before its
 * due time. One JSON line per scenario reports counts and unavailability.
 *
 * Needs Docker. Without it the suite is skipped (with the reason), unless
 * FERMATA_REQUIRE_DOCKER=1, which makes a missing engine a failure (CI).
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckResult, checkQueueHistory, summarizeLeaders } from '../src/containers/checker.js';
import { type ConnectProxy, startConnectProxy } from '../src/containers/connect-proxy.js';
import { ContainerCluster } from '../src/containers/container-cluster.js';
import { buildTestImage, dockerAvailability, dockerRequired } from '../src/containers/docker.js';
import { LeaderMonitor } from '../src/containers/leader-monitor.js';
import { Workload } from '../src/containers/workload.js';
import { sendRaftBatch } from '../src/index.js';

/** Workload before the fault, and after the cluster serves again. */
const WARMUP_MS = 3_000;
const AFTER_FAULT_MS = 3_000;
const MAX_DELAY_MS = 5_000;
const LEASE_MS = 3_000;
/** Publishes that must succeed after a fault before it counts as recovered. */
const RECOVERY_PUBLISHES = 20;
const RECOVERY_TIMEOUT_MS = 60_000;
/** After the producers stop: the longest delay, a lease that lapsed with a dead consumer stream, and slack. */
const DRAIN_TIMEOUT_MS = MAX_DELAY_MS + 2 * LEASE_MS + 20_000;
/** docker stop's grace: the pod's terminationGracePeriodSeconds. */
const STOP_GRACE_S = 40;
const SCENARIO_TIMEOUT_MS = 180_000;
/** Check-quorum: a leader that hears from no majority for an election timeout (0.5-1 s here) steps down. */
const OLD_LEADER_STEP_DOWN_TIMEOUT_MS = 15_000;
const SETUP_TIMEOUT_MS = 6 * 60_000;

const docker = await dockerAvailability();
const required = dockerRequired();
if (!docker.available) {
  console.warn(
    `faults-containers: ${required ? 'FAILING' : 'skipped'}: ${docker.reason}` +
      (required ? ' (FERMATA_REQUIRE_DOCKER=1)' : '; set FERMATA_REQUIRE_DOCKER=1 to make this a failure'),
  );
}

if (!docker.available && required) {
  const reason = docker.reason;
  describe('container fault tests with FERMATA_REQUIRE_DOCKER=1', () => {
    it('a Docker engine answers', () => {
      throw new Error(`FERMATA_REQUIRE_DOCKER=1 but ${reason}`);
    });
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await sleep(100);
  }
}

/** A small seeded PRNG (mulberry32) so a run's delays can be reproduced from the printed seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe.skipIf(!docker.available)('a three-node cluster in containers under faults', () => {
  let cluster: ContainerCluster | undefined;
  let proxy: ConnectProxy | undefined;
  const savedEnv = { grpc_proxy: process.env['grpc_proxy'], no_grpc_proxy: process.env['no_grpc_proxy'] };
  const seed = Number(process.env['FERMATA_TEST_SEED'] ?? Date.now() % 2 ** 31);

  beforeAll(async () => {
    await ContainerCluster.removeLeftovers();
    const image = await buildTestImage();
    // Peer authentication on, as a deployment off loopback must have it.
    cluster = await ContainerCluster.start({ image, peerSecret: randomBytes(32).toString('hex') });
    const c = cluster;
    proxy = await startConnectProxy((host, port) => c.route(host, port));
    // The SDK's channels reach the nodes' in-cluster names through the proxy.
    process.env['grpc_proxy'] = proxy.url;
    process.env['no_grpc_proxy'] = 'localhost,127.0.0.1';
    await cluster.waitReady([0, 1, 2]);
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    for (const [k, v] of Object.entries(savedEnv)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await proxy?.close();
    await cluster?.close();
  }, SETUP_TIMEOUT_MS);

  async function scenario(name: string, fault: (c: ContainerCluster) => Promise<Record<string, unknown>>) {
    const c = cluster as ContainerCluster;
    await c.waitReady([0, 1, 2]);
    const startedAt = Date.now();
    const monitor = new LeaderMonitor(c);
    const workload = new Workload({
      endpoints: c.clientEndpoints(),
      topic: `faults-${name}-${startedAt}`,
      producers: 4,
      consumers: 2,
      maxDelayMs: MAX_DELAY_MS,
      publishIntervalMs: 50,
      leaseMs: LEASE_MS,
      publishDeadlineMs: 20_000,
      random: seeded(seed),
    });
    let facts: Record<string, unknown> = {};
    let failure: unknown;
    try {
      await workload.start();
      await sleep(WARMUP_MS);
      facts = await fault(c);
      const healedAt = Date.now();
      await waitFor(
        `${RECOVERY_PUBLISHES} publishes succeed after the fault`,
        () => workload.acknowledgedSince(healedAt) >= RECOVERY_PUBLISHES,
        RECOVERY_TIMEOUT_MS,
      );
      facts['recoveredMs'] = Date.now() - healedAt;
      await sleep(AFTER_FAULT_MS);
      await workload.stopProducers();
      await workload.drain(DRAIN_TIMEOUT_MS);
    } catch (err) {
      failure = err;
    } finally {
      await workload.close();
    }
    const samples = await monitor.stop();
    const result: CheckResult = checkQueueHistory(workload.history.ops);
    const { examples, ...counts } = result;
    console.log(
      JSON.stringify({
        scenario: name,
        seed,
        ...counts,
        ...summarizeLeaders(samples),
        ...facts,
        consumerErrors: workload.errors.length,
        durationMs: Date.now() - startedAt,
      }),
    );
    if (!result.valid || failure !== undefined) {
      const file = join(tmpdir(), `fermata-faults-${name}-${startedAt}.json`);
      writeFileSync(file, JSON.stringify({ seed, result, samples, history: workload.history.ops }, null, 1));
      const lostOps = workload.history.ops.filter((o) => examples.lost.includes(o.value));
      console.error(
        `${name}: history in ${file}\nexamples ${JSON.stringify(examples)}\nops of lost values ${JSON.stringify(lostOps)}`,
      );
      for (const n of c.nodes) console.error(`--- ${n.name} log (tail)\n${await c.logs(n.index, 60)}`);
    }
    if (failure !== undefined) throw failure;
    expect(result.acknowledged, 'publishes acknowledged').toBeGreaterThan(RECOVERY_PUBLISHES);
    expect(
      { lost: examples.lost, unexpected: examples.unexpected, early: examples.early },
      'acknowledged messages delivered, nothing unexpected, nothing early',
    ).toEqual({ lost: [], unexpected: [], early: [] });
    return result;
  }

  it('the peer port refuses a caller without the cluster secret', async () => {
    const c = cluster as ContainerCluster;
    const codes = await Promise.all(
      c.nodes.map((n) =>
        sendRaftBatch(`127.0.0.1:${n.hostPorts.peer}`, { clusterId: 'any', from: 'evil', messages: [] }),
      ),
    );
    expect(codes).toEqual(c.nodes.map(() => 16)); // UNAUTHENTICATED
  });

  it(
    'SIGKILL of the leader, then starting it again, loses no acknowledged message',
    async () => {
      await scenario('kill-leader', async (c) => {
        const leader = await c.leader();
        await c.kill(leader, 'SIGKILL');
        await c.waitExited(leader);
        // The two others elect a leader while it is down.
        await waitFor('another node leads', async () => (await c.leader()) !== leader, 30_000);
        await c.startAgain(leader);
        await c.waitReady([0, 1, 2]);
        return { killed: c.node(leader).name };
      });
    },
    SCENARIO_TIMEOUT_MS,
  );

  it(
    'partitioning the leader from both followers, then healing, loses no acknowledged message',
    async () => {
      await scenario('partition-leader', async (c) => {
        const leader = await c.leader();
        const cutAt = Date.now();
        await c.disconnect(leader);
        let stepDownMs = -1;
        try {
          await waitFor(
            'the majority side elects a leader',
            async () => (await c.leader()) !== leader,
            30_000,
          );
          // The isolated old leader must notice it lost its quorum (check-quorum) and step down.
          await waitFor(
            'the isolated old leader steps down',
            async () => ((await c.statusFromInside(leader))?.role ?? 'leader') !== 'leader',
            OLD_LEADER_STEP_DOWN_TIMEOUT_MS,
          );
          stepDownMs = Date.now() - cutAt;
          // Keep it isolated a while longer: it must commit nothing and come back as a follower.
          await sleep(2_000);
        } finally {
          await c.reconnect(leader);
        }
        await c.waitReady([0, 1, 2]);
        return { partitioned: c.node(leader).name, oldLeaderSteppedDownMs: stepDownMs };
      });
    },
    SCENARIO_TIMEOUT_MS,
  );

  it(
    'a rolling restart (SIGTERM, wait ready, one node at a time) loses nothing and every node exits 0',
    async () => {
      const exitCodes: Record<string, number> = {};
      await scenario('rolling-restart', async (c) => {
        // kubectl rollout restart replaces the highest ordinal first.
        for (const i of [2, 1, 0]) {
          exitCodes[c.node(i).name] = await c.stop(i, STOP_GRACE_S);
          await c.startAgain(i);
          await c.waitReady([0, 1, 2]);
        }
        return { exitCodes };
      });
      expect(exitCodes, 'graceful stop exits 0').toEqual({ 'fermata-2': 0, 'fermata-1': 0, 'fermata-0': 0 });
    },
    SCENARIO_TIMEOUT_MS,
  );

  it(
    'SIGKILL of all three nodes at once, then starting all three, loses no acknowledged message',
    async () => {
      await scenario('kill-all', async (c) => {
        await Promise.all(c.nodes.map((n) => c.kill(n.index, 'SIGKILL')));
        await Promise.all(c.nodes.map((n) => c.waitExited(n.index)));
        await Promise.all(c.nodes.map((n) => c.startAgain(n.index)));
        await c.waitReady([0, 1, 2], 90_000);
        return {};
      });
    },
    SCENARIO_TIMEOUT_MS,
  );
});
