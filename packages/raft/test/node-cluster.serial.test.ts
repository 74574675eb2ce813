// Three Raft nodes as real child processes on 127.0.0.1 (test/fixtures/kv-node.ts),
// each with its own data directory, killed with SIGKILL and started again.
// Liveness waits are generous (2 shared cores); nothing here is judged on speed.
import { afterEach, describe, expect, it } from 'vitest';
import { KvCluster, sleep } from './fixtures/kv-cluster.js';

interface ProposeResult {
  key: string;
  ok: boolean;
  error?: string;
}

let cluster: KvCluster | undefined;
afterEach(async () => {
  await cluster?.stop();
  cluster = undefined;
});

/**
 * Proposes every key (value = key) in batches, always to the current leader,
 * retrying what failed, until each key is acknowledged. `onAcked` may kill
 * nodes. Returns the acknowledged keys.
 */
async function proposeAll(
  c: KvCluster,
  keys: string[],
  options: { batch: number; parallel: number; onAcked?: (acked: number) => Promise<void> | void },
): Promise<Set<string>> {
  const acked = new Set<string>();
  const queue = [...keys];
  let leader = await c.leader();
  const worker = async () => {
    for (;;) {
      const batch = queue.splice(0, options.batch);
      if (batch.length === 0) {
        if (acked.size === keys.length) return;
        await sleep(50);
        continue;
      }
      try {
        const { results } = await c.call<{ results: ProposeResult[] }>(leader, '/propose', { keys: batch });
        for (const r of results) {
          if (r.ok) acked.add(r.key);
          else queue.push(r.key);
        }
        if (results.some((r) => !r.ok)) leader = await c.leader();
      } catch {
        queue.push(...batch);
        await sleep(100);
        leader = await c.leader();
      }
      await options.onAcked?.(acked.size);
    }
  };
  await Promise.all(Array.from({ length: options.parallel }, worker));
  return acked;
}

async function expectAllPresent(c: KvCluster, keys: string[]): Promise<void> {
  for (const id of c.running()) {
    for (let i = 0; i < keys.length; i += 2000) {
      const { missing } = await c.call<{ missing: string[] }>(id, '/missing', {
        keys: keys.slice(i, i + 2000),
      });
      expect(missing, `keys missing on ${id}`).toEqual([]);
    }
  }
}

function expectIdentical(digests: Map<string, { digest: string; count: number }>, count: number): void {
  const values = [...digests.values()];
  expect(values).toHaveLength(3);
  for (const d of values) {
    expect(d.digest).toBe(values[0]?.digest);
    expect(d.count).toBe(count);
  }
}

describe('a three-process Raft cluster', () => {
  it('loses no acknowledged entry when the leader is killed halfway through 10,000 proposals, and ends byte-identical', async () => {
    cluster = await KvCluster.start();
    const c = cluster;
    const first = await c.leader();
    const keys = Array.from({ length: 10_000 }, (_, i) => `k-${i}`);
    let killed = '';
    const acked = await proposeAll(c, keys, {
      batch: 100,
      parallel: 4,
      onAcked: async (n) => {
        if (n >= 5_000 && !killed) {
          killed = first;
          await c.kill(first, 'SIGKILL');
        }
      },
    });
    expect(acked.size).toBe(10_000);
    const second = await c.leader();
    expect(second).not.toBe(first);
    await c.startNode(killed);
    const digests = await c.converged();
    expectIdentical(digests, 10_000);
    await expectAllPresent(c, [...acked]);
  }, 150_000);

  it('a follower whose log position was compacted away catches up by snapshot and converges', async () => {
    cluster = await KvCluster.start({
      snapshotEveryEntries: 5_000,
      snapshotKeepEntries: 1_000,
      logSegmentBytes: 128 * 1024,
    });
    const c = cluster;
    const leader = await c.leader();
    const follower = c.ids.find((id) => id !== leader) as string;
    await c.call(leader, '/load', { prefix: 'warm', count: 100, concurrency: 10 });
    await c.converged();
    const stoppedAt = (await c.status(follower)).lastIndex;
    await c.kill(follower, 'SIGTERM');

    // 50,000 acknowledged entries, from whichever node leads (a needless election
    // on a busy machine only costs a retry round).
    let acked = 0;
    for (let round = 0; acked < 50_000; round++) {
      const load = await c.call<{ acked: number; failed: number }>(await c.leader(), '/load', {
        prefix: `bulk-${round}`,
        count: 50_000 - acked,
        concurrency: 256,
        valueBytes: 16,
      });
      acked += load.acked;
    }
    const before = await c.status(await c.leader());
    expect(before.firstIndex).toBeGreaterThan(stoppedAt + 1);
    expect(before.counters.snapshotsTaken).toBeGreaterThan(0);

    await c.startNode(follower);
    const digests = await c.converged();
    const count = [...digests.values()][0]?.count ?? 0;
    expect(count).toBeGreaterThanOrEqual(50_100);
    expectIdentical(digests, count);
    const after = await c.status(follower);
    expect(after.counters.snapshotsInstalled).toBeGreaterThanOrEqual(1);
    expect(after.snapshotIndex).toBeGreaterThan(stoppedAt);
  }, 150_000);

  it('loses nothing acknowledged when all three are killed at once and restarted', async () => {
    cluster = await KvCluster.start();
    const c = cluster;
    const keys = Array.from({ length: 3_000 }, (_, i) => `s-${i}`);
    const acked = new Set<string>();
    const leader = await c.leader();
    let stop = false;
    let finished = 0;
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let b = w * 100; b < keys.length && !stop; b += 800) {
        try {
          const { results } = await c.call<{ results: ProposeResult[] }>(leader, '/propose', {
            keys: keys.slice(b, b + 100),
          });
          for (const r of results) if (r.ok) acked.add(r.key);
        } catch {
          break;
        }
      }
      finished++;
    });
    while (acked.size < 1_000 && finished < writers.length) await sleep(5);
    // All three at once, while proposals are in flight.
    await Promise.all(c.ids.map((id) => c.kill(id, 'SIGKILL')));
    stop = true;
    await Promise.all(writers);
    const ackedAtKill = [...acked];
    expect(ackedAtKill.length).toBeGreaterThanOrEqual(1_000);

    await Promise.all(c.ids.map((id) => c.startNode(id)));
    await c.leader();
    const digests = await c.converged();
    const count = [...digests.values()][0]?.count ?? 0;
    expect(count).toBeGreaterThanOrEqual(ackedAtKill.length);
    expectIdentical(digests, count);
    await expectAllPresent(c, ackedAtKill);
  }, 150_000);
});
