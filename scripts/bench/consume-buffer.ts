// consume-buffer: one node, a topic of 16 groups, 4 consume streams per group (64) that
// subscribe with a prefetch of 16 and never read (bare HTTP/2, windows left full), and
// --messages (default 64; --quick 16) messages of 1 MiB: unbounded, the node would hold every
// group's deliveries of them (16 x 64 MiB). Prints what the node reports holding for them
// (fermata_consume_loaded_payload_bytes + fermata_consume_unsent_payload_bytes, at most
// limits.maxConsumeBufferBytes), the
// deliveries it holds back, and its RSS before, at its peak and after the streams close.
// --limit-mb sets limits.maxConsumeBufferBytes (default: the node's default, 64 MiB).
import { int64FromSafe } from '@fermata/protocol';
import { startCluster } from '../../test-cluster/src/harness.js';
import { rawConsumer } from '../../test-cluster/src/raw-consumer.js';
import { load1, newClient, rssBytes, serverGauge, sleep, startedClusters } from './cluster.js';
import { emit, flag, option, printTargets, round, summary, target } from './report.js';

const MB = 1024 * 1024;
const GROUPS = 16;
const STREAMS_PER_GROUP = 4;
/** The memory limit of deploy/k8s/base/statefulset.yaml. */
const MANIFEST_LIMIT_MB = 1024;

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  const messages = option(args, 'messages', quick ? 16 : 64);
  const limitMb = option(args, 'limit-mb', 0);
  const cluster = await startCluster({
    nodes: 1,
    keep: true,
    env: {
      FERMATA_LOG_LEVEL: 'warn',
      ...(limitMb > 0 ? { FERMATA_LIMITS__MAX_CONSUME_BUFFER_BYTES: String(limitMb * MB) } : {}),
    },
  });
  startedClusters.push({ cluster, keep: flag(args, 'keep') });
  const node = cluster.nodes[0]!;
  const client = newClient(cluster);
  const topic = 'bench-unread';
  const streams: Array<ReturnType<typeof rawConsumer>> = [];
  try {
    await client.createTopic(topic);
    const groups = Array.from({ length: GROUPS }, (_, i) => (i === 0 ? 'default' : `g${i}`));
    for (const g of groups.slice(1)) await client.createGroup(topic, g);
    const payload = new Uint8Array(MB).fill(7);
    for (let i = 0; i < messages; i += 2) {
      await client.publishBatch([
        { topic, payload },
        { topic, payload },
      ]);
    }
    await sleep(1_000);
    const rssBefore = rssBytes(node.pid);
    for (const group of groups) {
      for (let s = 0; s < STREAMS_PER_GROUP; s++) {
        const raw = rawConsumer(node.clientAddress, undefined, {
          topic,
          group,
          prefetch: 16,
          leaseMs: int64FromSafe(60_000),
        });
        raw.stream.pause();
        streams.push(raw);
      }
    }
    let peakRss = 0;
    let peakUnsent = 0;
    const until = performance.now() + (quick ? 4_000 : 15_000);
    while (performance.now() < until) {
      peakRss = Math.max(peakRss, rssBytes(node.pid));
      peakUnsent = Math.max(
        peakUnsent,
        (await serverGauge(node, 'fermata_consume_unsent_payload_bytes')) +
          (await serverGauge(node, 'fermata_consume_loaded_payload_bytes')),
      );
      await sleep(200);
    }
    const held = await serverGauge(node, 'fermata_consume_held_deliveries');
    const limit = await serverGauge(node, 'fermata_consume_buffer_limit_bytes');
    for (const s of streams.splice(0)) s.close();
    // RSS after the close, a figure --quick does not judge.
    await sleep(quick ? 1_000 : 3_000);
    const rssAfter = rssBytes(node.pid);
    const record = {
      scenario: 'consume-buffer',
      streams: GROUPS * STREAMS_PER_GROUP,
      messages,
      payload_mb: 1,
      deliveries_unbounded_mb: GROUPS * messages,
      buffer_limit_mb: round(limit / MB, 1),
      peak_held_mb: round(peakUnsent / MB, 1),
      held_deliveries: held,
      rss_before_mb: round(rssBefore / MB, 1),
      peak_rss_mb: round(peakRss / MB, 1),
      rss_after_close_mb: round(rssAfter / MB, 1),
      manifest_memory_limit_mb: MANIFEST_LIMIT_MB,
      load1: load1(),
      targets: [
        target('peak_held_mb', round(peakUnsent / MB, 1), '<=', round(limit / MB, 1), !quick),
        target('peak_rss_mb', round(peakRss / MB, 1), '<=', MANIFEST_LIMIT_MB, !quick),
      ],
    };
    emit(record);
    summary(
      `consume-buffer: 64 unread streams, ${GROUPS * messages} MiB of deliveries: at most ${record.peak_held_mb} MiB held (loaded or unsent) ` +
        `(limit ${record.buffer_limit_mb} MiB), ${held} deliveries held back; RSS ${record.rss_before_mb} MB before, ` +
        `${record.peak_rss_mb} MB at peak, ${record.rss_after_close_mb} MB after the streams closed`,
    );
    printTargets('consume-buffer', record.targets);
  } finally {
    for (const s of streams) s.close();
    await client.close();
    await cluster.stop();
  }
}
