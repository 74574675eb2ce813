/**
 * A failing fsync on real nodes (docs/operations.md, "Disk faults"): a node
 * whose Raft files fail their writes and syncs (EIO, injected under the
 * shipped file system port by test-node.ts, disk-faults.ts) stops at once,
 * fail-stop, with a `disk failure` log line and exit code 74; it never retries
 * and acknowledges. The cluster goes on with the other two, and the node,
 * restarted on a sound disk, catches up from what it had made durable. First
 * a follower, then the leader. Every publish acknowledged on the way is
 * delivered at the end, consumed through the restarted node as leader.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FermataClient, type Message, silentLogger } from '@fermata/sdk';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sleep, waitFor } from '../src/index.js';
import { ChaosCluster, type ChaosNode } from '../src/nemesis/cluster.js';

const EXIT_DISK_FAILURE = 74;

const baseDir = mkdtempSync(join(tmpdir(), 'fermata-fsync-'));
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

describe('a failing fsync stops the node', () => {
  it('a follower and then the leader whose log sync fails stop with exit 74 and a disk-failure line; the others go on; restarted, they catch up and nothing acknowledged is lost', {
    timeout: 300_000,
  }, async () => {
    cluster = await ChaosCluster.start({
      baseDir,
      env: { FERMATA_RAFT__TICK_MS: '50', FERMATA_RAFT__ELECTION_TICKS: '10' },
    });
    const c = cluster;
    await c.waitForLeader(60_000);
    const client = new FermataClient({ endpoints: c.endpoints, deadlineMs: 20_000, logger: silentLogger });
    clients.push(client);
    await client.createTopic('t');
    const acked = new Set<string>();
    let seq = 0;
    /** Publishes one message after another while `until` is false; keeps those acknowledged. */
    const publishWhile = async (label: string, until: () => boolean, atLeast: number) => {
      let n = 0;
      while (n < atLeast || !until()) {
        const value = `${label}-${seq++}`;
        try {
          await client.publish('t', value);
          acked.add(value);
          n += 1;
        } catch {
          // Unknown fate (the leader stopped under it): not counted as acknowledged.
          await sleep(100);
        }
      }
    };

    /** Fails `n`'s disk while publishes run; it must stop with the disk-failure exit. */
    const failAndRestart = async (n: ChaosNode, label: string) => {
      const before = acked.size;
      const handle = n.handle;
      const exited = handle.exited;
      c.failDisk(n.id);
      // Stops once the node has stopped (sticky: the node runs again after its restart below,
      // and a publisher left running would add to `acked` while the check reads it).
      let stopped = false;
      const publishing = publishWhile(label, () => (stopped ||= !handle.running), 20);
      const exit = await Promise.race([exited, publishing.then(() => exited)]);
      await publishing;
      expect(exit).toEqual({ code: EXIT_DISK_FAILURE, signal: null });
      const line = handle.logLines(/^disk failure: /)[0];
      expect(line?.['msg']).toMatch(/^disk failure: (write|fdatasync|fsync) of \S+ failed \(EIO\)/);
      expect(line?.['exitCode']).toBe(EXIT_DISK_FAILURE);
      // The other two go on.
      await publishWhile(`${label}-after`, () => true, 30);
      expect(acked.size).toBeGreaterThanOrEqual(before + 30);
      // A sound disk again: the node starts from what it made durable and catches up.
      c.healDisk(n.id);
      await c.restart(n.id);
      await n.handle.waitReady(60_000);
      const leader = await c.waitForLeader(30_000);
      const target = (await leader.handle.status())?.commit ?? 0;
      await waitFor(
        async () => ((await n.handle.status())?.applied ?? 0) >= target,
        60_000,
        `${n.id} to catch up`,
      );
    };

    await publishWhile('warm', () => true, 30);
    const leader1 = await c.waitForLeader(30_000);
    const follower = c.nodes.find((n) => n !== leader1) as ChaosNode;
    await failAndRestart(follower, 'follower-fails');
    const leader2 = await c.waitForLeader(30_000);
    await failAndRestart(leader2, 'leader-fails');

    // Consumed with the node that failed last as leader: it holds everything acknowledged.
    await c.onLeader((cl) => cl.transferLeadership(leader2.id)).catch(() => undefined);
    await waitFor(async () => (await c.leader())?.id === leader2.id, 30_000, `${leader2.id} leads`);
    const received = new Set<string>();
    const sub = client.subscribe('t', {}, async (m: Message) => {
      received.add(m.text());
    });
    // Not thrown at the timeout: the check below names what is missing, and where each stands.
    await waitFor(() => [...acked].every((v) => received.has(v)), 60_000, 'every acknowledged message').catch(
      () => undefined,
    );
    await sub.close();
    const missing = [...acked].filter((v) => !received.has(v));
    const where = missing.length
      ? {
          leader: (await c.leader())?.id,
          stats: await client.topicStats('t').catch((e: unknown) => String(e)),
        }
      : {};
    expect({ missing, ...where }).toEqual({ missing: [] });
    expect(acked.size).toBeGreaterThanOrEqual(120);
  });
});
