// Delivery lateness: N messages (256 B) with due times uniform in 1-5 s, published by 4
// producers in batches of 100 (the peers' workload), consumed by one subscription.
// Lateness = received-at (when the SDK took it in: its arrival, or the end of its hold for a
// delivery sent ahead, `Message.receivedAtMs`) minus due-at (the absolute due time each
// message was published with, `deliverAt`, by this machine's clock), first delivery of each.
// Two consumers, one after the other on topics of their own: the SDK's subscription, which
// holds deliveries sent ahead, and a client speaking the protocol itself (grpc-consumer.ts),
// sent each delivery at its due time; the raw client's lateness is its arrival minus due-at.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  type Cluster,
  DeliveryLedger,
  ensureTopic,
  eventLoopLag,
  fmt,
  load1,
  newClient,
  payloadFor,
  produceStreams,
  type Stats,
  seqOf,
  serverCpu,
  serverGauge,
  serverHistogram,
  sleep,
  startBenchCluster,
} from './cluster.js';
import { grpcConsumer } from './grpc-consumer.js';
import {
  emit,
  flag,
  option,
  printTargets,
  round,
  stringOption,
  summary,
  type TargetLine,
  target,
} from './report.js';

/** Targets of the delivery figures (docs/benchmarks.md). */
const TARGET_SDK_P99_MS = 5;
const TARGET_RAW_P99_MS = 20;
const TARGET_CPU_US_PER_MSG = 100;
/** The peers' workload size: targets are judged at it only. */
const TARGET_MESSAGES = 20_000;

type ConsumerKind = 'sdk' | 'raw';

interface Workload {
  readonly n: number;
  readonly delayMin: number;
  readonly delayMax: number;
  readonly graceMs: number;
}

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  const n = option(args, 'messages', quick ? 2_000 : 20_000);
  const delayMin = option(args, 'delay-min', 1_000);
  const delayMax = option(args, 'delay-max', quick ? 3_000 : 5_000);
  const graceMs = option(args, 'grace-ms', quick ? 10_000 : 30_000);
  // `--consumer sdk|raw|both`: the SDK's subscription (holds deliveries sent ahead), a client
  // speaking the protocol itself (grpc-consumer.ts: sent at the due time), or one after the other.
  const which = stringOption(args, 'consumer', 'both');
  if (!['sdk', 'raw', 'both'].includes(which))
    throw new Error(`--consumer must be sdk, raw or both, got ${which}`);
  const kinds: ConsumerKind[] = which === 'both' ? ['sdk', 'raw'] : [which as ConsumerKind];
  // Warm-up (not measured): the same workload, due sooner, on its own topic and subscription, so
  // that the figures are those of a running broker (JIT-compiled code, connections, LevelDB
  // files), not of the first seconds of three fresh processes.
  const warmup = option(args, 'warmup', quick ? 500 : 20_000);
  const cluster = await startBenchCluster(args);
  const client = newClient(cluster);
  try {
    if (warmup > 0) await warm(client, warmup, graceMs);
    const targets: TargetLine[] = [];
    for (const kind of kinds) {
      const record = await measure(cluster, client, kind, { n, delayMin, delayMax, graceMs });
      const atSize = !quick && n >= TARGET_MESSAGES;
      const p99 = (record.lateness_ms as Stats).p99;
      const mine = [
        kind === 'sdk'
          ? target('sdk_lateness_p99_ms', p99, '<=', TARGET_SDK_P99_MS, atSize)
          : target('raw_lateness_p99_ms', p99, '<=', TARGET_RAW_P99_MS, atSize),
        target(
          `${kind}_server_cpu_us_per_msg`,
          record.server_cpu_us_per_msg,
          '<=',
          TARGET_CPU_US_PER_MSG,
          atSize,
        ),
      ];
      targets.push(...mine);
      emit({ ...record, warmup_messages: warmup, quick, targets: mine });
      summary(
        `delivery (${kind} consumer) ${n} msgs, delays ${delayMin}-${delayMax} ms: produce ${record.produce_msgs_per_s} msgs/s; ` +
          `lateness ${fmt(record.lateness_ms as Stats)}; lost ${record.lost}, duplicated ${record.duplicated}, early ${record.early}; ` +
          `servers' CPU ${record.server_cpu_us_per_msg} us/msg (load ${record.load_avg_1m})`,
      );
    }
    printTargets('delivery', targets);
  } finally {
    await client.close();
    await cluster.stop();
  }
}

/** One measured run of the workload through one kind of consumer, on its own topic. */
async function measure(
  cluster: Cluster,
  client: ReturnType<typeof newClient>,
  kind: ConsumerKind,
  { n, delayMin, delayMax, graceMs }: Workload,
): Promise<Record<string, unknown> & { lateness_ms: Stats; server_cpu_us_per_msg: number }> {
  const topic = kind === 'sdk' ? 'bench-delivery' : 'bench-delivery-raw';
  const ledger = new DeliveryLedger(n);
  await ensureTopic(client, topic);
  let close: () => Promise<void>;
  if (kind === 'sdk') {
    const sub = client.subscribe(topic, { prefetch: 1_000, concurrency: 1_000 }, (m) => {
      ledger.receive(seqOf(m), m.receivedAtMs);
    });
    while (!sub.connected) await sleep(20);
    close = () => sub.close();
  } else {
    const raw = grpcConsumer((await cluster.leader()).clientAddress, { topic, prefetch: 1_000 }, (d, at) => {
      ledger.receive(d.payload && d.payload.byteLength >= 4 ? seqOfPayload(d.payload) : -1, at);
    });
    await raw.subscribed;
    close = async () => raw.close();
  }
  const cpu = serverCpu(cluster);
  const entriesAtStart = await serverGauge(await cluster.leader(), 'fermata_raft_commit_index');
  await eventLoopLag(await cluster.leader()); // resets the node's event-loop histogram
  // This process's own loop: the consumer's hold releases deliveries on a timer here.
  const clientLag = monitorEventLoopDelay({ resolution: 1 });
  clientLag.enable();
  let x = 42;
  const r = await produceStreams(client, {
    total: n,
    producers: 4,
    batch: 100,
    topic,
    make: (i) => {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      const deliverAt = Date.now() + delayMin + (x % (delayMax - delayMin + 1));
      ledger.expect(i, deliverAt);
      return { payload: payloadFor(i), deliverAt };
    },
  });
  const publishedAt = Date.now();
  let lastDue = 0;
  for (const d of ledger.dueAt) lastDue = Math.max(lastDue, d);
  await ledger.waitFor(n, Math.max(0, lastDue - Date.now()) + graceMs);
  const cpuUsed = cpu.done(n);
  clientLag.disable();
  await sleep(1_000); // late duplicates
  const leaderNode = await cluster.leader();
  // First: every scrape of /metrics resets the event-loop histogram.
  const lag = await eventLoopLag(leaderNode);
  const raftEntries = (await serverGauge(leaderNode, 'fermata_raft_commit_index')) - entriesAtStart;
  const serverLateness = await serverHistogram(leaderNode, 'fermata_delivery_lateness_ms');
  const fsync = await serverHistogram(leaderNode, 'fermata_fsync_duration_ms');
  await close();
  const lateness = ledger.lateness();
  // Where the tail is: messages due while the producers were still publishing (their lease
  // rounds queue behind publish entries) against those due after the last publish.
  const brief = (s: Stats) => ({ n: s.n, p50: s.p50, p99: s.p99, max: s.max });
  return {
    scenario: 'delivery',
    consumer: kind,
    messages: n,
    payload_bytes: 256,
    delay_ms: [delayMin, delayMax],
    produce_msgs_per_s: round(n / r.seconds, 0),
    lateness_ms: lateness,
    lateness_due_while_publishing_ms: brief(ledger.lateness(Number.NEGATIVE_INFINITY, publishedAt)),
    lateness_due_after_publishing_ms: brief(ledger.lateness(publishedAt)),
    delivered: ledger.delivered,
    lost: ledger.lost(),
    duplicated: ledger.duplicates,
    early: ledger.early,
    foreign: ledger.foreign,
    server_push_lateness_ms: serverLateness,
    leader_fsync_ms: fsync,
    leader_event_loop_lag_ms: lag,
    client_event_loop_lag_ms: {
      p99: round(clientLag.percentile(99) / 1e6, 1),
      max: round(clientLag.max / 1e6, 1),
    },
    // Publish, lease and ack of every message, on all three nodes.
    server_cpu_us_per_msg: cpuUsed.us_per_msg,
    server_cpu_ms_per_node: cpuUsed.per_node_ms,
    server_cpu_us_per_msg_by_thread: cpuUsed.us_per_msg_by_thread,
    // Raft entries of the run (publishes, lease rounds, acks): what the per-entry costs multiply.
    raft_entries: raftEntries,
    load_avg_1m: load1(),
  };
}

/** The sequence number a benchmark payload carries in its first 4 bytes (payloadFor). */
function seqOfPayload(p: Uint8Array): number {
  return new DataView(p.buffer, p.byteOffset, p.byteLength).getUint32(0);
}

/** `n` messages due 0.2-1 s ahead, published and consumed like the measured ones, all delivered. */
async function warm(client: ReturnType<typeof newClient>, n: number, graceMs: number): Promise<void> {
  const topic = 'bench-delivery-warm';
  await ensureTopic(client, topic);
  const ledger = new DeliveryLedger(n);
  const sub = client.subscribe(topic, { prefetch: 1_000, concurrency: 1_000 }, (m) => {
    ledger.receive(seqOf(m), m.receivedAtMs);
  });
  try {
    while (!sub.connected) await sleep(20);
    await produceStreams(client, {
      total: n,
      producers: 4,
      batch: 100,
      topic,
      make: (i) => {
        const deliverAt = Date.now() + 200 + (i % 800);
        ledger.expect(i, deliverAt);
        return { payload: payloadFor(i), deliverAt };
      },
      latencies: false,
    });
    await ledger.waitFor(n, 1_000 + graceMs);
    if (ledger.delivered < n) throw new Error(`warm-up: ${ledger.delivered} of ${n} delivered`);
  } finally {
    await sub.close();
  }
}
