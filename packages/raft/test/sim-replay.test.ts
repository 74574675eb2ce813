import { describe, expect, it } from 'vitest';
import { hostileForSeed, nodesForSeed } from '../src/sim/run-options.js';
import { runSeed, type SimOptions } from '../src/sim/simulation.js';

describe('simulator replay', () => {
  it('replaying a seed reproduces the same trace (equal digests)', async () => {
    for (const options of [
      { seed: 7, steps: 2000, nodes: 5 as const },
      { seed: 12, steps: 2000, nodes: 3 as const, hostile: true },
    ]) {
      const a = await runSeed(options);
      const b = await runSeed(options);
      expect(a.ok).toBe(true);
      expect(b.digest).toBe(a.digest);
      expect(b.step).toBe(a.step);
      expect(b.stats).toEqual(a.stats);
    }
  });

  it('different seeds give different traces', async () => {
    const a = await runSeed({ seed: 1, steps: 1000, nodes: 3 });
    const b = await runSeed({ seed: 2, steps: 1000, nodes: 3 });
    expect(a.digest).not.toBe(b.digest);
  });

  it('a failing seed replays to the same step, invariant and values', async () => {
    const options = { seed: 1, steps: 3000, nodes: 5 as const, bug: 'truncate-stale-append' as const };
    const a = await runSeed(options);
    const b = await runSeed(options);
    expect(a.ok).toBe(false);
    expect([b.step, b.invariant, b.values, b.digest]).toEqual([a.step, a.invariant, a.values, a.digest]);
  });
});

/** A seed of the Raft long run (10,000 steps), with the node count and profile the run draws for it. */
function longRunSeed(seed: number): SimOptions {
  return { seed, steps: 10_000, nodes: nodesForSeed(seed), hostile: hostileForSeed(seed) };
}

describe('simulator findings', () => {
  // The review's N1, found by the simulator on its own: with vote requests from non-members
  // refused (the admission before the fix, `member-votes-only`; the same seed fails with the
  // fix reverted in peer-admission.ts), seed 90430 (three nodes) replaces n2 and n3 while
  // another voter is down; n1, which missed the entries adding n4, and n4, the only one that
  // can win, are the two voters of {n1, n4} up and connected, and n1 refuses n4's pre-votes:
  // no leader for good. The live-majority rule (liveness.ts) reports it within its bound.
  // The scripted scenarios are in sim-driver-liveness.test.ts.
  const n1 = { seed: 90430, steps: 4000, nodes: nodesForSeed(90430), hostile: hostileForSeed(90430) };

  it('seed 90430: with the admission before the fix, the live majority {n1, n4} never elects a leader; with the fix it does', async () => {
    const broken = await runSeed({ ...n1, bug: 'member-votes-only', generalOnly: true });
    expect(broken.ok).toBe(false);
    expect(broken.invariant).toBe('liveness');
    expect(broken.values).toMatchObject({ upAndConnected: ['n1', 'n4'] });
    const shipped = await runSeed(n1);
    expect(shipped.ok, `${shipped.invariant} ${JSON.stringify(shipped.values)}`).toBe(true);
    expect(shipped.stats.replacementsDone).toBeGreaterThan(0);
  });

  // The Raft long run's seed 12922 (three nodes, 10,000 steps): n2 alone learned that the
  // promotion of learner n3 committed, and its disk took about a second per write, so it
  // never made its vote durable in time to win; n1 and n3, a majority of the new
  // configuration, held the entry without knowing it committed, counted the old {n1, n2}
  // and elected no one. A vote request now carries what its candidate knows committed.
  const promotion = longRunSeed(12922);

  it('seed 12922: without the commit hint on vote requests, a majority of the new configuration elects no one; with it, it does', async () => {
    const broken = await runSeed({ ...promotion, bug: 'no-request-commit-hint', generalOnly: true });
    expect(broken.ok).toBe(false);
    expect(broken.invariant).toBe('liveness');
    const shipped = await runSeed(promotion);
    expect(shipped.ok, `${shipped.invariant} ${JSON.stringify(shipped.values)}`).toBe(true);
  });

  // The Raft long run's seed 14038: n2's disk got room back at 9,870 ms and n2 noticed it at
  // its next retry, about 1.8 s later (a write refused for room is retried with backoff up
  // to ROOM_RETRY_MAX_MS); two split votes later the live-majority rule, which counted n2 up
  // from the moment room came back, failed at 2 s. A node counts as up once its retry can
  // have noticed the room.
  it('seed 14038: a node whose disk got room back counts as up once its backoff can have noticed it', async () => {
    const run = await runSeed(longRunSeed(14038));
    expect(run.ok, `${run.invariant} ${JSON.stringify(run.values)}`).toBe(true);
    expect(run.stats.diskFullWaits).toBeGreaterThan(0);
  });

  // The Raft long run's seed 15714: n4 applied its own removal (commit 149) and, removed, no
  // longer voted nor took the terms of n2's requests; n2 (commit 138) still counted n4 and
  // dropped n4's refusals, which carried the removal's commit, as stale (a lower term).
  it('seed 15714: a refusal at a lower term still teaches the candidate what committed', async () => {
    const run = await runSeed(longRunSeed(15714));
    expect(run.ok, `${run.invariant} ${JSON.stringify(run.values)}`).toBe(true);
  });
});
