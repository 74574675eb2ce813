import type { pb } from '@fermata/protocol';
import type { Entry } from '@fermata/raft';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import {
  type Consumer,
  Dispatcher,
  discardLeaderMetrics,
  heldAheadSchedule,
  JANITOR_INTERVAL_MS,
  Janitor,
  ManualClock,
  Proposer,
} from '../src/leader/index.js';
import { Harness, T0, text } from './state-harness.js';

/** A one-node log that commits each proposal at once: applies it to the real state machine. */
function committingLog(h: Harness) {
  const kinds: string[] = [];
  return {
    kinds,
    async propose(data: Uint8Array): Promise<unknown> {
      const entry: Entry = { term: 1, index: h.index + 1, type: 'normal', data };
      const [result] = await h.applyEntries([entry]);
      kinds.push((result as { kind: string }).kind);
      return result;
    },
  };
}

function consumer(d: Dispatcher, queue: bigint, got: pb.Delivery.$Properties[][]): Consumer {
  return {
    id: d.newConsumerId(),
    queue,
    topic: 't',
    group: 'default',
    window: 10,
    leaseMs: 30_000,
    holdsAhead: false,
    inFlight: new Map(),
    unsent: new Set(),
    blocked: false,
    stalled: false,
    reserved: 0,
    ahead: 0,
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

describe('the leader layer on a manual clock', () => {
  it('the dispatcher leases leaseAheadMs before the due time and delivers at the due millisecond of the clock it is given', async () => {
    const h = await Harness.create();
    await h.publish({ topic: 't', payload: text('a'), delayMs: 5_000 });
    const clock = new ManualClock(T0);
    const raft = committingLog(h);
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
    });
    h.sm.onDue = (changes) => {
      for (const c of changes) dispatcher.noteDue(c.queueHash, c.dueAtMs);
    };
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
});
