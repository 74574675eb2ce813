import { describe, expect, it } from 'vitest';
import { hostileForSeed, nodesForSeed } from '../src/sim/run-options.js';
import { runSeed } from '../src/sim/simulation.js';

const SEEDS = 1200;
const STEPS = 4000;

describe('deterministic cluster simulator (the shipped RaftNode on simulated disks, network and time)', () => {
  it(`${SEEDS} seeds (3 and 5 nodes, faults, crashes with torn writes, membership, snapshots) keep every invariant and end live`, async () => {
    const failures: string[] = [];
    let snapshots = 0;
    let confChanges = 0;
    let crashes = 0;
    let torn = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const r = await runSeed({
        seed,
        steps: STEPS,
        nodes: nodesForSeed(seed),
        hostile: hostileForSeed(seed),
      });
      if (!r.ok)
        failures.push(`seed=${seed} step=${r.step} invariant=${r.invariant} ${JSON.stringify(r.values)}`);
      snapshots += r.stats.snapshotsInstalled;
      confChanges += r.stats.confChanges;
      crashes += r.stats.crashes;
      torn += r.stats.tornWrites;
    }
    expect(failures).toEqual([]);
    // The workload really exercised the hard parts.
    expect(snapshots).toBeGreaterThan(200);
    expect(confChanges).toBeGreaterThan(1200);
    expect(crashes).toBeGreaterThan(4000);
    expect(torn).toBeGreaterThan(400);
  }, 600_000);
});
