import { describe, expect, it } from 'vitest';
import { hostileForSeed, nodesForSeed } from '../src/sim/run-options.js';
import { runSeed } from '../src/sim/simulation.js';

const SEEDS = 300;
const STEPS = 4000;

describe('deterministic cluster simulator', () => {
  it(`${SEEDS} seeds (3 and 5 nodes, faults, crashes, membership, snapshots) keep every invariant and end live`, () => {
    const failures: string[] = [];
    let snapshots = 0;
    let confChanges = 0;
    let crashes = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const r = runSeed({ seed, steps: STEPS, nodes: nodesForSeed(seed), hostile: hostileForSeed(seed) });
      if (!r.ok)
        failures.push(`seed=${seed} step=${r.step} invariant=${r.invariant} ${JSON.stringify(r.values)}`);
      snapshots += r.stats.snapshotsInstalled;
      confChanges += r.stats.confChanges;
      crashes += r.stats.crashes;
    }
    expect(failures).toEqual([]);
    // The workload really exercised the hard parts.
    expect(snapshots).toBeGreaterThan(50);
    expect(confChanges).toBeGreaterThan(300);
    expect(crashes).toBeGreaterThan(1000);
  });
});
