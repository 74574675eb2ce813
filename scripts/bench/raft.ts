// Raft: a three-process cluster on loopback (packages/raft/test/fixtures), 256-byte
// entries, 1 and 256 concurrent proposers. The load runs inside the leader process
// (its /load route), so latency is propose() -> committed on a majority (each copy
// fsynced) -> applied on the leader, without a client network hop.
import type { RaftNodeStatus } from '@fermata/raft';
import { KvCluster } from '../../packages/raft/test/fixtures/kv-cluster.js';
import { load1 } from './cluster.js';
import { emit, flag, option, printTargets, round, summary, target } from './report.js';

const ENTRY_BYTES = 256;

interface PerfResult {
  /** The node process's CPU since the previous /perf call. */
  cpuMs: number;
  fsyncP50Ms: number;
  fsyncP99Ms: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

interface LoadResult {
  acked: number;
  failed: number;
  durationMs: number;
  p50Ms: number;
  p99Ms: number;
  fsyncs: number;
  entriesSynced: number;
}

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  // A case given 0 entries is skipped (to profile the other alone).
  const cases = [
    {
      proposers: 1,
      entries: option(args, 'entries-1', quick ? 300 : 3_000),
      warmup: option(args, 'warmup-1', quick ? 100 : 2_000),
    },
    {
      proposers: 256,
      entries: option(args, 'entries-256', quick ? 10_000 : 100_000),
      warmup: option(args, 'warmup-256', quick ? 1_000 : 10_000),
    },
  ].filter((c) => c.entries > 0);
  const cluster = await KvCluster.start();
  try {
    const leader = await cluster.leader();
    const follower = cluster.ids.find((id) => id !== leader) as string;
    // Warm up connections and the LevelDB files.
    await cluster.call(leader, '/load', {
      prefix: 'warm',
      count: 500,
      concurrency: 16,
      valueBytes: ENTRY_BYTES,
    });
    for (const c of cases) {
      // And the JIT, at the case's own concurrency: without it V8 was still compiling the
      // one-in-flight path through its measured run (~60 us of each node's CPU per commit).
      await cluster.call(
        leader,
        '/load',
        { prefix: `warm${c.proposers}`, count: c.warmup, concurrency: c.proposers, valueBytes: ENTRY_BYTES },
        600_000,
      );
      await Promise.all(cluster.ids.map((id) => cluster.call(id, '/perf')));
      const before = await cluster.status(follower);
      const r = await cluster.call<LoadResult>(
        leader,
        '/load',
        { prefix: `p${c.proposers}`, count: c.entries, concurrency: c.proposers, valueBytes: ENTRY_BYTES },
        600_000,
      );
      const after: RaftNodeStatus = await cluster.status(follower);
      const perf = await Promise.all(cluster.ids.map((id) => cluster.call<PerfResult>(id, '/perf')));
      const leaderPerf = perf[cluster.ids.indexOf(leader)] as PerfResult;
      if (r.failed > 0) throw new Error(`${r.failed} proposals failed (leader changed during the run?)`);
      const seconds = r.durationMs / 1000;
      const followerFsyncs = after.counters.fsyncs - before.counters.fsyncs;
      const record = {
        scenario: 'raft',
        quick,
        nodes: 3,
        entry_bytes: ENTRY_BYTES,
        proposers: c.proposers,
        entries: r.acked,
        commits_per_s: round(r.acked / seconds, 0),
        commit_latency_p50_ms: round(r.p50Ms, 2),
        commit_latency_p99_ms: round(r.p99Ms, 2),
        fsyncs_per_s: round(r.fsyncs / seconds, 0),
        entries_per_fsync: round(r.entriesSynced / Math.max(1, r.fsyncs), 1),
        follower_entries_per_fsync: round(
          (after.counters.entriesSynced - before.counters.entriesSynced) / Math.max(1, followerFsyncs),
          1,
        ),
        // The three processes' CPU (the leader's includes the load generator).
        servers_cpu_us_per_commit: round((1000 * perf.reduce((sum, p) => sum + p.cpuMs, 0)) / r.acked, 1),
        fsync_p50_ms: round(leaderPerf.fsyncP50Ms, 2),
        fsync_p99_ms: round(leaderPerf.fsyncP99Ms, 2),
        event_loop_delay_max_ms: round(Math.max(...perf.map((p) => p.loopDelayMaxMs)), 1),
        load_avg_1m: load1(),
      };
      // The target (docs/benchmarks.md): with one proposal in flight, at most 0.4 ms of the three
      // nodes' CPU per commit.
      const targets =
        c.proposers === 1
          ? [target('servers_cpu_us_per_commit_1', record.servers_cpu_us_per_commit, '<=', 400, !quick)]
          : [];
      emit(targets.length > 0 ? { ...record, targets } : record);
      summary(
        `raft ${String(c.proposers).padStart(3)} proposers: ${record.commits_per_s} commits/s, ` +
          `p50 ${record.commit_latency_p50_ms} ms, p99 ${record.commit_latency_p99_ms} ms, ` +
          `${record.fsyncs_per_s} fsyncs/s, ${record.entries_per_fsync} entries/fsync on the leader ` +
          `(${record.follower_entries_per_fsync} on a follower); log write (durable) p50 ${record.fsync_p50_ms} ms, ` +
          `p99 ${record.fsync_p99_ms} ms; worst event-loop stall ${record.event_loop_delay_max_ms} ms; ` +
          `servers' CPU ${record.servers_cpu_us_per_commit} µs per commit`,
      );
      if (targets.length > 0) printTargets('raft', targets);
    }
  } finally {
    await cluster.stop();
  }
}
