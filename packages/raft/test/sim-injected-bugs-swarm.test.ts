// The persistence bugs of the driver, injected, must break a general property
// (GENERAL_INVARIANTS: Figure 3's five, Figure 2's rule that no acknowledged write is
// lost, linearizable reads and liveness after healing) in the random simulator at the
// suite's settings (sim-seeds.test.ts: seeds 1..1200, 4,000 steps), not only in the
// scenario tests aimed at them (sim-driver-persistence.test.ts).
// Each case names a seed of the suite's range that catches it; the run keeps going
// past the checks aimed at one mechanism (generalOnly). If the simulator changes and
// a seed no longer catches its bug, find another with
//   npm run sim -- --seeds 1200 --steps 4000 --bug NAME --general-only
import { describe, expect, it } from 'vitest';
import { GENERAL_INVARIANTS } from '../src/sim/checker.js';
import type { InjectedBug } from '../src/sim/injected-bugs.js';
import { hostileForSeed, nodesForSeed } from '../src/sim/run-options.js';
import { runSeed, type SimOptions } from '../src/sim/simulation.js';

const SUITE_SEEDS = 1200;
const STEPS = 4000;

async function caughtByGeneralInvariant(bug: InjectedBug, seed: number): Promise<string> {
  expect(seed).toBeLessThanOrEqual(SUITE_SEEDS);
  const options: SimOptions = {
    seed,
    steps: STEPS,
    nodes: nodesForSeed(seed),
    hostile: hostileForSeed(seed),
  };
  const withBug = await runSeed({ ...options, bug, generalOnly: true });
  expect(withBug.ok, `seed ${seed} with ${bug} kept every general invariant`).toBe(false);
  expect(GENERAL_INVARIANTS).toContain(withBug.invariant);
  // The same seed as shipped keeps every invariant, mechanism checks included: the bug broke it.
  const shipped = await runSeed(options);
  expect(shipped.ok, `${shipped.invariant} ${JSON.stringify(shipped.values)}`).toBe(true);
  return withBug.invariant as string;
}

describe('the random simulator catches the persistence bugs by general invariants within the suite seeds', () => {
  it('a leader counting its own unsynced entries towards a quorum loses a committed entry: leader completeness breaks (seed 16)', async () => {
    expect(await caughtByGeneralInvariant('leader-counts-unsynced', 16)).toBe('leader-completeness');
  }, 120_000);

  it('a volatile commit index (B1) lets a restarted node use an old configuration: leader completeness breaks (seed 977)', async () => {
    expect(await caughtByGeneralInvariant('forget-conf-commit', 977)).toBe('leader-completeness');
  }, 120_000);

  it('a volatile commit index (B1) leaves a cluster with no configuration to elect a leader in: liveness after healing breaks (seed 1004)', async () => {
    expect(await caughtByGeneralInvariant('forget-conf-commit', 1004)).toBe('liveness');
  }, 120_000);

  it('rewriting a durable, acknowledged prefix after a conflicting append (B2) loses it at a crash: no acknowledged write lost breaks (seed 25)', async () => {
    expect(await caughtByGeneralInvariant('rewrite-durable-prefix', 25)).toBe('acknowledged-entries-survive');
  }, 120_000);

  it('the hard state landing before the log it depends on (B3) applies entries that were never committed: state machine safety breaks (seed 101)', async () => {
    expect(await caughtByGeneralInvariant('hard-state-with-log', 101)).toBe('applied-prefix');
  }, 120_000);
});
