import { ManualClock } from '@fermata/base';
import type { pb } from '@fermata/protocol';
import type { Entry } from '@fermata/raft';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { RUN_TAG_BYTES } from '../src/keys.js';
import { emptySlots } from '../src/leader/dispatcher/consumer-registry.js';
import {
  type Consumer,
  Dispatcher,
  type DispatcherOptions,
  discardLeaderMetrics,
  heldAheadSchedule,
  JANITOR_INTERVAL_MS,
  Janitor,
  Proposer,
} from '../src/leader/index.js';
import { type Command, decodeCommand } from '../src/state/commands/commands.js';
import type { BrokerReader } from '../src/state/read/reader.js';
import { Harness, T0, text } from './state-harness.js';

/**
 * A one-node log that commits each proposal at once: applies it to the real
 * state machine. `refuseFirstLease`: the first lease proposal is refused, as
 * Raft refuses one past its uncommitted-bytes limit.
 */
function committingLog(h: Harness, refuseFirstLease = false) {
  const kinds: string[] = [];
  /** Every command proposed, decoded. */
  const commands: Command[] = [];
  let refuse = refuseFirstLease;
  // Proposals commit in the order they came, one after the other, as a log appends them.
  let tail: Promise<unknown> = Promise.resolve();
  return {
    kinds,
    commands,
    propose(data: Uint8Array): Promise<unknown> {
      const cmd = decodeCommand(data);
      commands.push(cmd);
      const kind = cmd.kind;
      if (refuse && (kind === 'lease' || kind === 'lease-runs')) {
        refuse = false;
        return Promise.reject(new Error('proposal refused'));
      }
      const committed = tail.then(async () => {
        const entry: Entry = { term: 1, index: h.index + 1, type: 'normal', data };
        const [result] = await h.applyEntries([entry]);
        kinds.push((result as { kind: string }).kind);
        return result;
      });
      tail = committed.catch(() => undefined);
      return committed;
    },
  };
}

/** A lease command's runs as (topic, tags): one for a `lease`, each of a `lease-runs`. */
function runsOf(cmd: Command): Array<{ topic: string; tags: number }> {
  if (cmd.kind === 'lease') return [{ topic: cmd.topic, tags: cmd.tags.length }];
  if (cmd.kind === 'lease-runs') return cmd.runs.map((r) => ({ topic: r.topic, tags: r.tags.length }));
  return [];
}

/**
 * A one-node log that holds each proposal until `commitNext` applies the
 * oldest: a Raft pipeline whose depth the test controls. Notes, for each run
 * of a lease proposed, its topic and how many lease entries were waiting
 * ahead of its command, and how many lease commands were proposed.
 */
function holdingLog(h: Harness) {
  const pending: Array<{ data: Uint8Array; tags: number; resolve: (r: unknown) => void }> = [];
  const leases: Array<{ topic: string; tags: number; entriesAhead: number }> = [];
  let leaseCommands = 0;
  return {
    leases,
    get pending(): number {
      return pending.length;
    },
    get leaseCommands(): number {
      return leaseCommands;
    },
    propose(data: Uint8Array): Promise<unknown> {
      const runs = runsOf(decodeCommand(data));
      const tags = runs.reduce((sum, r) => sum + r.tags, 0);
      if (runs.length > 0) {
        leaseCommands++;
        const entriesAhead = pending.reduce((sum, p) => sum + p.tags, 0);
        for (const r of runs) leases.push({ ...r, entriesAhead });
      }
      return new Promise((resolve) => pending.push({ data, tags, resolve }));
    },
    async commitNext(): Promise<void> {
      const next = pending.shift();
      if (!next) return;
      const [result] = await h.applyEntries([
        { term: 1, index: h.index + 1, type: 'normal', data: next.data },
      ]);
      next.resolve(result);
    },
  };
}

function consumer(
  d: Dispatcher,
  queue: bigint,
  got: pb.Delivery.$Properties[][],
  topic = 't',
  window = 10,
  leaseMs = 30_000,
): Consumer {
  return {
    id: d.newConsumerId(),
    consumerId: 0n,
    queue,
    topic,
    group: 'default',
    window,
    leaseMs,
    holdsAhead: false,
    ...emptySlots(),
    ready: [],
    settles: { count: 0, previous: 0, sinceMs: 0 },
    early: heldAheadSchedule(),
    sink: {
      deliver: (batch, sent) => {
        got.push(batch);
        sent();
        return true;
      },
      close: () => {},
    },
  };
}

const log = pino({ level: 'silent' });

/** Every delivery so far as its payload and attempt: `a1`, `a2`, ... */
const delivered = (got: pb.Delivery.$Properties[][]): string[] =>
  got.flat().map((d) => `${new TextDecoder().decode(d.payload!)}${d.attempt}`);

/** A dispatcher over the harness's state machine and `raft`, told of every due change. */
function leaderOn(
  h: Harness,
  raft: { propose(data: Uint8Array): Promise<unknown> },
  clock: ManualClock,
  extra: Partial<
    Pick<DispatcherOptions, 'leaseRoundBudget' | 'reader' | 'reclaimWindowMs' | 'leaseRuns'>
  > = {},
): Dispatcher {
  const proposer = new Proposer(raft, h.sm, { publishIdempotency: true, ackLingerMs: 0, clock });
  const dispatcher = new Dispatcher({
    reader: h.sm.reader,
    proposer,
    metrics: discardLeaderMetrics,
    log,
    clock,
    maxLeaseBatch: 100,
    leaseAheadMs: 2_000,
    maxLeaseRoundsInFlight: 4,
    pushAheadMs: 250,
    ...extra,
  });
  h.sm.onDue = (changes) => {
    for (const c of changes) dispatcher.noteDue(c.queueHash, c.dueAtMs, c.lapse === true);
  };
  return dispatcher;
}

/** Consumer 7 of `t/default`, holding deliveries sent ahead until their start (as the SDK does). */
function consumer7(h: Harness, d: Dispatcher, got: pb.Delivery.$Properties[][]): Consumer {
  return {
    ...consumer(d, h.sm.reader.queueHash('t', 'default'), got, 't'),
    consumerId: 7n,
    holdsAhead: true,
  };
}

/**
 * The harness's reader for a new leader's dispatcher: once its read of the
 * running leases (`start`) returned, it runs the step `afterLeaseRead` set,
 * before the dispatcher takes what it read.
 */
function readerWithStep(h: Harness) {
  let step: (() => Promise<void>) | undefined;
  let stepped = false;
  const reader: BrokerReader = Object.create(h.sm.reader);
  reader.runningLeases = async (...args) => {
    const found = await h.sm.reader.runningLeases(...args);
    const run = step;
    step = undefined;
    if (run) {
      await run();
      stepped = true;
    }
    return found;
  };
  return {
    reader,
    afterLeaseRead(next: () => Promise<void>): void {
      step = next;
    },
    get stepped(): boolean {
      return stepped;
    },
  };
}

describe('the leader layer on a manual clock', () => {
  it('the dispatcher leases leaseAheadMs before the due time and delivers at the due millisecond of the clock it is given', async () => {
    const h = await Harness.create();
    await h.publish({ topic: 't', payload: text('a'), delayMs: 5_000 });
    const clock = new ManualClock(T0);
    const raft = committingLog(h);
    const dispatcher = leaderOn(h, raft, clock);
    const got: pb.Delivery.$Properties[][] = [];
    await dispatcher.start();
    dispatcher.addConsumer(consumer(dispatcher, h.sm.reader.queueHash('t', 'default'), got));

    await clock.advance(2_999);
    expect(raft.kinds).toEqual([]);
    await clock.advance(1);
    expect(raft.kinds).toEqual(['lease']);
    await clock.advance(1_999);
    expect(got).toEqual([]);
    await clock.advance(1);
    expect(got.length).toBe(1);
    expect(Number(got[0]![0]!.dueAtMs)).toBe(T0 + 5_000);
    dispatcher.stop(new Error('test over'));
  });

  it('the leader leases a round as one run (one lease record, 20-byte tags); with leaseRuns off, each entry in place', async () => {
    for (const leaseRuns of [true, false]) {
      const h = await Harness.create();
      await h.publish(...['a', 'b', 'c'].map((p) => ({ topic: 't', payload: text(p), delayMs: 100 })));
      const clock = new ManualClock(T0);
      const raft = committingLog(h);
      const dispatcher = leaderOn(h, raft, clock, { leaseRuns });
      const got: pb.Delivery.$Properties[][] = [];
      await dispatcher.start();
      dispatcher.addConsumer(consumer(dispatcher, h.sm.reader.queueHash('t', 'default'), got));
      await clock.advance(100);
      expect(delivered(got).sort()).toEqual(['a1', 'b1', 'c1']);
      expect(raft.kinds).toEqual(['lease']);
      expect(got.flat().map((d) => d.tag!.length)).toEqual(Array(3).fill(leaseRuns ? RUN_TAG_BYTES : 28));
      expect(h.sm.leases.openOffsets).toBe(leaseRuns ? 3 : 0);
      dispatcher.stop(new Error('test over'));
    }
  });

  it('a lease in place that runs out behind the cursor is delivered again at its end, while later entries are read from the cursor', async () => {
    const h = await Harness.create();
    await h.publish(
      { topic: 't', payload: text('a'), delayMs: 100 },
      { topic: 't', payload: text('b'), delayMs: 200 },
      { topic: 't', payload: text('c'), delayMs: 5_000 },
    );
    const clock = new ManualClock(T0);
    const raft = committingLog(h);
    const dispatcher = leaderOn(h, raft, clock);
    const got: pb.Delivery.$Properties[][] = [];
    await dispatcher.start();
    dispatcher.addConsumer(consumer(dispatcher, h.sm.reader.queueHash('t', 'default'), got, 't', 10, 1_000));
    let shown = 0;
    /** Advances the clock; the deliveries made meanwhile, as payload + attempt. */
    const after = async (ms: number) => {
      await clock.advance(ms);
      const all = delivered(got);
      return all.slice(shown, (shown = all.length));
    };
    expect(await after(99)).toEqual([]);
    expect(await after(1)).toEqual(['a1']);
    expect(await after(100)).toEqual(['b1']);
    // Neither is settled: their leases end at 1,100 and 1,200, behind the cursor (which is at c).
    expect(await after(899)).toEqual([]);
    expect(await after(1)).toEqual(['a2']);
    expect(await after(100)).toEqual(['b2']);
    // Still unsettled, they come back at the end of each lease, attempt after attempt; c comes at its time.
    expect(await after(3_799)).toEqual(['a3', 'b3', 'a4', 'b4', 'a5', 'b5']);
    expect(await after(1)).toEqual(['c1']);
    expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 3 });
    dispatcher.stop(new Error('test over'));
  });

  it('entries a read took but no consumer could get (its window closed meanwhile) are read again once it opens', async () => {
    const h = await Harness.create();
    await h.publish(
      ...Array.from({ length: 5 }, (_, i) => ({ topic: 't', payload: text(`m${i}`), delayMs: 100 })),
      { topic: 't', payload: text('later'), delayMs: 10_000 },
    );
    const clock = new ManualClock(T0);
    const raft = committingLog(h);
    let onRead: (() => void) | undefined;
    const reader = Object.create(h.sm.reader) as typeof h.sm.reader;
    reader.scanDue = async (...args) => {
      const read = await h.sm.reader.scanDue(...args);
      onRead?.();
      return read;
    };
    const dispatcher = leaderOn(h, raft, clock, { reader });
    const got: pb.Delivery.$Properties[][] = [];
    await dispatcher.start();
    const c = consumer(dispatcher, h.sm.reader.queueHash('t', 'default'), got);
    // The first read returns while the consumer's window is closed: nobody can take what it read.
    onRead = () => {
      onRead = undefined;
      dispatcher.setWindow(c, 0);
    };
    dispatcher.addConsumer(c);
    await clock.advance(100);
    expect(got.flat()).toEqual([]);
    dispatcher.setWindow(c, 10);
    await clock.advance(100);
    expect(delivered(got)).toEqual(['m01', 'm11', 'm21', 'm31', 'm41']);
    dispatcher.stop(new Error('test over'));
  });

  it('a lease in place shortened by an extend is delivered again at its new end', async () => {
    const h = await Harness.create();
    await h.publish(
      { topic: 't', payload: text('a'), delayMs: 100 },
      { topic: 't', payload: text('c'), delayMs: 60_000 },
    );
    const clock = new ManualClock(T0);
    const dispatcher = leaderOn(h, committingLog(h), clock);
    const got: pb.Delivery.$Properties[][] = [];
    await dispatcher.start();
    dispatcher.addConsumer(consumer(dispatcher, h.sm.reader.queueHash('t', 'default'), got));
    const names = () => delivered(got);
    await clock.advance(200);
    expect(names()).toEqual(['a1']);
    // A unary Extend (no stream slot): the 30 s lease now ends at 1,200.
    h.now = clock.nowMs();
    const tag = got.flat()[0]!.tag as Uint8Array;
    const r = await h.ok({ kind: 'extend', tag, leaseMs: 1_000 });
    expect(r.outcome).toMatchObject({ status: 'ok', dueAtMs: T0 + 1_200 });
    await clock.advance(999);
    expect(names()).toEqual(['a1']);
    await clock.advance(1);
    expect(names()).toEqual(['a1', 'a2']);
    dispatcher.stop(new Error('test over'));
  });

  it('entries of a refused lease command are read again, also by a read during the retry pause', async () => {
    const h = await Harness.create();
    await h.publish(
      ...Array.from({ length: 5 }, (_, i) => ({ topic: 't', payload: text(`m${i}`), delayMs: 100 })),
    );
    const clock = new ManualClock(T0);
    const dispatcher = leaderOn(h, committingLog(h, true), clock);
    const got: pb.Delivery.$Properties[][] = [];
    await dispatcher.start();
    dispatcher.addConsumer(consumer(dispatcher, h.sm.reader.queueHash('t', 'default'), got));
    await clock.advance(50); // leasing ahead, the first lease command was refused; its retry pause runs
    expect(got.flat()).toEqual([]);
    h.now = clock.nowMs();
    await h.publish({ topic: 'other', payload: text('o') }); // something wakes the dispatcher meanwhile
    await clock.advance(1_000);
    expect(delivered(got)).toEqual(['m01', 'm11', 'm21', 'm31', 'm41']);
    dispatcher.stop(new Error('test over'));
  });

  it('a queue coming due waits behind at most the lease round budget of other queues lease entries', async () => {
    const h = await Harness.create();
    const bursts = ['b1', 'b2', 'b3', 'b4', 'b5'];
    for (const topic of bursts) {
      const messages = Array.from({ length: 500 }, (_, i) => ({
        topic,
        payload: text(`m${i}`),
        delayMs: 5_000,
      }));
      await h.publish(...messages);
    }
    await h.publish({ topic: 'probe', payload: text('p'), delayMs: 5_500 });
    const clock = new ManualClock(T0);
    const raft = holdingLog(h);
    const dispatcher = leaderOn(h, raft, clock, { leaseRoundBudget: 400 });
    const got: pb.Delivery.$Properties[][] = [];
    await dispatcher.start();
    for (const topic of [...bursts, 'probe'])
      dispatcher.addConsumer(
        consumer(dispatcher, h.sm.reader.queueHash(topic, 'default'), got, topic, 1_000),
      );

    // The five bursts come within the look-ahead together: they share one budget of 400 entries.
    await clock.advance(3_000);
    expect(raft.leases.reduce((sum, l) => sum + l.tags, 0)).toBe(400);
    expect(new Set(raft.leases.map((l) => l.topic)).size).toBe(5);
    // The probe comes within the look-ahead while the budget is full; lease commands apply one by one.
    await clock.advance(500);
    let commits = 0;
    for (; commits < 40 && !raft.leases.some((l) => l.topic === 'probe'); commits++) {
      await raft.commitNext();
      await clock.advance(1);
    }
    const probe = raft.leases.find((l) => l.topic === 'probe');
    expect(probe?.tags).toBe(1);
    expect(probe!.entriesAhead).toBeLessThanOrEqual(400);
    // Leased in the first round that had room: right after the first command applied.
    expect(commits).toBe(1);
    while (raft.pending > 0) {
      await raft.commitNext();
      await clock.advance(1);
    }
    dispatcher.stop(new Error('test over'));
  });

  it('the runs of every queue due in a round go in one lease command; with leaseRuns off, one command per queue as before', async () => {
    for (const leaseRuns of [true, false]) {
      const h = await Harness.create();
      const topics = Array.from({ length: 20 }, (_, i) => `q${i}`);
      for (const topic of topics)
        await h.publish(...['a', 'b', 'c'].map((p) => ({ topic, payload: text(p), delayMs: 5_000 })));
      const clock = new ManualClock(T0);
      const raft = committingLog(h);
      const dispatcher = leaderOn(h, raft, clock, { leaseRuns });
      const got: pb.Delivery.$Properties[][] = [];
      await dispatcher.start();
      for (const topic of topics)
        dispatcher.addConsumer(consumer(dispatcher, h.sm.reader.queueHash(topic, 'default'), got, topic));
      await clock.advance(3_000); // every queue comes within the look-ahead at once
      const leases = raft.commands.flatMap(runsOf);
      const commands = raft.commands.filter((c) => c.kind === 'lease' || c.kind === 'lease-runs');
      expect(leases.map((l) => l.tags)).toEqual(Array(20).fill(3));
      expect(new Set(leases.map((l) => l.topic)).size).toBe(20);
      if (leaseRuns) expect(commands.map((c) => c.kind)).toEqual(['lease-runs']);
      else expect(commands.map((c) => c.kind)).toEqual(Array(20).fill('lease'));
      await clock.advance(2_000);
      expect(got.flat()).toHaveLength(60);
      expect(dispatcher.counters).toMatchObject({
        leaseCommands: commands.length,
        leaseRuns: 20,
        leaseEntries: 60,
      });
      dispatcher.stop(new Error('test over'));
    }
  });

  it('queues whose entries come within the look-ahead a few ms apart share the next round: one cadence for every queue', async () => {
    const h = await Harness.create();
    const topics = Array.from({ length: 10 }, (_, i) => `q${i}`);
    // Due 5,000-5,018 ms from now, 2 ms apart: they come within the 2 s look-ahead 2 ms apart.
    for (const [i, topic] of topics.entries())
      await h.publish({ topic, payload: text(topic), delayMs: 5_000 + 2 * i });
    const clock = new ManualClock(T0);
    const raft = committingLog(h);
    const dispatcher = leaderOn(h, raft, clock);
    const got: pb.Delivery.$Properties[][] = [];
    const arrivals = new Map<string, number>();
    await dispatcher.start();
    for (const topic of topics) {
      const c = consumer(dispatcher, h.sm.reader.queueHash(topic, 'default'), got, topic);
      const deliver = c.sink.deliver;
      c.sink.deliver = (batch, sent) => {
        for (const d of batch) arrivals.set(d.topic!, clock.nowMs());
        return deliver(batch, sent);
      };
      dispatcher.addConsumer(c);
    }
    await clock.advance(3_100);
    // The first queue's round at 3,000 ms, every other one's at the cadence's next round, 25 ms on.
    expect(raft.commands.filter((c) => c.kind === 'lease-runs').map((c) => runsOf(c).length)).toEqual([1, 9]);
    await clock.advance(2_000);
    // Each delivered at its due millisecond all the same.
    expect(topics.map((t) => arrivals.get(t))).toEqual(topics.map((_, i) => T0 + 5_000 + 2 * i));
    dispatcher.stop(new Error('test over'));
  });

  it("a round's runs past maxLeaseBatch fill commands of at most maxLeaseBatch entries, a run split between two", async () => {
    const h = await Harness.create();
    const topics = ['a', 'b', 'c'];
    for (const topic of topics)
      await h.publish(
        ...Array.from({ length: 60 }, (_, i) => ({ topic, payload: text(`${topic}${i}`), delayMs: 100 })),
      );
    const clock = new ManualClock(T0);
    const raft = committingLog(h);
    const dispatcher = leaderOn(h, raft, clock); // maxLeaseBatch 100
    const got: pb.Delivery.$Properties[][] = [];
    await dispatcher.start();
    for (const topic of topics)
      dispatcher.addConsumer(consumer(dispatcher, h.sm.reader.queueHash(topic, 'default'), got, topic, 100));
    await clock.advance(100);
    const commands = raft.commands.filter((c) => c.kind === 'lease-runs');
    expect(commands.map((c) => runsOf(c).map((r) => r.tags))).toEqual([
      [60, 40],
      [20, 60],
    ]);
    const payloads = got.flat().map((d) => new TextDecoder().decode(d.payload!));
    expect(payloads).toHaveLength(180);
    expect(new Set(payloads).size).toBe(180);
    expect(new Set(got.flat().map((d) => Buffer.from(d.tag!).toString('hex'))).size).toBe(180);
    expect(h.sm.leases.openOffsets).toBe(180);
    dispatcher.stop(new Error('test over'));
  });

  it('the work of a round does not grow with idle queues: 1 or 500 with consumers and nothing due, 200 due without one', async () => {
    /** Runs the same busy queue beside `idle` idle queues and `parked` queues without consumers; the dispatcher's counters. */
    const counted = async (idle: number, parked: number) => {
      const h = await Harness.create();
      const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
      for (const topic of names('idle', idle))
        await h.publish({ topic, payload: text('later'), delayMs: 3_600_000 });
      for (const topic of names('parked', parked)) await h.publish({ topic, payload: text('due') });
      const clock = new ManualClock(T0);
      const raft = committingLog(h);
      const dispatcher = leaderOn(h, raft, clock);
      const got: pb.Delivery.$Properties[][] = [];
      await dispatcher.start();
      for (const topic of names('idle', idle))
        dispatcher.addConsumer(consumer(dispatcher, h.sm.reader.queueHash(topic, 'default'), got, topic));
      dispatcher.addConsumer(consumer(dispatcher, h.sm.reader.queueHash('busy', 'default'), got, 'busy'));
      const before = { ...dispatcher.counters };
      let acked = 0;
      for (let step = 0; step < 40; step++) {
        h.now = clock.nowMs();
        await h.publish(...['x', 'y'].map((p) => ({ topic: 'busy', payload: text(p), delayMs: 100 })));
        await clock.advance(50);
        const tags = got
          .flat()
          .slice(acked)
          .map((d) => d.tag as Uint8Array);
        acked += tags.length;
        if (tags.length === 0) continue;
        h.now = clock.nowMs();
        await h.ok({ kind: 'ack', tags });
        for (const tag of tags) dispatcher.settled(tag);
      }
      await clock.advance(500);
      expect(got.flat().filter((d) => d.topic === 'busy')).toHaveLength(80);
      dispatcher.stop(new Error('test over'));
      const c = dispatcher.counters;
      return {
        rounds: c.rounds - before.rounds,
        queuesLooked: c.queuesLooked - before.queuesLooked,
        consumersLooked: c.consumersLooked - before.consumersLooked,
      };
    };
    const small = await counted(1, 0);
    expect(small.rounds).toBeGreaterThan(40);
    expect(await counted(500, 200)).toEqual(small);
  });

  it('the janitor sweeps every JANITOR_INTERVAL_MS of the clock it is given and expires what its TTL ended', async () => {
    const h = await Harness.create();
    const [r] = await h.publish({ topic: 't', payload: text('a'), delayMs: 60_000, ttlMs: 1_000 });
    const clock = new ManualClock(T0);
    const raft = committingLog(h);
    const proposer = new Proposer(raft, h.sm, { publishIdempotency: true, ackLingerMs: 0, clock });
    const janitor = new Janitor({
      reader: h.sm.reader,
      proposer,
      metrics: discardLeaderMetrics,
      log,
      batch: 100,
      limits: h.sm.limits,
      clock,
    });
    janitor.start();
    await clock.advance(1_000 - 1);
    expect(raft.kinds).not.toContain('expire');
    expect(await h.sm.reader.getMessage('t', { id: r!.id }, clock.nowMs())).toBeDefined();
    await clock.advance(JANITOR_INTERVAL_MS);
    expect(raft.kinds).toContain('expire');
    expect(await h.sm.reader.getMessage('t', { id: r!.id }, clock.nowMs())).toBeUndefined();
    janitor.stop();
    expect(clock.pending).toBe(0);
  });

  it("a new leader hands the previous leader's leases back to their consumer, uncounted; unstarted ones nobody takes back are handed back after the reclaim window", async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 't', settings: { maxAttempts: 1 } });
    await h.ok({ kind: 'create-topic', name: 'u', settings: { maxAttempts: 1 } });
    await h.publish(
      { topic: 't', payload: text('a'), delayMs: 1_000 },
      { topic: 't', payload: text('b'), delayMs: 1_500 },
      { topic: 't', payload: text('c'), delayMs: 1_800 },
      { topic: 'u', payload: text('e'), delayMs: 1_900 },
    );
    const clock = new ManualClock(T0);
    const raft = committingLog(h);
    const qt = h.sm.reader.queueHash('t', 'default');
    const qu = h.sm.reader.queueHash('u', 'default');
    const holding = (
      d: Dispatcher,
      queue: bigint,
      topic: string,
      id: bigint,
      got: pb.Delivery.$Properties[][],
    ) => ({
      ...consumer(d, queue, got, topic),
      consumerId: id,
      holdsAhead: true,
    });
    const old = leaderOn(h, raft, clock);
    await old.start();
    const gotX: pb.Delivery.$Properties[][] = [];
    const gotY: pb.Delivery.$Properties[][] = [];
    old.addConsumer(holding(old, qt, 't', 7n, gotX));
    old.addConsumer(holding(old, qu, 'u', 9n, gotY));
    // Everything is leased ahead at once; only a is sent (250 ms before its start) by 800.
    await clock.advance(800);
    expect(delivered(gotX)).toEqual(['a1']);
    expect(await h.stats('t')).toMatchObject({ inFlight: 3 });
    // The leader dies: nothing of its memory survives.
    old.halt();

    const next = leaderOn(h, raft, clock, { reclaimWindowMs: 3_000 });
    await next.start();
    // X subscribes again holding a: a is carried over (not sent again), b and c, never sent, are sent to it.
    const gotX2: pb.Delivery.$Properties[][] = [];
    const x2 = holding(next, qt, 't', 7n, gotX2);
    // A tag of a lease nobody took: another lease id (a run's tag), or another lease number (in place).
    const stranger = new Uint8Array(gotX[0]![0]!.tag!);
    const at = stranger.length === RUN_TAG_BYTES ? 15 : stranger.length - 1;
    stranger[at] = (stranger[at]! + 1) % 256;
    const plan = await next.planTakeBack(x2, [gotX[0]![0]!.tag!, stranger]);
    const released = next.addConsumer(x2, plan);
    expect(released.map((t) => Buffer.from(t).toString('hex'))).toEqual([
      Buffer.from(stranger).toString('hex'),
    ]);
    expect(x2.inFlight.size).toBe(1);
    await clock.advance(1_000);
    expect(delivered(gotX2)).toEqual(['b1', 'c1']);
    expect(gotX2.flat().map((d) => Number(d.startsAtMs))).toEqual([T0 + 1_500, T0 + 1_800]);
    // Y never comes back; Z subscribes to u. e had not started at the election: after the reclaim
    // window (3 s from the start, at 3,800) it is handed back, not counted, and goes to Z.
    const gotZ: pb.Delivery.$Properties[][] = [];
    next.addConsumer(holding(next, qu, 'u', 11n, gotZ));
    await clock.advance(1_999);
    expect(gotZ.flat()).toEqual([]);
    await clock.advance(1);
    expect(delivered(gotZ)).toEqual(['e1']);
    expect(await h.stats('u')).toMatchObject({ inFlight: 1, deadLettered: 0 });
    next.stop(new Error('test over'));
  });
  it.each([{ leaseRuns: true }, { leaseRuns: false }])(
    "a delivery its consumer acks to a new leader before that leader's dispatcher has read the leases is not pushed to it again (leaseRuns $leaseRuns)",
    async ({ leaseRuns }) => {
      const h = await Harness.create();
      await h.ok({ kind: 'create-topic', name: 't', settings: { maxAttempts: 1 } });
      await h.publish(
        { topic: 't', payload: text('a'), delayMs: 1_000 },
        { topic: 't', payload: text('b'), delayMs: 1_100 },
        { topic: 't', payload: text('c'), delayMs: 1_150 },
      );
      const clock = new ManualClock(T0);
      const raft = committingLog(h);
      const old = leaderOn(h, raft, clock, { leaseRuns });
      await old.start();
      const gotX: pb.Delivery.$Properties[][] = [];
      old.addConsumer(consumer7(h, old, gotX));
      await clock.advance(1_200);
      expect(delivered(gotX)).toEqual(['a1', 'b1', 'c1']);
      const [tagA, tagB, tagC] = gotX.flat().map((d) => d.tag!);
      // The leader dies while the consumer's acks of a, b and c are on their way to it.
      old.halt();

      const read = readerWithStep(h);
      const next = leaderOn(h, raft, clock, { leaseRuns, reader: read.reader });
      // The consumer's acks reach the new leader as its server takes them (settle.ts `ack`): the
      // dispatcher hears of the tag, then the command commits. b's and c's come before the
      // dispatcher starts, a's while it reads. a's and b's apply after that read and are answered
      // ok, so the consumer forgets them; c's is not answered yet when it subscribes again.
      next.settled(tagB!);
      next.settled(tagC!);
      read.afterLeaseRead(async () => {
        next.settled(tagA!);
        const acked = await h.ok({ kind: 'ack', tags: [tagA!, tagB!], nowMs: clock.nowMs() });
        expect(acked.outcomes.map((o) => o.status)).toEqual(['ok', 'ok']);
      });
      await next.start();
      expect(read.stepped).toBe(true);

      const gotX2: pb.Delivery.$Properties[][] = [];
      const x2 = consumer7(h, next, gotX2);
      const hex = (t: Uint8Array) => Buffer.from(t).toString('hex');
      // It holds c only: c, being acked, is not carried over (no slot kept for it until its lease ends).
      const released = next.addConsumer(x2, await next.planTakeBack(x2, [tagC!]));
      expect(released.map(hex)).toEqual([hex(tagC!)]);
      expect(x2.inFlight.size).toBe(0);
      const acked = await h.ok({ kind: 'ack', tags: [tagC!], nowMs: clock.nowMs() });
      expect(acked.outcomes.map((o) => o.status)).toEqual(['ok']);
      await clock.advance(1_000);
      // Acked: none is handed to the consumer again.
      expect(delivered(gotX2)).toEqual([]);
      expect(x2.inFlight.size).toBe(0);
      expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 0 });
      next.stop(new Error('test over'));
    },
  );

  it('a lease the new leader read to take back that ends before its consumer subscribes again (its message expired) is not pushed to it', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 't', settings: { maxAttempts: 1 } });
    const [, c] = await h.publish(
      { topic: 't', payload: text('a'), delayMs: 1_000 },
      { topic: 't', payload: text('c'), delayMs: 1_800, ttlMs: 1_100 },
    );
    const clock = new ManualClock(T0);
    const raft = committingLog(h);
    const old = leaderOn(h, raft, clock);
    await old.start();
    const gotX: pb.Delivery.$Properties[][] = [];
    old.addConsumer(consumer7(h, old, gotX));
    // a and c are leased ahead for X at once; a is sent and runs, c (due at 1,800) is not sent yet.
    await clock.advance(1_200);
    expect(delivered(gotX)).toEqual(['a1']);
    expect(await h.stats('t')).toMatchObject({ inFlight: 2 });
    old.halt();

    // The new leader's lease read returns, then c's TTL ends it (the janitor's expire applies,
    // reporting its lease withdrawn), before the dispatcher has taken what it read.
    const read = readerWithStep(h);
    const next = leaderOn(h, raft, clock, { reader: read.reader });
    h.sm.onWithdrawn = (tags) => next.withdrawn(tags);
    read.afterLeaseRead(async () => {
      const expired = await h.ok({ kind: 'expire', ids: [c!.id], nowMs: clock.nowMs() });
      expect(expired.outcomes.map((o) => o.id)).toEqual([c!.id]);
    });
    await next.start();
    expect(read.stepped).toBe(true);

    // X subscribes again holding a: a is carried over; c, expired, is not sent.
    const gotX2: pb.Delivery.$Properties[][] = [];
    const x2 = consumer7(h, next, gotX2);
    expect(next.addConsumer(x2, await next.planTakeBack(x2, [gotX[0]![0]!.tag!]))).toEqual([]);
    expect(x2.inFlight.size).toBe(1);
    await clock.advance(1_000);
    expect(delivered(gotX2)).toEqual([]);
    expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 1 });
    next.stop(new Error('test over'));
  });
});

describe('group limits beside ordering, pause and deadlines, on a manual clock', () => {
  /** Sets the default group's limits (and nothing else) of topic `t`. */
  async function limit(
    h: Harness,
    settings: { maxDeliveriesPerSecond?: number; burst?: number; maxInFlight?: number },
  ) {
    const updateMask = Object.keys(settings).map((k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
    await h.ok({ kind: 'update-group', topic: 't', group: 'default', settings, updateMask });
  }

  /** Acks the delivery as the server does (settle.ts): the consumer's slot, the apply, then the group's. */
  async function ack(h: Harness, d: Dispatcher, clock: ManualClock, tag: Uint8Array): Promise<void> {
    d.settled(tag);
    const r = await h.ok({ kind: 'ack', tags: [tag], nowMs: clock.nowMs() });
    expect(r.outcomes.map((o) => o.status)).toEqual(['ok']);
    d.settleApplied([tag]);
  }

  /** A leader over `h` on a manual clock at T0, started, with one consumer of `t/default`. */
  async function leading(h: Harness) {
    const clock = new ManualClock(T0);
    const raft = committingLog(h);
    const dispatcher = leaderOn(h, raft, clock);
    const got: pb.Delivery.$Properties[][] = [];
    await dispatcher.start();
    const q = h.sm.reader.queueHash('t', 'default');
    dispatcher.addConsumer(consumer(dispatcher, q, got));
    return { clock, raft, dispatcher, got, q };
  }

  it("a key's head counts against max_in_flight like any lease: another key waits for its slot", async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 't', settings: { ordering: 'key' } });
    await limit(h, { maxInFlight: 1 });
    await h.publish(
      { topic: 't', payload: text('a'), orderingKey: 'A', delayMs: 100 },
      { topic: 't', payload: text('b'), orderingKey: 'A', delayMs: 100 },
      { topic: 't', payload: text('c'), orderingKey: 'C', delayMs: 100 },
    );
    const { clock, dispatcher, got } = await leading(h);
    const order: string[] = [];
    for (let i = 0; i < 3; i++) {
      // Long enough for any number of rounds: one delivery, held until acked.
      await clock.advance(1_000);
      expect(delivered(got), `step ${i}`).toHaveLength(1);
      order.push(...delivered(got));
      const [d] = got.flat();
      got.length = 0;
      await ack(h, dispatcher, clock, d!.tag!);
    }
    // A's head first; b, moved up at its end, is due before c (same due time, lower id).
    expect(order).toEqual(['a1', 'b1', 'c1']);
    dispatcher.stop(new Error('test over'));
  });

  it('a paused group spends no tokens: at the resume its full burst goes at once, then the rate', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 't' });
    await limit(h, { maxDeliveriesPerSecond: 10, burst: 4 });
    await h.ok({
      kind: 'update-group',
      topic: 't',
      group: 'default',
      settings: { paused: true },
      updateMask: ['paused'],
    });
    // Due after the new leader's empty bucket has its first token: only the pause holds them.
    await h.publish(
      ...Array.from({ length: 10 }, (_, i) => ({ topic: 't', payload: text(`m${i}`), delayMs: 1_000 })),
    );
    const { clock, raft, dispatcher, got, q } = await leading(h);
    await clock.advance(5_000);
    expect(raft.kinds.filter((k) => k === 'lease')).toEqual([]);
    expect(got.flat()).toEqual([]);
    await h.ok({
      kind: 'update-group',
      topic: 't',
      group: 'default',
      settings: { paused: false },
      updateMask: ['paused'],
      nowMs: clock.nowMs(),
    });
    await clock.advance(1);
    expect(got.flat()).toHaveLength(4);
    await clock.advance(98);
    expect(got.flat()).toHaveLength(4);
    await clock.advance(2);
    expect(got.flat()).toHaveLength(5);
    // Held back by the rate after the burst: the leases after it are throttled, not the burst's.
    expect(dispatcher.throttled(q)).toBe(1);
    dispatcher.stop(new Error('test over'));
  });

  it('a message whose deadline passes while the rate holds it back is dead-lettered, never delivered, and counted throttled', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 't' });
    await limit(h, { maxDeliveriesPerSecond: 1, burst: 1 });
    await h.publish(
      { topic: 't', payload: text('a'), delayMs: 100 },
      { topic: 't', payload: text('b'), delayMs: 100, deliverBeforeMs: T0 + 1_600 },
      { topic: 't', payload: text('c'), delayMs: 100, deliverBeforeMs: T0 + 1_600 },
    );
    const { clock, dispatcher, got, q } = await leading(h);
    // One token a second: a at the first; b and c, met by the lease past their deadline (no janitor
    // here, or its sweep came after the round), are dead-lettered instead.
    await clock.advance(4_000);
    expect(delivered(got)).toEqual(['a1']);
    expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 1, deadLettered: 2 });
    const letters = await h.sm.reader.listMessages('t.dlq', { group: 'default', limit: 10 }, clock.nowMs());
    expect(letters.items.map((it) => it.message?.deadLetter?.reason)).toEqual([
      'deadline_exceeded',
      'deadline_exceeded',
    ]);
    // The rate made all three late: a's lease and b's and c's ends.
    expect(dispatcher.throttled(q)).toBe(3);
    dispatcher.stop(new Error('test over'));
  });
});
