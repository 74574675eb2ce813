// The bound on the clock offset between a candidate and its voters (node/vote-clock.ts),
// on the shipped driver (DriverCluster: RaftNodes on simulated disks, network and time):
// a node whose wall clock is beyond maxClockOffsetMs from its voters' is never elected,
// by an election or a leadership transfer, and the others elect one of themselves.
import { describe, expect, it } from 'vitest';
import { NodeTimeoutError } from '../src/node/errors.js';
import { DriverCluster } from '../src/sim/driver-cluster.js';
import { type Message, message } from '../src/types.js';

const HOUR_MS = 3_600_000;
const BOUND_MS = 5_000;

const isVoteRequest = (m: Message) => m.type === 'vote' || m.type === 'pre-vote';
const isVoteResponse = (m: Message) => m.type === 'vote-response' || m.type === 'pre-vote-response';

function leaderOf(c: DriverCluster): string | undefined {
  return c.live().find((n) => n.core?.status().role === 'leader')?.id;
}

/** Runs until `done`, failing if `never` ever leads on the way. */
async function untilWithout(
  c: DriverCluster,
  never: string,
  what: string,
  done: () => boolean,
  maxMs = 10_000,
) {
  let led = false;
  await c.until(
    what,
    () => {
      if (c.sim(never).core?.status().role === 'leader') led = true;
      return led || done();
    },
    maxMs,
  );
  expect(led, `${never} led`).toBe(false);
}

describe('a candidate must agree with its voters on the time, within maxClockOffsetMs', () => {
  it('a voter refuses a vote request stamped beyond the bound without taking its term, and answers with its own clock; within the bound the request reaches the core', async () => {
    const c = new DriverCluster(['n1', 'n2', 'n3'], { maxClockOffsetMs: BOUND_MS });
    await c.elect('n1');
    const toN3: Message[] = [];
    c.drop = (m) => {
      if (m.to === 'n3' && isVoteResponse(m)) toN3.push(m);
      return false;
    };
    const term = c.core('n2').status().term;
    const request = (wallTimeMs?: number) =>
      message({
        type: 'vote',
        from: 'n3',
        to: 'n2',
        term: term + 5,
        index: c.core('n2').lastIndex(),
        logTerm: c.core('n2').status().term,
        ...(wallTimeMs !== undefined ? { wallTimeMs } : {}),
      });

    c.deliver(request(c.nowMs() + HOUR_MS));
    await c.run(20);
    expect(c.core('n2').status().term).toBe(term);
    expect(toN3).toEqual([
      expect.objectContaining({
        type: 'vote-response',
        from: 'n2',
        reject: true,
        term,
        wallTimeMs: expect.any(Number),
      }),
    ]);
    expect(Math.abs(toN3[0]!.wallTimeMs! - c.nowMs())).toBeLessThan(100);
    c.deliver(request(c.nowMs() - HOUR_MS));
    await c.run(20);
    expect(c.core('n2').status().term).toBe(term);
    expect(toN3).toHaveLength(2);
    expect(c.node('n2').status().counters.clockRefusals).toEqual({ refused: 2, refusedByPeers: 0 });

    // Within the bound, and without a stamp, the core judges it: in its leader's lease, n2 ignores it.
    c.deliver(request(c.nowMs() + BOUND_MS - 100));
    c.deliver(request());
    await c.run(20);
    expect(toN3).toHaveLength(2);
    expect(c.node('n2').status().counters.clockRefusals.refused).toBe(2);
  });

  it('a candidate counts a refusal for the clock only when the clocks still disagree as it arrives (not one that answered it before a restart with the right time)', async () => {
    const c = new DriverCluster(['n1', 'n2', 'n3'], { maxClockOffsetMs: BOUND_MS });
    await c.elect('n1');
    const refusal = (wallTimeMs: number) =>
      message({
        type: 'pre-vote-response',
        from: 'n1',
        to: 'n3',
        term: c.core('n3').status().term,
        reject: true,
        wallTimeMs,
      });
    c.deliver(refusal(c.nowMs() + 20));
    c.deliver(refusal(c.nowMs() - BOUND_MS + 100));
    expect(c.node('n3').status().counters.clockRefusals.refusedByPeers).toBe(0);
    c.deliver(refusal(c.nowMs() - HOUR_MS));
    expect(c.node('n3').status().counters.clockRefusals.refusedByPeers).toBe(1);
  });

  it('a node whose clock is an hour ahead is refused by both voters and never leads; they elect one of themselves', async () => {
    const c = new DriverCluster(['n1', 'n2', 'n3'], { maxClockOffsetMs: BOUND_MS });
    c.wallOffsetMs.set('n3', HOUR_MS);
    const requests: Message[] = [];
    const responses: Message[] = [];
    // Only n3 campaigns at first.
    let onlyN3 = true;
    c.drop = (m) => {
      if (m.from === 'n3' && isVoteRequest(m)) requests.push(m);
      if (m.to === 'n3' && isVoteResponse(m)) responses.push(m);
      return onlyN3 && isVoteRequest(m) && m.from !== 'n3';
    };
    await untilWithout(c, 'n3', 'n3 to be refused by both, three times', () => responses.length >= 6);
    expect(requests.every((m) => Math.abs(m.wallTimeMs! - (c.nowMs() + HOUR_MS)) < 2_000)).toBe(true);
    expect(responses.every((m) => m.reject && m.wallTimeMs !== undefined)).toBe(true);
    expect(new Set(responses.map((m) => m.from))).toEqual(new Set(['n1', 'n2']));
    // Pre-votes refused: n3 never reached a term of its own.
    expect(c.core('n3').status().term).toBe(c.core('n1').status().term);

    onlyN3 = false;
    await untilWithout(c, 'n3', 'a leader among n1 and n2', () => ['n1', 'n2'].includes(leaderOf(c) ?? ''));
    await untilWithout(c, 'n3', 'n3 to follow', () => c.core('n3').status().leader === leaderOf(c));
    const n3 = c.node('n3').status().counters.clockRefusals;
    expect(n3.refusedByPeers).toBeGreaterThanOrEqual(6);
    const refusedBy12 =
      c.node('n1').status().counters.clockRefusals.refused +
      c.node('n2').status().counters.clockRefusals.refused;
    expect(refusedBy12).toBeGreaterThanOrEqual(6);
  });

  it('within the bound, and from a node that stamps nothing (an older version), a candidate is elected', async () => {
    const within = new DriverCluster(['n1', 'n2', 'n3'], { maxClockOffsetMs: BOUND_MS });
    within.wallOffsetMs.set('n3', BOUND_MS - 500);
    await within.elect('n3');
    expect(within.node('n1').status().counters.clockRefusals.refused).toBe(0);

    // No wall clock anywhere: nothing stamped, nothing checked, whatever the skew.
    const unstamped = new DriverCluster(['n1', 'n2', 'n3']);
    const stamps: Array<number | undefined> = [];
    unstamped.drop = (m) => {
      if (isVoteRequest(m)) stamps.push(m.wallTimeMs);
      return false;
    };
    await unstamped.elect('n3');
    expect(stamps.length).toBeGreaterThan(0);
    expect(stamps.every((s) => s === undefined)).toBe(true);
  });

  it('a leadership transfer to a node whose clock is an hour behind fails instead of electing it; a leader among the others follows', async () => {
    const c = new DriverCluster(['n1', 'n2', 'n3'], { maxClockOffsetMs: BOUND_MS });
    await c.elect('n1');
    c.wallOffsetMs.set('n3', -HOUR_MS);
    let outcome: unknown;
    c.node('n1')
      .transferLeadership('n3')
      .then(
        (to) => {
          outcome = to;
        },
        (error: unknown) => {
          outcome = error;
        },
      );
    await untilWithout(c, 'n3', 'the transfer to end', () => outcome !== undefined);
    expect(outcome).toBeInstanceOf(NodeTimeoutError);
    await untilWithout(c, 'n3', 'a leader among n1 and n2', () => ['n1', 'n2'].includes(leaderOf(c) ?? ''));
    await untilWithout(c, 'n3', 'n3 to follow', () => c.core('n3').status().leader === leaderOf(c));
    await c.run(1_000);
    expect(['n1', 'n2']).toContain(leaderOf(c));
  });

  it('the cost: two voters whose clocks disagree elect nobody, until the one whose clock is wrong restarts with the right time', async () => {
    const c = new DriverCluster(['n1', 'n2', 'n3'], { maxClockOffsetMs: BOUND_MS });
    await c.elect('n1');
    c.wallOffsetMs.set('n3', HOUR_MS);
    c.crashNode('n1');
    await c.run(3_000);
    expect(leaderOf(c)).toBeUndefined();
    expect(c.node('n2').status().counters.clockRefusals.refused).toBeGreaterThan(0);
    expect(c.node('n3').status().counters.clockRefusals.refused).toBeGreaterThan(0);

    c.crashNode('n3');
    c.wallOffsetMs.set('n3', 0);
    c.restart('n3');
    await c.until('a leader among n2 and n3', () => ['n2', 'n3'].includes(leaderOf(c) ?? ''));
  });
});
