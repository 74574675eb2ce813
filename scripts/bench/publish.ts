// Publish throughput and latency through the SDK on a three-node cluster (durability quorum):
// 1 producer publishing batches of 1 (unary Publish, one at a time), then 64 concurrent
// producers each sending batches of 100 over its own PublishStream. 256-byte payloads,
// 24 h delay (nothing becomes due during the run).
import {
  fmt,
  load1,
  newClient,
  payloadFor,
  produceStreams,
  serverCpu,
  startBenchCluster,
  stats,
} from './cluster.js';
import { emit, flag, option, printTargets, round, summary, target } from './report.js';

const DAY_MS = 86_400_000;

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  const singles = option(args, 'singles', quick ? 300 : 3_000);
  const producers = option(args, 'producers', 64);
  const batch = option(args, 'batch', 100);
  const total = option(args, 'messages', quick ? 20_000 : 400_000);
  const cluster = await startBenchCluster(args);
  const client = newClient(cluster);
  try {
    const payload = payloadFor(0);
    // Warm-up: connections, JIT, LevelDB files.
    await produceStreams(client, {
      total: quick ? 2_000 : 20_000,
      producers: 8,
      batch,
      topic: 'bench-warm',
      make: () => ({ payload, delayMs: DAY_MS }),
      latencies: false,
    });

    const lat = new Float64Array(singles);
    let t = performance.now();
    for (let i = 0; i < singles; i++) {
      const s = performance.now();
      await client.publish('bench-publish-1', payload, { delayMs: DAY_MS });
      lat[i] = performance.now() - s;
    }
    const seconds1 = (performance.now() - t) / 1000;
    const s1 = stats(lat);
    const one = {
      scenario: 'publish',
      quick,
      case: '1x1',
      producers: 1,
      batch: 1,
      payload_bytes: payload.length,
      messages: singles,
      msgs_per_s: round(singles / seconds1, 0),
      latency_p50_ms: s1.p50,
      latency_p99_ms: s1.p99,
      latency_max_ms: s1.max,
      load_avg_1m: load1(),
    };
    emit(one);
    summary(
      `publish 1 producer x batch 1: ${one.msgs_per_s} msgs/s, latency ${fmt(s1)} (load ${one.load_avg_1m})`,
    );

    t = performance.now();
    const cpu = serverCpu(cluster);
    const r = await produceStreams(client, {
      total,
      producers,
      batch,
      topic: 'bench-publish-64',
      make: () => ({ payload, delayMs: DAY_MS }),
    });
    const cpuUsed = cpu.done(total);
    const s64 = stats(r.latency!);
    const many = {
      scenario: 'publish',
      quick,
      case: `${producers}x${batch}`,
      producers,
      batch,
      payload_bytes: payload.length,
      messages: total,
      msgs_per_s: round(total / r.seconds, 0),
      latency_p50_ms: s64.p50,
      latency_p99_ms: s64.p99,
      latency_max_ms: s64.max,
      failed: r.failed,
      // On all three nodes.
      server_cpu_us_per_msg: cpuUsed.us_per_msg,
      server_cpu_ms_per_node: cpuUsed.per_node_ms,
      server_cpu_us_per_msg_by_thread: cpuUsed.us_per_msg_by_thread,
      load_avg_1m: load1(),
    };
    // The target (docs/benchmarks.md): 64 producers x 100, at least 100,000 msgs/s.
    const targets = [
      target(
        'msgs_per_s_64x100',
        many.msgs_per_s,
        '>=',
        100_000,
        !quick && producers === 64 && batch === 100,
      ),
    ];
    emit({ ...many, targets });
    summary(
      `publish ${producers} producers x batch ${batch} (PublishStream): ${many.msgs_per_s} msgs/s, latency ${fmt(s64)}; servers' CPU ${many.server_cpu_us_per_msg} us/msg (load ${many.load_avg_1m})`,
    );
    printTargets('publish', targets);
  } finally {
    await client.close();
    await cluster.stop();
  }
}
