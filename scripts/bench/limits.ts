// Limits: does a rate-limited group slow an unlimited one of the same topic on the same leader?
// Two passes, each a burst of N messages due within one second (published beforehand), on a
// topic of its own: in the first only the unlimited group (`default`, 4 consumer streams) takes
// them; in the second the group `limited` (max_deliveries_per_second R, burst R, one stream)
// takes them too. Reports the unlimited group's drain time and lateness in each pass (the
// second over the first: the cost of the limited group beside it), and the limited group's
// rate over its own lease starts (by the leader's clock). `--second-paused`: the second group is
// created paused and takes nothing, so the second pass measures what a second group's entries
// cost the unlimited one, apart from the limited group's rounds.
import type { FermataClient } from '@fermata/sdk';
import {
  DeliveryLedger,
  ensureTopic,
  load1,
  newClient,
  produceBurst,
  seqOf,
  sleep,
  startBenchCluster,
} from './cluster.js';
import { emit, flag, option, printTargets, round, summary, target } from './report.js';

const LEASE_MS = 60_000;
/** The target: a burst of 200,000 with a group limited to 2,000/s (docs/benchmarks.md). */
const TARGET_MESSAGES = 200_000;
const TARGET_RATE = 2_000;

const fmt = (s: { p50: number; p99: number; max: number }): string =>
  `p50 ${s.p50} / p99 ${s.p99} / max ${s.max} ms`;

interface Pass {
  drain_s: number | null;
  lateness_ms: { p50: number; p99: number; max: number };
  delivered: number;
  limited_per_s?: number | null;
  limited_delivered?: number;
}

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  const n = option(args, 'messages', quick ? 2_500 : TARGET_MESSAGES);
  const rate = option(args, 'rate', quick ? 1_000 : TARGET_RATE);
  // The due second must come after the last publish: lead = n / this rate + 5 s (2 s at --quick).
  const rateGuess = option(args, 'publish-rate-guess', quick ? 2_000 : 4_000);
  const spareMs = quick ? 2_000 : 5_000;
  const timeoutMs = option(args, 'timeout-ms', quick ? 60_000 : 300_000);
  const secondPaused = flag(args, 'second-paused');
  const cluster = await startBenchCluster(args);
  const client = newClient(cluster);
  try {
    const opts = { n, rateGuess, spareMs, timeoutMs, secondPaused };
    const alone = await pass(client, 'bench-limits-alone', opts, undefined);
    const beside = await pass(client, 'bench-limits-beside', opts, rate);
    const p99Ratio =
      alone.lateness_ms.p99 > 0 ? round(beside.lateness_ms.p99 / alone.lateness_ms.p99, 2) : null;
    const record = {
      scenario: 'limits',
      quick,
      messages: n,
      limited_rate: rate,
      second_paused: secondPaused,
      unlimited_alone: alone,
      unlimited_beside_limited: {
        drain_s: beside.drain_s,
        lateness_ms: beside.lateness_ms,
        delivered: beside.delivered,
      },
      unlimited_p99_ratio: p99Ratio,
      limited_deliveries_per_s: beside.limited_per_s ?? null,
      limited_delivered: beside.limited_delivered ?? 0,
      load_avg_1m: load1(),
    };
    const atSize = n >= TARGET_MESSAGES && rate === TARGET_RATE && !secondPaused;
    const targets = [
      target('unlimited_p99_ratio', p99Ratio, '<=', 1.2, atSize),
      target('limited_deliveries_per_s', record.limited_deliveries_per_s, '>=', rate * 0.95, atSize),
    ];
    emit({ ...record, targets });
    summary(
      `limits ${n} msgs due in one second: the unlimited group alone drained ${alone.drain_s} s after the due second, lateness ${fmt(alone.lateness_ms)}; ` +
        `beside a group limited to ${rate}/s: ${beside.drain_s} s, lateness ${fmt(beside.lateness_ms)} (p99 x${p99Ratio}); ` +
        `the limited group: ${record.limited_deliveries_per_s} deliveries/s (load ${record.load_avg_1m})`,
    );
    printTargets('limits', targets);
  } finally {
    await client.close();
    await cluster.stop();
  }
}

/** One burst on `topic`: its unlimited group's figures, and with `rate` the limited group's. */
async function pass(
  client: FermataClient,
  topic: string,
  o: { n: number; rateGuess: number; spareMs: number; timeoutMs: number; secondPaused: boolean },
  rate: number | undefined,
): Promise<Pass> {
  const { n } = o;
  await ensureTopic(client, topic);
  if (rate !== undefined)
    await client.createGroup(topic, 'limited', {
      maxDeliveriesPerSecond: rate,
      burst: rate,
      ...(o.secondPaused ? { paused: true } : {}),
    });
  const ledger = new DeliveryLedger(n);
  const subs = Array.from({ length: 4 }, () =>
    client.subscribe(topic, { prefetch: 1_000, concurrency: 1_000, mode: 'manual' }, async (m) => {
      ledger.receive(seqOf(m), m.receivedAtMs);
      await m.ack();
    }),
  );
  const starts: number[] = [];
  if (rate !== undefined) {
    subs.push(
      client.subscribe(
        topic,
        { group: 'limited', prefetch: 1_000, concurrency: 1_000, mode: 'manual', leaseMs: LEASE_MS },
        async (m) => {
          starts.push(m.leaseExpiresAtMs - LEASE_MS);
          await m.ack();
        },
      ),
    );
  }
  try {
    while (!subs.every((s) => s.connected)) await sleep(20);
    const dueSecond = Date.now() + Math.ceil((n / o.rateGuess) * 1000) + o.spareMs;
    await produceBurst(client, { topic, total: n, producers: 16, dueSecond, ledger });
    await sleep(Math.max(0, dueSecond - Date.now()));
    await ledger.waitFor(n, o.timeoutMs);
    const drained = ledger.delivered >= n ? round((ledger.lastAt - dueSecond) / 1000, 2) : null;
    let limitedPerS: number | null = null;
    if (rate !== undefined && !o.secondPaused) {
      // The limited group's rate over a span it stays busy through: its burst, then `rate` a second.
      const spanMs = Math.min(10_000, Math.floor(((n - rate) / rate) * 1000));
      await sleep(Math.max(0, dueSecond + spanMs + 2_000 - Date.now()));
      const first = Math.min(...starts);
      const inSpan = starts.filter((t) => t >= first && t <= first + spanMs).length;
      limitedPerS = spanMs > 0 ? round(((inSpan - rate) * 1000) / spanMs, 0) : null;
    }
    const l = ledger.lateness();
    return {
      drain_s: drained,
      lateness_ms: { p50: l.p50, p99: l.p99, max: l.max },
      delivered: ledger.delivered,
      ...(rate !== undefined ? { limited_per_s: limitedPerS, limited_delivered: starts.length } : {}),
    };
  } finally {
    await Promise.all(subs.map((s) => s.close()));
  }
}
