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
  // The long run (10 000 steps per seed) found these three-node runs without a leader
  // after healing: a remaining voter that missed the commit of a removal still counted
  // the removed node, whose longer log refused its vote. A refused vote now carries the
  // refuser's commit index (see core-membership.test.ts). (Seed 6214 runs no membership
  // change under the current fault profiles, so it checks nothing here.)
  it.each([3812, 6614, 6792, 9870])(
    'seed %i: the voter that missed a removal commit learns it from a vote refusal and the cluster ends live',
    async (seed) => {
      const r = await runSeed({
        seed,
        steps: DEFAULT_STEPS,
        nodes: nodesForSeed(seed),
        hostile: hostileForSeed(seed),
      });
      expect(r.ok, `${r.invariant} ${JSON.stringify(r.values)}`).toBe(true);
      expect(r.stats.confChanges).toBeGreaterThan(0);
    },
  );
});
