// The due-load forecast (docs/design.md, "Due-load forecast"), in this process on a LevelDB
// store as a node opens it: N pending messages (--pending, 10,000,000 at full size) published
// due uniformly over the next 30 days, then the answer time of GetDueForecast's read
// (BrokerReader.forecast: what the RPC does besides gRPC) for ranges read at each level of the
// histogram, and the worst a range can ask (1,440 buckets of 59 s: 84,960 records of the
// second level). And what the histogram adds to the apply of a publish: the same publishes
// into a queue that keeps it and one whose record says it was made by an earlier version (no
// histogram), rounds interleaved: with due times spread over 30 days (the worst: about three
// buckets read and written per message) and with each command's due within one minute (one
// delay for a batch, as producers mostly publish: a few buckets per command).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BrokerStateMachine,
  createQueueHasher,
  DEFAULT_GROUP,
  encodeCommand,
  loadConfig,
  queueName,
  stateStoreOptions,
} from '@fermata/broker';
import { toUint64, v1 } from '@fermata/protocol';
import type { Entry } from '@fermata/raft';
import { openStore } from '@fermata/storage';
import { mainThreadUs } from './apply.js';
import { load1 } from './cluster.js';
import { emit, flag, option, printTargets, round, summary, target } from './report.js';

const PER_ENTRY = 1_000;
const ENTRIES_PER_APPLY = 4;
const DAY = 86_400_000;
const SPREAD_MS = 30 * DAY;
/** The queue-record namespace's prefix (docs/state-machine.md): the bench writes one as an earlier version did. */
const QUEUES_PREFIX = 0x08;

/** The queries timed: [name, range from now, bucket]. */
const QUERIES: ReadonlyArray<readonly [string, number, number]> = [
  ['next_hour_by_minute', 3_600_000, 60_000],
  ['next_day_by_minute', DAY, 60_000],
  ['next_24m_by_second', 1_440_000, 1_000],
  ['next_30d_by_hour', SPREAD_MS, 3_600_000],
  ['next_30d_by_day', SPREAD_MS, DAY],
  ['worst_1440_by_59s', 1_440 * 59_000, 59_000],
];

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  const pending = option(args, 'pending', quick ? 20_000 : 10_000_000);
  const repeats = option(args, 'repeats', quick ? 5 : 50);
  const costRounds = option(args, 'cost-rounds', quick ? 4 : 40);
  const dir = mkdtempSync(join(tmpdir(), 'fermata-bench-forecast-'));
  const config = loadConfig({ env: {} });
  const store = await openStore(stateStoreOptions(config.storage, join(dir, 'db')));
  try {
    const hasher = await createQueueHasher();
    // The queue of 'bench-forecast-off' as an earlier version wrote it: no due_load.
    const offHash = hasher(queueName('bench-forecast-off', DEFAULT_GROUP));
    const offKey = new Uint8Array(9);
    offKey[0] = QUEUES_PREFIX;
    new DataView(offKey.buffer).setBigUint64(1, offHash);
    const zero = toUint64(0n);
    const offRec = v1.QueueRecord.encode({
      topic: 'bench-forecast-off',
      group: DEFAULT_GROUP,
      pending: zero,
      inFlight: zero,
      deadLettered: zero,
    }).finish();
    await store.batch([{ type: 'put', key: offKey, value: offRec }], { sync: false });
    const sm = await BrokerStateMachine.open({
      store,
      hasher,
      cacheEntries: config.storage.recordCacheEntries,
    });
    let id = 1n;
    let index = 0;
    const startMs = Date.now();
    const apply = (cmds: Parameters<typeof encodeCommand>[0][]) =>
      sm.apply(
        cmds.map((c) => ({ index: ++index, term: 1, type: 'normal', data: encodeCommand(c) }) as Entry),
      );
    await apply(
      ['bench-forecast', 'bench-forecast-on', 'bench-forecast-off'].map((name) => ({
        kind: 'create-topic' as const,
        name,
        nowMs: startMs,
      })),
    );
    const payload = new Uint8Array(64).fill(0x61);
    let seed = 1;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const publishes = (topic: string, count: number, withinMs = SPREAD_MS) => {
      const baseMs = withinMs === SPREAD_MS ? startMs : startMs + 3_600_000 + Math.floor(random() * DAY);
      const cmds = [];
      for (let e = 0; e < count; e += PER_ENTRY) {
        const n = Math.min(PER_ENTRY, count - e);
        const messages = Array.from({ length: n }, () => ({
          topic,
          payload,
          deliverAtMs: baseMs + Math.floor(random() * withinMs),
        }));
        cmds.push({ kind: 'publish' as const, firstId: id, messages, nowMs: startMs, inlineBodies: true });
        id += BigInt(n);
      }
      return cmds;
    };

    // The pending messages the queries read.
    const fillT0 = performance.now();
    for (let at = 0; at < pending; at += PER_ENTRY * ENTRIES_PER_APPLY) {
      await apply(publishes('bench-forecast', Math.min(PER_ENTRY * ENTRIES_PER_APPLY, pending - at)));
    }
    const fillS = (performance.now() - fillT0) / 1000;
    summary(`forecast: ${pending} pending published in ${round(fillS, 1)} s`);

    const answers: Record<string, { p50_ms: number; max_ms: number; buckets: number; counted: number }> = {};
    for (const [name, spanMs, bucketMs] of QUERIES) {
      const times: number[] = [];
      let buckets = 0;
      let counted = 0;
      for (let r = 0; r < repeats; r++) {
        const t0 = performance.now();
        const f = await sm.reader.forecast({
          topic: 'bench-forecast',
          group: '',
          fromMs: startMs,
          toMs: startMs + spanMs,
          bucketMs,
        });
        times.push(performance.now() - t0);
        buckets = f.buckets.length;
        counted = f.buckets.reduce((n, b) => n + b.count, 0);
      }
      times.sort((a, b) => a - b);
      answers[name] = {
        p50_ms: round(percentile(times, 0.5), 2),
        max_ms: round(times[times.length - 1]!, 2),
        buckets,
        counted,
      };
    }

    // What the histogram adds to a publish: the same commands into a queue with and without it.
    const perRound = PER_ENTRY * ENTRIES_PER_APPLY;
    const costOf = async (withinMs: number) => {
      const cost = { on: 0, off: 0 };
      for (let r = 0; r < costRounds; r++) {
        for (const side of r % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
          const cmds = publishes(`bench-forecast-${side}`, perRound, withinMs);
          const m0 = mainThreadUs() ?? performance.now() * 1000;
          await apply(cmds);
          cost[side] += (mainThreadUs() ?? performance.now() * 1000) - m0;
        }
      }
      const on = round(cost.on / (costRounds * perRound), 2);
      const off = round(cost.off / (costRounds * perRound), 2);
      return { with_histogram: on, without: off, added: round(on - off, 2) };
    };
    const spread = await costOf(SPREAD_MS);
    const clustered = await costOf(60_000);
    const n = costRounds * perRound;
    const atSize = !quick && pending >= 10_000_000;
    const record = {
      scenario: 'forecast',
      quick,
      pending,
      spread_days: SPREAD_MS / DAY,
      fill_s: round(fillS, 1),
      answers,
      publish_main_thread_us_per_msg: { spread_30d: spread, within_1m: clustered },
      cost_messages: n,
      load_avg_1m: load1(),
      targets: [target('next_day_by_minute_p50_ms', answers['next_day_by_minute']!.p50_ms, '<=', 50, atSize)],
    };
    emit(record);
    for (const [name, a] of Object.entries(answers)) {
      summary(
        `forecast ${name}: p50 ${a.p50_ms} ms, max ${a.max_ms} ms (${a.buckets} buckets, ${a.counted} counted)`,
      );
    }
    for (const [name, c] of [
      ['due spread over 30 days', spread],
      ["each command's due within a minute", clustered],
    ] as const) {
      summary(
        `forecast: a publish's apply (main thread), ${name}: ${c.with_histogram} us per message with the histogram, ${c.without} without: +${c.added} us (load ${record.load_avg_1m})`,
      );
    }
    printTargets('forecast', record.targets);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
