import { describe, expect, it } from 'vitest';
import { hostileForSeed, nodesForSeed } from '../src/sim/run-options.js';
import { runSeed } from '../src/sim/simulation.js';

const SEEDS = 850;
const STEPS = 4000;

describe('deterministic cluster simulator (the shipped RaftNode and LogStore on a simulated file system, network and time)', () => {
  it(`${SEEDS} seeds (3 and 5 nodes, faults, crashes with torn writes, failing syncs, membership, replacements, snapshots) keep every invariant and stay live`, async () => {
    const failures: string[] = [];
    const total = {
      snapshots: 0,
      confChanges: 0,
      crashes: 0,
      torn: 0,
      failStops: 0,
      diskFullWaits: 0,
      replacementsDone: 0,
      live: 0,
    };
    for (let seed = 1; seed <= SEEDS; seed++) {
      const r = await runSeed({
        seed,
        steps: STEPS,
        nodes: nodesForSeed(seed),
        hostile: hostileForSeed(seed),
      });
      if (!r.ok)
        failures.push(`seed=${seed} step=${r.step} invariant=${r.invariant} ${JSON.stringify(r.values)}`);
      total.snapshots += r.stats.snapshotsInstalled;
      total.confChanges += r.stats.confChanges;
      total.crashes += r.stats.crashes;
      total.torn += r.stats.tornWrites;
      total.failStops += r.stats.failStops;
      total.diskFullWaits += r.stats.diskFullWaits;
      total.replacementsDone += r.stats.replacementsDone;
      total.live += r.stats.liveMajorities;
    }
    expect(failures).toEqual([]);
    // The workload really exercised the hard parts.
    expect(total.snapshots).toBeGreaterThan(250);
    expect(total.confChanges).toBeGreaterThan(1_500);
    // Depositions and the episodes (episodes.ts) hold other faults off while they run.
    expect(total.crashes).toBeGreaterThan(16_000);
    expect(total.torn).toBeGreaterThan(3_000);
    // Failed syncs stop nodes; full disks make them wait for room (they used to stop them too).
    expect(total.failStops).toBeGreaterThan(1_000);
    expect(total.diskFullWaits).toBeGreaterThan(100);
    expect(total.replacementsDone).toBeGreaterThan(60);
    // A majority stayed up and connected for the whole live-majority bound this often.
    expect(total.live).toBeGreaterThan(120);
  }, 600_000);
});
