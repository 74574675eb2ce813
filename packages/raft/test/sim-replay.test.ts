import { describe, expect, it } from 'vitest';
import { DEFAULT_STEPS, hostileForSeed, nodesForSeed } from '../src/sim/run-options.js';
import { runSeed } from '../src/sim/simulation.js';

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

describe('simulator findings', () => {
  /** A seed as the long run plays it (`npm run sim -- --seed S`). */
  const replay = (seed: number) =>
    runSeed({ seed, steps: DEFAULT_STEPS, nodes: nodesForSeed(seed), hostile: hostileForSeed(seed) });

  // The long run (10 000 steps per seed) found these three-node runs without a leader
  // after healing: a remaining voter that missed the commit of a removal still counted
  // the removed node, whose longer log refused its vote. A refused vote now carries the
  // refuser's commit index (see core-membership.test.ts). (Seed 6214 runs no membership
  // change under the current fault profiles, so it checks nothing here.)
  it.each([3812, 6614, 6792, 9870])(
    'seed %i: the voter that missed a removal commit learns it from a vote refusal and the cluster ends live',
    async (seed) => {
      const r = await replay(seed);
      expect(r.ok, `${r.invariant} ${JSON.stringify(r.values)}`).toBe(true);
      expect(r.stats.confChanges).toBeGreaterThan(0);
    },
  );

  // The driver writes the hard state after the log append, so a crash between them keeps
  // entries of a term the saved term never reached; the restart took the saved term and
  // the node led that term again. Seed 2324: n2 restarted at term 0 over the whole
  // bootstrap (term 1) and won term 1, in which the bootstrap entries passed for entries of
  // its own term: it answered a ReadIndex at its commit index 5 though bootstrap entry 6
  // had committed. Seed 13050: n2, the only voter, led term 40; its no-op (164) landed, its
  // hard state did not; it restarted at term 39 and led term 40 again, writing another
  // entry of term 40 at index 165 than the first time. The liveness check, which proposes
  // again only on a leader of a later term, waited for good for entry 175 of the first
  // leadership, lost in the crash. A restart now takes at least its log's last term, with
  // no vote (core-persistence.test.ts).
  it.each([
    [2324, 'read-index-linearizable'],
    [13050, 'liveness'],
  ])('seed %i (%s): a node restarts at no term below its log’s last term', async (seed) => {
    const r = await replay(seed);
    expect(r.ok, `${r.invariant} ${JSON.stringify(r.values)}`).toBe(true);
  });
});
