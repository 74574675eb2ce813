// Burst: N messages all due within the same second D..D+1 s, published beforehand (64
// producers x batches of 100); 4 consumer streams (prefetch 1,000 each) deliver and ack them.
// Reports the time from the start of the due second until every message is delivered and
// its ack acknowledged, lateness p99/max, and the delivery rate.
// `--probe`: 200 more messages in another topic, due spread over D+1..D+2 s (the second after
// the burst's), with their own consumer in a process of its own (probe-consumer.ts): their
// lateness shows whether the burst starves another queue's due messages. Each run prints the
// targets (docs/benchmarks.md) next to its figures.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import {
  DeliveryLedger,
  ensureTopic,
  eventLoopLag,
  fmt,
  load1,
  newClient,
  payloadFor,
  produceBurst,
  produceStreams,
  seqOf,
  serverCpu,
  serverHistogram,
  sleep,
  startBenchCluster,
} from './cluster.js';
import { emit, flag, option, printTargets, round, summary, target } from './report.js';

/** How long before the due second the servers' CPU starts counting: the look-ahead lease rounds (2 s) and a margin. */
const CPU_LEAD_MS = 3_000;

/** The target burst: 1,000,000 due in one second. Targets are judged at this size only. */
const TARGET_BURST_MESSAGES = 1_000_000;
/** The probe: this many messages in another topic, due from 1 s to 2 s after the burst's second starts. */
const PROBE_MESSAGES = 200;
const PROBE_FROM_MS = 1_000;
const PROBE_SPAN_MS = 1_000;

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  const n = option(args, 'messages', quick ? 5_000 : 1_000_000);
  // The due second must come after the last publish: lead = n / this rate + 5 s (2 s at --quick).
  const rateGuess = option(args, 'publish-rate-guess', quick ? 2_000 : 4_000);
  const spareMs = quick ? 2_000 : 5_000;
  const consumers = option(args, 'consumers', 4);
  const timeoutMs = option(args, 'timeout-ms', quick ? 60_000 : 600_000);
  const probe = flag(args, 'probe');
  const cluster = await startBenchCluster(args);
  const client = newClient(cluster);
  const topic = 'bench-burst';
  const ledger = new DeliveryLedger(n);
  const probeLedger = new DeliveryLedger(PROBE_MESSAGES);
  let acked = 0;
  let lastAckAt = 0;
  let allAcked: () => void = () => undefined;
  const allAckedP = new Promise<void>((resolve) => (allAcked = resolve));
  try {
    await ensureTopic(client, topic);
    const subs = Array.from({ length: consumers }, () =>
      client.subscribe(topic, { prefetch: 1_000, concurrency: 1_000, mode: 'manual' }, async (m) => {
        ledger.receive(seqOf(m), m.receivedAtMs);
        await m.ack();
        lastAckAt = Date.now();
        if (++acked >= n) allAcked();
      }),
    );
    const probeSub = probe
      ? await probeConsumer(cluster.endpoints, `${topic}-probe`, probeLedger)
      : undefined;
    while (!subs.every((s) => s.connected)) await sleep(20);
    const dueSecond = Date.now() + Math.ceil((n / rateGuess) * 1000) + spareMs;
    if (probe) {
      // Published first (a few ms): the burst's publishing must not delay the probe's.
      await produceStreams(client, {
        total: PROBE_MESSAGES,
        producers: 1,
        batch: PROBE_MESSAGES,
        topic: `${topic}-probe`,
        make: (i) => {
          const deliverAt = dueSecond + PROBE_FROM_MS + Math.floor((i * PROBE_SPAN_MS) / PROBE_MESSAGES);
          probeLedger.expect(i, deliverAt);
          return { payload: payloadFor(i), deliverAt };
        },
        latencies: false,
      });
    }
    const r = await produceBurst(client, { topic, total: n, producers: 64, dueSecond, ledger });
    const publishedAt = Date.now();
    // The servers' CPU from shortly before the due second (the leases taken ahead of it
    // included), not over the idle wait for it.
    await sleep(Math.max(0, dueSecond - CPU_LEAD_MS - Date.now()));
    const cpu = serverCpu(cluster);
    await eventLoopLag(await cluster.leader()); // resets the node's event-loop histogram
    console.error(`burst: servers' CPU counted from now, ${CPU_LEAD_MS} ms before the due second`);
    // This process's own loop (every consumer, the probe's too, runs here): its delays are in every lateness.
    const clientLag = monitorEventLoopDelay({ resolution: 1 });
    clientLag.enable();
    probeSub?.startLag(); // the probe consumer's lag over the same window
    await Promise.race([allAckedP, sleep(Math.max(0, dueSecond - Date.now()) + timeoutMs)]);
    const cpuUsed = cpu.done(acked);
    clientLag.disable();
    if (probe) await probeLedger.waitFor(PROBE_MESSAGES, 5_000);
    await sleep(1_000);
    const leaderNode = await cluster.leader();
    // First: every scrape of /metrics resets the event-loop histogram.
    const leaderLag = await eventLoopLag(leaderNode);
    const serverLateness = await serverHistogram(leaderNode, 'fermata_delivery_lateness_ms');
    const fsync = await serverHistogram(leaderNode, 'fermata_fsync_duration_ms');
    await Promise.all(subs.map((s) => s.close()));
    const probeLag = await probeSub?.close();
    const lateness = ledger.lateness();
    const probeLateness = probeLedger.lateness();
    const record = {
      scenario: 'burst',
      quick,
      messages: n,
      consumers,
      publish_msgs_per_s: round(n / r.seconds, 0),
      published_before_due: publishedAt < dueSecond,
      all_acked_after_due_s: acked >= n ? round((lastAckAt - dueSecond) / 1000, 2) : null,
      delivery_msgs_per_s: round(
        ledger.delivered / Math.max(0.001, (ledger.lastAt - ledger.firstDeliveryAt) / 1000),
        0,
      ),
      lateness_ms: { p50: lateness.p50, p99: lateness.p99, max: lateness.max },
      delivered: ledger.delivered,
      acked,
      lost: ledger.lost(),
      duplicated: ledger.duplicates,
      early: ledger.early,
      server_push_lateness_ms: serverLateness,
      leader_fsync_ms: fsync,
      // Lease and ack of every acked message, on all three nodes.
      server_cpu_us_per_msg: cpuUsed.us_per_msg,
      server_cpu_ms_per_node: cpuUsed.per_node_ms,
      server_cpu_us_per_msg_by_thread: cpuUsed.us_per_msg_by_thread,
      leader_event_loop_lag_ms: leaderLag,
      client_event_loop_lag_ms: {
        p99: round(clientLag.percentile(99) / 1e6, 1),
        max: round(clientLag.max / 1e6, 1),
      },
      load_avg_1m: load1(),
      ...(probe
        ? {
            probe_messages: PROBE_MESSAGES,
            probe_lateness_p50_ms: probeLateness.p50,
            probe_lateness_p99_ms: probeLateness.p99,
            probe_lateness_max_ms: probeLateness.max,
            probe_delivered: probeLedger.delivered,
            probe_lost: probeLedger.lost(),
            probe_early: probeLedger.early,
            // The probe consumer's own process: its timers release the deliveries held ahead.
            probe_consumer_event_loop_lag_ms: probeLag,
          }
        : {}),
    };
    const atSize = n >= TARGET_BURST_MESSAGES;
    const targets = [
      target('all_acked_after_due_s', record.all_acked_after_due_s, '<=', 20, atSize),
      target('server_cpu_us_per_msg', record.server_cpu_us_per_msg, '<=', 40, atSize),
      ...(probe ? [target('probe_lateness_p99_ms', probeLateness.p99, '<=', 50, !quick)] : []),
    ];
    emit({ ...record, targets });
    summary(
      `burst ${n} msgs due in one second: published at ${record.publish_msgs_per_s} msgs/s` +
        `${record.published_before_due ? '' : ' (publishing ran past the due second!)'}; all acked ${record.all_acked_after_due_s} s after the due second; ` +
        `delivery ${record.delivery_msgs_per_s} msgs/s; lateness ${fmt(lateness)}; lost ${record.lost}, duplicated ${record.duplicated}, early ${record.early}; servers' CPU ${record.server_cpu_us_per_msg} us/msg (load ${record.load_avg_1m})`,
    );
    if (probe)
      summary(
        `probe ${PROBE_MESSAGES} msgs in another topic due 1-2 s after the burst's second: lateness ${fmt(probeLateness)}; ` +
          `delivered ${probeLedger.delivered}, lost ${probeLedger.lost()}, early ${probeLedger.early}; ` +
          `the probe consumer's process: event-loop lag p99 ${probeLag?.p99 ?? '?'} ms, max ${probeLag?.max ?? '?'} ms; ` +
          `the burst consumers' process: p99 ${record.client_event_loop_lag_ms.p99} ms, max ${record.client_event_loop_lag_ms.max} ms; ` +
          `the leader's: p99 ${leaderLag?.p99 ?? '?'} ms, max ${leaderLag?.max ?? '?'} ms`,
      );
    printTargets('burst', targets);
  } finally {
    await client.close();
    await cluster.stop();
  }
}

/**
 * The probe's consumer in a process of its own (probe-consumer.ts), feeding `ledger`; resolves
 * once it is subscribed. `close` ends its subscription and waits for the process to exit.
 */
async function probeConsumer(
  endpoints: readonly string[],
  topic: string,
  ledger: DeliveryLedger,
): Promise<{ startLag(): void; close(): Promise<{ p99: number; max: number } | undefined> }> {
  let lag: { p99: number; max: number } | undefined;
  let closing = false;
  const child = spawn(
    process.execPath,
    [
      '--conditions=fermata-source',
      '--import',
      'tsx',
      join(import.meta.dirname, 'probe-consumer.ts'),
      topic,
      String(PROBE_MESSAGES),
      ...endpoints,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  // 'close', not 'exit': after its stdout's last line (the lag) was read.
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`the probe consumer exited (${code}) before it subscribed`)),
    );
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line === 'ready') return resolve();
      if (line.startsWith('lag ')) {
        const [p99, max] = line.slice(4).split(' ').map(Number);
        lag = { p99: round(p99!, 1), max: round(max!, 1) };
        return;
      }
      const [seq, at] = line.split(' ').map(Number);
      ledger.receive(seq!, at!);
    });
  });
  await ready;
  child.once('exit', (code, signal) => {
    if (!closing) console.error(`burst: the probe consumer exited (${code ?? signal}) during the run`);
  });
  return {
    /** Starts the consumer process's event-loop lag histogram anew. */
    startLag() {
      child.stdin!.write('start\n');
    },
    /** Ends the subscription; answers the consumer process's own event-loop lag (ms) since `startLag`. */
    async close() {
      closing = true;
      child.stdin!.end();
      await exited;
      return lag;
    },
  };
}
