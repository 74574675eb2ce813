// Recurring schedules at scale: N schedules (default 100 000) firing every minute on a
// three-node cluster, consumed by one subscription. Lateness = received-at (the SDK's
// `Message.receivedAtMs`) minus the occurrence's instant (header `fermata-occurrence-ms`;
// not the message's due time, which is the moment of storing for an occurrence stored
// late), first delivery of each occurrence; with --jitter-ms it includes the jitter, and
// `lateness_from_due_ms` (received-at minus the message's due time) is the one to read.
// Servers' CPU per occurrence from 45 s before the measured minutes (a herd is stored
// ahead of its instant) until they are delivered. Also counts occurrences
// delivered twice (two message ids) or never. Schedules are created with
// `upsertSchedules`, --create-batch (default 1,000) per call, --concurrency calls at
// once; --create-batch 1 uses one `upsertSchedule` per schedule. --quick (the test suite's
// size) fires every 2 s instead of every minute and counts CPU from 2 s before: it keeps
// the scenario working, its figures judge nothing.
import {
  ensureTopic,
  eventLoopLag,
  fmt,
  load1,
  newClient,
  serverCpu,
  serverHistogram,
  sleep,
  startBenchCluster,
  stats,
} from './cluster.js';
import { emit, flag, option, round, summary } from './report.js';

const MINUTE_MS = 60_000;
/**
 * How long before a measured minute the servers' CPU is counted from: a herd is stored
 * ahead of its instant, and the minute before's deliveries are over by then.
 */
const CPU_LEAD_MS = 45_000;

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  const n = option(args, 'schedules', quick ? 500 : 100_000);
  const minutes = option(args, 'minutes', quick ? 1 : 2);
  // A quick run fires every 2 s (a 6-field cron) so that it waits seconds, not a minute.
  const periodMs = quick ? 2_000 : MINUTE_MS;
  const spec = quick ? '*/2 * * * * *' : '* * * * *';
  const cpuLeadMs = quick ? periodMs : CPU_LEAD_MS;
  // The first measured occurrence is at least this far past the CPU count's start.
  const marginMs = quick ? 1_000 : 5_000;
  const jitterMs = option(args, 'jitter-ms', 0);
  const createBatch = option(args, 'create-batch', 1000);
  const concurrency = option(args, 'concurrency', createBatch > 1 ? 4 : 64);
  const graceMs = option(args, 'grace-ms', 20_000);
  const cluster = await startBenchCluster(args);
  const client = newClient(cluster);
  const topic = 'bench-schedules';
  // occurrence instant -> per schedule index: message ids seen (first arrival's lateness kept).
  const seen = new Map<number, Map<number, bigint>>();
  const lateness = new Map<number, number[]>();
  // Received-at minus the message's due time (the occurrence plus its jitter, when stored ahead).
  const fromDue = new Map<number, number[]>();
  let duplicates = 0;
  try {
    await ensureTopic(client, topic);
    const sub = client.subscribe(topic, { prefetch: 2_000, concurrency: 2_000 }, (m) => {
      const occ = Number(m.headers['fermata-occurrence-ms']);
      const idx = Number(m.headers['bench-index']);
      let byIdx = seen.get(occ);
      if (!byIdx) seen.set(occ, (byIdx = new Map()));
      const first = byIdx.get(idx);
      if (first === undefined) {
        byIdx.set(idx, m.id);
        const l = lateness.get(occ) ?? [];
        l.push(m.receivedAtMs - occ);
        lateness.set(occ, l);
        const d = fromDue.get(occ) ?? [];
        d.push(m.receivedAtMs - m.dueAtMs);
        fromDue.set(occ, d);
      } else if (first !== m.id) duplicates++;
    });
    while (!sub.connected) await sleep(20);

    const createStart = Date.now();
    const definition = (i: number) => ({
      spec,
      payload: 'tick',
      headers: { 'bench-index': String(i) },
      jitterMs,
    });
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = next; i < n; i = next) {
          next = Math.min(n, i + createBatch);
          if (createBatch === 1) await client.upsertSchedule(topic, `s${i}`, definition(i));
          else {
            const items = [];
            for (let j = i; j < next; j++) items.push({ topic, name: `s${j}`, definition: definition(j) });
            await client.upsertSchedules(items);
          }
        }
      }),
    );
    const createSeconds = (Date.now() - createStart) / 1000;
    // Measure whole periods: from the next boundary at least marginMs past the CPU lead.
    // Servers' CPU from CPU_LEAD_MS before the first measured minute (the materialiser stores a
    // herd ahead of its instant, up to maxScheduleAheadMs) until the last is delivered.
    let firstMeasured = Math.ceil((Date.now() + cpuLeadMs + marginMs) / periodMs) * periodMs;
    const measured = Array.from({ length: minutes }, (_, k) => firstMeasured + k * periodMs);
    await sleep(Math.max(0, firstMeasured - cpuLeadMs - Date.now()));
    const cpu = serverCpu(cluster);
    await eventLoopLag(await cluster.leader()); // resets the node's event-loop histogram
    const last = measured[measured.length - 1]!;
    const deadline = last + jitterMs + graceMs;
    while (Date.now() < deadline) {
      if (measured.every((o) => (seen.get(o)?.size ?? 0) >= n)) break;
      await sleep(200);
    }
    const delivered = measured.reduce((a, o) => a + (seen.get(o)?.size ?? 0), 0);
    const cpuUsed = cpu.done(delivered);
    const leaderNode = await cluster.leader();
    const lag = await eventLoopLag(leaderNode);
    const materialize = await serverHistogram(leaderNode, 'fermata_schedule_materialize_lateness_ms');
    const push = await serverHistogram(leaderNode, 'fermata_delivery_lateness_ms');
    await sub.close();
    const all: number[] = [];
    for (const o of measured) all.push(...(lateness.get(o) ?? []));
    const s = stats(all);
    const dueAll: number[] = [];
    for (const o of measured) dueAll.push(...(fromDue.get(o) ?? []));
    const sd = stats(dueAll);
    firstMeasured = measured[0]!;
    const record = {
      scenario: 'schedules',
      quick,
      schedules: n,
      spec,
      jitter_ms: jitterMs,
      minutes_measured: minutes,
      period_ms: periodMs,
      create_batch: createBatch,
      create_schedules_per_s: round(n / createSeconds, 0),
      lateness_ms: { p50: s.p50, p90: s.p90, p99: s.p99, max: s.max, min: s.min },
      lateness_from_due_ms: { p50: sd.p50, p90: sd.p90, p99: sd.p99, max: sd.max },
      occurrences_expected: n * minutes,
      occurrences_delivered: delivered,
      missing: n * minutes - delivered,
      duplicated: duplicates,
      server_materialize_lateness_ms: materialize,
      server_push_lateness_ms: push,
      leader_event_loop_lag_ms: lag,
      // Materialising, storing (3 nodes), leasing, pushing and acking each occurrence's message,
      // from 45 s before the first measured minute until the last is delivered.
      server_cpu_us_per_occurrence: cpuUsed.us_per_msg,
      server_cpu_ms_per_node: cpuUsed.per_node_ms,
      server_cpu_us_per_msg_by_thread: cpuUsed.us_per_msg_by_thread,
      load_avg_1m: load1(),
    };
    emit(record);
    summary(
      `schedules ${n} x every ${periodMs / 1000} s, ${minutes} periods measured (jitter ${jitterMs} ms): lateness ${fmt(s)} ` +
        `(from the due time: ${fmt(sd)}); ` +
        `delivered ${delivered}/${n * minutes}, duplicated ${duplicates}; ` +
        `servers' CPU ${record.server_cpu_us_per_occurrence} us/occurrence (load ${record.load_avg_1m})`,
    );
  } finally {
    await client.close();
    await cluster.stop();
  }
}
