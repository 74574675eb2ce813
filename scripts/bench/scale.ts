// Scale: publish up to each level of pending messages (24 h delay; 64 producers x batches
// of 100), then report per node RSS and disk bytes per pending message, the publish rate
// of that step, and the lateness of a probe of 200 messages due in 1-2 s on the same topic
// (the pending mass must not slow due delivery). A probe also runs at 0 pending.

import type { FermataClient } from '@fermata/sdk';
import {
  DeliveryLedger,
  ensureTopic,
  fmt,
  load1,
  newClient,
  nodeFigures,
  payloadFor,
  produceStreams,
  rssBytes,
  seqOf,
  sleep,
  startBenchCluster,
} from './cluster.js';
import { emit, flag, option, printTargets, round, summary, target } from './report.js';

const DAY_MS = 86_400_000;
const PROBE_BASE = 2_000_000_000;

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  const li = args.indexOf('--levels');
  const levels = (li >= 0 ? (args[li + 1] ?? '') : quick ? '10000,30000' : '1000000,10000000')
    .split(',')
    .map(Number);
  const probeN = option(args, 'probe', 200);
  // A second probe this long after each level's publish, once the nodes' LevelDB compactions of
  // the bulk load have had time to run (the first probe runs right after it, amid them).
  const settleMs = option(args, 'settle-ms', quick ? 0 : 60_000);
  // The pause between a level's last publish and its figures (--quick judges none of them).
  const restMs = quick ? 1_000 : 3_000;
  const cluster = await startBenchCluster(args);
  const client = newClient(cluster);
  const topic = 'bench-scale';
  let probes = 0;
  let ledger = new DeliveryLedger(probeN);
  try {
    await ensureTopic(client, topic);
    const sub = client.subscribe(topic, { prefetch: 1_000, concurrency: 1_000 }, (m) => {
      const seq = seqOf(m);
      if (seq >= PROBE_BASE) ledger.receive(seq - PROBE_BASE, m.receivedAtMs);
    });
    while (!sub.connected) await sleep(20);
    await sleep(1_000);
    const baseline = await nodeFigures(cluster);

    const probe = async (): Promise<ReturnType<DeliveryLedger['lateness']> & { lost: number }> => {
      ledger = new DeliveryLedger(probeN);
      const base = probes;
      probes += probeN;
      let x = 7 + base;
      const batch = Array.from({ length: probeN }, (_, i) => {
        x = (x * 1103515245 + 12345) & 0x7fffffff;
        const deliverAt = Date.now() + 1_000 + (x % 1001);
        ledger.expect(i, deliverAt);
        return { topic, payload: payloadFor(PROBE_BASE + i), deliverAt };
      });
      await client.publishBatch(batch);
      await ledger.waitFor(probeN, 30_000);
      return { ...ledger.lateness(), lost: ledger.lost() };
    };

    const p0 = await probe();
    const nodes0 = baseline.map((f) => ({ ...f, rss_mb: round(f.rss_bytes / 2 ** 20, 1) }));
    emit({
      scenario: 'scale',
      quick,
      pending: 0,
      nodes: nodes0,
      max_rss_mb: Math.max(...nodes0.map((nd) => nd.rss_mb)),
      probe_lateness_ms: p0,
      load_avg_1m: load1(),
    });
    summary(`scale 0 pending: probe lateness ${fmt(p0)}`);

    let pending = 0;
    const payload = payloadFor(0);
    for (const level of levels) {
      const r = await produceStreams(client, {
        total: level - pending,
        producers: 64,
        batch: 100,
        topic,
        make: () => ({ payload, delayMs: DAY_MS }),
        latencies: false,
      });
      const rate = (level - pending) / r.seconds;
      pending = level;
      await sleep(restMs);
      const figures = await nodeFigures(cluster);
      const p = await probe();
      const loadAtProbe = load1();
      let settled:
        | (Awaited<ReturnType<typeof probe>> & { after_ms: number; load_avg_1m: number })
        | undefined;
      // Each node's highest RSS from the sample to the second probe (every 2 s): a Raft snapshot
      // starting near the sample maps the store's tables as it reads them.
      const peakBytes = figures.map((f) => f.rss_bytes);
      if (settleMs > 0) {
        for (const end = Date.now() + settleMs; Date.now() < end; ) {
          await sleep(Math.min(2_000, Math.max(0, end - Date.now())));
          cluster.nodes.forEach((nd, i) => {
            peakBytes[i] = Math.max(peakBytes[i] ?? 0, rssBytes(nd.pid));
          });
        }
        settled = { ...(await probe()), after_ms: settleMs, load_avg_1m: load1() };
      }
      const forecast = await timeForecast(client, topic, 20);
      const nodes = figures.map((f, i) => ({
        ...f,
        rss_mb: round(f.rss_bytes / 2 ** 20, 1),
        ...(settleMs > 0 ? { settle_peak_rss_mb: round((peakBytes[i] ?? 0) / 2 ** 20, 1) } : {}),
        disk_bytes_per_pending: round((f.disk_bytes - (baseline[i]?.disk_bytes ?? 0)) / pending, 1),
      }));
      const record = {
        scenario: 'scale',
        quick,
        pending,
        publish_msgs_per_s: round(rate, 0),
        nodes,
        max_rss_mb: Math.max(...nodes.map((nd) => nd.rss_mb)),
        ...(settleMs > 0
          ? { max_settle_peak_rss_mb: Math.max(...nodes.map((nd) => nd.settle_peak_rss_mb ?? 0)) }
          : {}),
        probe_lateness_ms: p,
        probe_p99_vs_empty: round(p.p99 / Math.max(1, p0.p99), 2),
        ...(settled
          ? {
              probe_settled_lateness_ms: settled,
              probe_settled_p99_vs_empty: round(settled.p99 / Math.max(1, p0.p99), 2),
            }
          : {}),
        forecast_ms: forecast,
        load_avg_1m: loadAtProbe,
      };
      // The target (docs/benchmarks.md): at 10,000,000 pending, under 300 MB RSS per node.
      // And the due-load forecast of the next two days answers through the SDK within 50 ms.
      const atSize = !quick && pending >= 10_000_000;
      const targets = [
        target('max_rss_mb', record.max_rss_mb, '<=', 300, atSize),
        target('forecast_p50_ms', forecast.p50, '<=', 50, atSize),
      ];
      emit({ ...record, targets });
      summary(
        `scale ${pending} pending: publish ${record.publish_msgs_per_s} msgs/s; RSS ${nodes.map((nd) => `${nd.node} ${nd.rss_mb} MB (anon ${nd.rss_anon_mb}, file ${nd.rss_file_mb}${nd.snapshot_writing ? ', writing a snapshot' : ''}${nd.settle_peak_rss_mb !== undefined ? `; peak ${nd.settle_peak_rss_mb}` : ''})`).join(', ')}; ` +
          `disk/pending ${nodes.map((nd) => `${nd.disk_bytes_per_pending} B`).join(', ')}; probe ${fmt(p)}, lost ${p.lost}; forecast p50 ${forecast.p50} ms (load ${record.load_avg_1m})` +
          (settled
            ? `; ${settled.after_ms} ms later: probe ${fmt(settled)}, lost ${settled.lost} (load ${settled.load_avg_1m})`
            : ''),
      );
      printTargets(`scale ${pending} pending`, targets);
    }
    await sub.close();
  } finally {
    await client.close();
    await cluster.stop();
  }
}

/**
 * GetDueForecast through the SDK (the leader's ReadIndex round included): the next two days by
 * 2-minute buckets (1,440), `times` calls one after the other; p50 and max ms, and how many
 * pending messages the answer counted.
 */
async function timeForecast(
  client: FermataClient,
  topic: string,
  times: number,
): Promise<{ p50: number; max: number; counted: number }> {
  const ms: number[] = [];
  let counted = 0;
  for (let i = 0; i < times; i++) {
    const now = Date.now();
    const t0 = performance.now();
    const f = await client.dueForecast(topic, { from: now, to: now + 2 * DAY_MS, bucketMs: 120_000 });
    ms.push(performance.now() - t0);
    counted = f.buckets.reduce((n, b) => n + b.count, 0);
  }
  ms.sort((a, b) => a - b);
  return { p50: round(ms[Math.floor(ms.length / 2)]!, 1), max: round(ms[ms.length - 1]!, 1), counted };
}
