// The leader's dispatcher in this process, over the broker's state machine on LevelDB, with a log
// that commits what is proposed at the next turn of the event loop (every proposal of a turn in
// one apply batch, as a Raft round does; no replication): what the leader's own loop spends on
// dispatching, apart from the network and the followers.
//
// `idle`: one busy queue (--busy-messages, published --busy-batch at a time due 300 ms later,
// at most one batch every 10 ms; its consumer acks each delivery) beside N idle queues, each with a consumer and one message due
// in an hour, and --parked queues with a message due and no consumer: CPU per dispatch round and
// per delivered message, and the consumers and queues a round looks at, for each N of --idle.
// `flow`: --rate messages a second for --seconds over --queues queues (round robin), each due
// 1-3 s after its publish, a consumer on each queue; `burst`: --per-queue messages in each of
// --queues queues published due while no consumer is subscribed, then a consumer on each: many
// queues due at once. Both print the proposals (lease, ack, all) and CPU per delivered message,
// and how late deliveries were pushed (push time - due time). Options of the dispatcher come from the node's defaults; --server-env
// K=V sets one as for a node (e.g. FERMATA_DISPATCHER__LEASE_RUNS=false).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { systemClock } from '@fermata/base';
import {
  BrokerStateMachine,
  type Consumer,
  createQueueHasher,
  DEFAULT_GROUP,
  Dispatcher,
  decodeCommand,
  discardLeaderMetrics,
  emptySlots,
  heldAheadSchedule,
  loadConfig,
  Proposer,
  stateStoreOptions,
} from '@fermata/broker';
import type { pb } from '@fermata/protocol';
import type { Entry } from '@fermata/raft';
import { openStore } from '@fermata/storage';
import pino from 'pino';
import { mainThreadUs } from './apply.js';
import { load1 } from './cluster.js';
import { emit, flag, option, round, stringOption, summary } from './report.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A log that commits every proposal of one event-loop turn in one apply batch, in order. */
class TurnLog {
  private pending: Array<{ data: Uint8Array; resolve(r: unknown): void; reject(e: unknown): void }> = [];
  private applying: Promise<void> = Promise.resolve();
  private scheduled = false;
  /** Entries committed, by command kind. */
  readonly kinds = new Map<string, number>();

  constructor(private readonly sm: BrokerStateMachine) {}

  propose(data: Uint8Array): Promise<unknown> {
    const kind = data.length > 0 ? decodeCommand(data).kind : 'no-op';
    this.kinds.set(kind, (this.kinds.get(kind) ?? 0) + 1);
    return new Promise((resolve, reject) => {
      this.pending.push({ data, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        const batch = this.pending.splice(0);
        this.applying = this.applying.then(async () => {
          const from = this.sm.appliedIndex() + 1;
          const entries: Entry[] = batch.map((p, i) => ({
            term: 1,
            index: from + i,
            type: 'normal',
            data: p.data,
          }));
          try {
            const results = await this.sm.apply(entries);
            for (const [i, p] of batch.entries()) p.resolve(results[i]);
          } catch (err) {
            for (const p of batch) p.reject(err);
          }
        });
      });
    });
  }

  count(kind?: string): number {
    if (kind) return this.kinds.get(kind) ?? 0;
    let n = 0;
    for (const v of this.kinds.values()) n += v;
    return n;
  }
}

/** Extra environment for loadConfig from `--server-env K=V` (repeatable). */
function serverEnv(args: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  args.forEach((a, i) => {
    if (a !== '--server-env') return;
    const [k, ...v] = (args[i + 1] ?? '').split('=');
    if (k) env[k] = v.join('=');
  });
  return env;
}

interface Leader {
  readonly sm: BrokerStateMachine;
  readonly log: TurnLog;
  readonly proposer: Proposer;
  readonly dispatcher: Dispatcher;
  /** Dispatch rounds so far (calls of the dispatcher's round). */
  rounds(): number;
  /** Consumer lists a round read (per queue it looked at), so far. */
  consumerLists(): number;
  /** Deliveries so far, by topic. */
  readonly delivered: Map<string, number>;
  /** Each delivery's lateness (pushed at - due at, ms), in order. */
  readonly lateness: number[];
  subscribe(topic: string, window: number): void;
  close(): Promise<void>;
}

/** A one-node leader over a fresh LevelDB store: state machine, log, proposer, dispatcher. */
async function leader(env: Record<string, string>): Promise<Leader> {
  const dir = mkdtempSync(join(tmpdir(), 'fermata-bench-dispatch-'));
  const config = loadConfig({ env });
  const store = await openStore(stateStoreOptions(config.storage, join(dir, 'db')));
  const sm = await BrokerStateMachine.open({
    store,
    hasher: await createQueueHasher(),
    cacheEntries: config.storage.recordCacheEntries,
  });
  const log = new TurnLog(sm);
  sm.ids.beginLeadership(1);
  await log.propose(new Uint8Array(0));
  sm.ids.entryApplied(1);
  const proposer = new Proposer(log, sm, {
    publishIdempotency: true,
    ackLingerMs: config.dispatcher.ackLingerMs,
    inlineBodies: config.storage.inlineBodies,
  });
  const d = config.dispatcher;
  const dispatcher = new Dispatcher({
    reader: sm.reader,
    proposer,
    metrics: discardLeaderMetrics,
    log: pino({ level: 'warn' }),
    clock: systemClock,
    maxLeaseBatch: d.maxLeaseBatch,
    leaseAheadMs: d.leaseAheadMs,
    maxLeaseRoundsInFlight: d.maxLeaseRoundsInFlight,
    leaseInPlace: d.leaseInPlace,
    leaseRuns: d.leaseRuns,
    pushAheadMs: Math.min(d.pushAheadMs, d.leaseAheadMs),
    maxPayloadBytes: config.limits.maxPayloadBytes,
    reclaimWindowMs: d.reclaimWindowMs,
  });
  sm.onDue = (changes) => {
    for (const c of changes) dispatcher.noteDue(c.queueHash, c.dueAtMs, c.lapse === true);
  };
  sm.onWithdrawn = (tags) => dispatcher.withdrawn(tags);
  // Counted from outside, so that the same count runs on any version of the dispatcher.
  let rounds = 0;
  let lists = 0;
  const inner = dispatcher as unknown as {
    pump(): void;
    registry: { consumers(q: bigint): readonly Consumer[] };
  };
  const pump = inner.pump.bind(dispatcher);
  inner.pump = () => {
    rounds++;
    pump();
  };
  const consumers = inner.registry.consumers.bind(inner.registry);
  inner.registry.consumers = (q) => {
    lists++;
    return consumers(q);
  };
  const delivered = new Map<string, number>();
  const lateness: number[] = [];
  await dispatcher.start();
  return {
    sm,
    log,
    proposer,
    dispatcher,
    delivered,
    lateness,
    rounds: () => rounds,
    consumerLists: () => lists,
    subscribe(topic, window) {
      // The consumer acks what it got in a turn as one request (each consumer its own), as the SDK does.
      let acks: Uint8Array[] = [];
      const flushAcks = (): void => {
        const tags = acks;
        acks = [];
        for (const t of tags) dispatcher.settled(t);
        proposer.ack(tags).catch(() => undefined);
      };
      const c: Consumer = {
        id: dispatcher.newConsumerId(),
        consumerId: 0n,
        queue: sm.reader.queueHash(topic, DEFAULT_GROUP),
        topic,
        group: DEFAULT_GROUP,
        window,
        leaseMs: 30_000,
        holdsAhead: false,
        ...emptySlots(),
        ready: [],
        settles: { count: 0, previous: 0, sinceMs: 0 },
        early: heldAheadSchedule(),
        sink: {
          deliver: (batch: pb.Delivery.$Properties[], sent: () => void) => {
            delivered.set(topic, (delivered.get(topic) ?? 0) + batch.length);
            const now = Date.now();
            for (const dl of batch) lateness.push(now - Number(dl.dueAtMs));
            if (acks.length === 0) setImmediate(flushAcks);
            for (const dl of batch) acks.push(dl.tag as Uint8Array);
            setImmediate(sent);
            return true;
          },
          close: () => undefined,
        },
      };
      dispatcher.addConsumer(c);
    },
    async close() {
      dispatcher.stop(new Error('bench over'));
      await sleep(50);
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Publishes through the proposer, `batch` messages a request, as producers would. */
async function publishAll(
  p: Proposer,
  messages: ReadonlyArray<{ topic: string; delayMs: number }>,
  batch = 1_000,
): Promise<void> {
  const payload = new Uint8Array(256).fill(0x61);
  const calls: Promise<unknown>[] = [];
  for (let at = 0; at < messages.length; at += batch) {
    calls.push(p.publish(messages.slice(at, at + batch).map((m) => ({ ...m, payload }))));
    if (calls.length >= 8) await calls.shift();
  }
  await Promise.all(calls);
}

function cpuNowUs(): { all: number; main: number | undefined } {
  const c = process.cpuUsage();
  return { all: c.user + c.system, main: mainThreadUs() };
}

/** One queue busy beside `idle` idle queues and `parked` queues without consumers. */
async function idleRun(
  env: Record<string, string>,
  idle: number,
  parked: number,
  busyMessages: number,
  busyBatch: number,
): Promise<Record<string, unknown>> {
  const l = await leader(env);
  try {
    const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
    await publishAll(l.proposer, [
      ...names('idle', idle).map((topic) => ({ topic, delayMs: 3_600_000 })),
      ...names('parked', parked).map((topic) => ({ topic, delayMs: 0 })),
    ]);
    // A new leader's start reads every queue once: not part of a round.
    l.dispatcher.halt();
    await l.dispatcher.start();
    for (const topic of names('idle', idle)) l.subscribe(topic, 100);
    l.subscribe('busy', 1_000);
    await sleep(200);
    const r0 = l.rounds();
    const lists0 = l.consumerLists();
    const d0 = l.delivered.get('busy') ?? 0;
    const counters0 = { ...((l.dispatcher as { counters?: object }).counters ?? {}) };
    const c0 = cpuNowUs();
    const t0 = performance.now();
    let published = 0;
    while (published < busyMessages) {
      const n = Math.min(busyBatch, busyMessages - published);
      void publishAll(
        l.proposer,
        Array.from({ length: n }, () => ({ topic: 'busy', delayMs: 300 })),
      );
      published += n;
      await sleep(10);
    }
    // The last ones due 300 ms on, and their acks.
    const deadline = Date.now() + 30_000;
    while ((l.delivered.get('busy') ?? 0) - d0 < published && Date.now() < deadline) await sleep(20);
    await sleep(150);
    const c1 = cpuNowUs();
    const wallS = (performance.now() - t0) / 1000;
    const rounds = l.rounds() - r0;
    const delivered = (l.delivered.get('busy') ?? 0) - d0;
    const counters = (l.dispatcher as { counters?: Record<string, number> }).counters;
    const looked = (k: string) =>
      counters ? round((counters[k]! - (counters0 as Record<string, number>)[k]!) / rounds, 2) : null;
    const cpu = c1.all - c0.all;
    const main = c1.main !== undefined && c0.main !== undefined ? c1.main - c0.main : undefined;
    return {
      idle_queues: idle,
      parked_queues: parked,
      published,
      delivered,
      rounds,
      wall_s: round(wallS, 2),
      rounds_per_s: round(rounds / wallS, 0),
      cpu_us_per_round: round(cpu / rounds, 1),
      cpu_us_per_msg: round(cpu / delivered, 1),
      main_us_per_round: main === undefined ? null : round(main / rounds, 1),
      main_us_per_msg: main === undefined ? null : round(main / delivered, 1),
      consumer_lists_per_round: round((l.consumerLists() - lists0) / rounds, 2),
      queues_looked_per_round: looked('queuesLooked'),
      consumers_looked_per_round: looked('consumersLooked'),
    };
  } finally {
    await l.close();
  }
}

/** The proposals, CPU and lateness of delivering `n` messages of `topics` (counted from now). */
async function deliverAll(
  l: Leader,
  topics: readonly string[],
  n: number,
  start: () => Promise<void>,
): Promise<Record<string, unknown>> {
  const entries0 = l.log.count();
  const lease0 = l.log.count('lease') + l.log.count('lease-runs');
  const ack0 = l.log.count('ack');
  const c0 = cpuNowUs();
  const t0 = performance.now();
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  await start();
  const total = () => topics.reduce((s, t) => s + (l.delivered.get(t) ?? 0), 0);
  const deadline = Date.now() + 120_000;
  while (total() < n && Date.now() < deadline) await sleep(20);
  const wallMs = performance.now() - t0;
  loop.disable();
  await sleep(300); // the last acks
  const c1 = cpuNowUs();
  const delivered = total();
  const leases = l.log.count('lease') + l.log.count('lease-runs') - lease0;
  const acks = l.log.count('ack') - ack0;
  const entries = l.log.count() - entries0;
  const late = [...l.lateness].sort((a, b) => a - b);
  const at = (p: number) => late[Math.min(late.length - 1, Math.floor(p * late.length))] ?? null;
  return {
    delivered,
    all_delivered_ms: round(wallMs, 0),
    lateness_ms: { p50: at(0.5), p99: at(0.99), max: late[late.length - 1] ?? null },
    // How long this process's event loop was held (the pushes wait for it): p99 and max, ms.
    event_loop_delay_ms: { p99: round(loop.percentile(99) / 1e6, 1), max: round(loop.max / 1e6, 1) },
    lease_commands: leases,
    ack_commands: acks,
    entries,
    lease_commands_per_msg: round(leases / delivered, 4),
    ack_commands_per_msg: round(acks / delivered, 4),
    entries_per_msg: round(entries / delivered, 4),
    cpu_us_per_msg: round((c1.all - c0.all) / delivered, 1),
    main_us_per_msg:
      c1.main !== undefined && c0.main !== undefined ? round((c1.main - c0.main) / delivered, 1) : null,
  };
}

/**
 * `flow`: messages published to `queues` queues (round robin) at `rate` a second for `seconds`,
 * each due 1-3 s after its publish, every queue with a consumer: a steady flow over many queues.
 */
async function flowRun(
  env: Record<string, string>,
  queues: number,
  rate: number,
  seconds: number,
): Promise<Record<string, unknown>> {
  const l = await leader(env);
  try {
    const topics = Array.from({ length: queues }, (_, i) => `q-${i}`);
    for (const topic of topics) l.subscribe(topic, 1_000);
    const n = Math.round(rate * seconds);
    const perTick = Math.max(1, Math.round(rate / 100));
    let x = 42;
    const r = await deliverAll(l, topics, n, async () => {
      for (let sent = 0; sent < n; ) {
        const batch = [];
        for (let k = 0; k < perTick && sent < n; k++, sent++) {
          x = (x * 1103515245 + 12345) & 0x7fffffff;
          batch.push({ topic: topics[sent % queues]!, delayMs: 1_000 + (x % 2_001) });
        }
        void publishAll(l.proposer, batch);
        await sleep(10);
      }
    });
    return { queues, rate, seconds, ...r };
  } finally {
    await l.close();
  }
}

/**
 * `burst`: `perQueue` messages in each of `queues` queues, all due, published while no consumer
 * is subscribed; then a consumer subscribes to each: every queue due at once.
 */
async function burstRun(
  env: Record<string, string>,
  queues: number,
  perQueue: number,
): Promise<Record<string, unknown>> {
  const l = await leader(env);
  try {
    const topics = Array.from({ length: queues }, (_, i) => `q-${i}`);
    const messages = [];
    for (let i = 0; i < queues * perQueue; i++) messages.push({ topic: topics[i % queues]!, delayMs: 0 });
    await publishAll(l.proposer, messages);
    const r = await deliverAll(l, topics, messages.length, async () => {
      for (const topic of topics) l.subscribe(topic, 1_000);
    });
    return { queues, per_queue: perQueue, ...r };
  } finally {
    await l.close();
  }
}

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  const env = serverEnv(args);
  const parts = stringOption(args, 'parts', 'idle,flow,burst').split(',');
  if (parts.includes('idle')) {
    const idles = stringOption(args, 'idle', quick ? '1,100' : '1,100,10000')
      .split(',')
      .map(Number);
    const parked = option(args, 'parked', quick ? 100 : 1_000);
    const busyMessages = option(args, 'busy-messages', quick ? 1_000 : 10_000);
    const busyBatch = option(args, 'busy-batch', 20);
    for (const idle of idles) {
      const r = await idleRun(env, idle, parked, busyMessages, busyBatch);
      emit({ scenario: 'dispatch', part: 'idle', quick, ...r, load_avg_1m: load1() });
      summary(
        `dispatch idle ${idle} (+${parked} without consumers): ${r.rounds} rounds (${r.rounds_per_s}/s), ` +
          `CPU ${r.cpu_us_per_round} us/round (main thread ${r.main_us_per_round}), ${r.cpu_us_per_msg} us/msg; ` +
          `consumer lists ${r.consumer_lists_per_round}/round, queues looked ${r.queues_looked_per_round}/round, ` +
          `consumers looked ${r.consumers_looked_per_round}/round`,
      );
    }
  }
  for (const part of ['flow', 'burst'].filter((p) => parts.includes(p))) {
    const queues = option(args, 'queues', quick ? 100 : 1_000);
    const r =
      part === 'flow'
        ? await flowRun(env, queues, option(args, 'rate', 2_000), option(args, 'seconds', quick ? 1 : 5))
        : await burstRun(env, queues, option(args, 'per-queue', 10));
    emit({ scenario: 'dispatch', part, quick, ...r, load_avg_1m: load1() });
    summary(
      `dispatch ${part} over ${queues} queues, ${r.delivered} delivered in ${r.all_delivered_ms} ms: ` +
        `${r.lease_commands} lease commands, ${r.ack_commands} acks, ${r.entries_per_msg} entries/msg ` +
        `(lease ${r.lease_commands_per_msg}, ack ${r.ack_commands_per_msg}); CPU ${r.cpu_us_per_msg} us/msg ` +
        `(main thread ${r.main_us_per_msg}); lateness ${JSON.stringify(r.lateness_ms)}, event loop delay ${JSON.stringify(r.event_loop_delay_ms)}`,
    );
  }
}
