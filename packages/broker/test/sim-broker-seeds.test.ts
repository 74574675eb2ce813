import { describe, expect, it } from 'vitest';
import { faultsForBrokerSeed, nodesForBrokerSeed } from '../src/sim/run-options.js';
import { runBrokerSeed } from '../src/sim/simulation.js';

const SEEDS = 200;
/** Virtual ms of chaos per seed: sized so that the suite stays within a few minutes on two busy cores. */
const CHAOS_MS = 4_000;

describe('whole-cluster broker simulation', () => {
  it(`${SEEDS} seeds (3 and 5 nodes, crashes, torn writes, partitions, loss, skew) keep every rule of the checker`, async () => {
    const failures: string[] = [];
    const totals = {
      crashes: 0,
      partitions: 0,
      jumps: 0,
      transfers: 0,
      published: 0,
      deliveries: 0,
      settles: 0,
      deletionAnswered: 0,
      pauses: 0,
      deadlineDeadLetters: 0,
      keyed: 0,
      limited: 0,
    };
    let brokenSeen = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const r = await runBrokerSeed({
        seed,
        nodes: nodesForBrokerSeed(seed),
        chaosMs: CHAOS_MS,
        faults: faultsForBrokerSeed(seed),
      });
      if (!r.ok)
        failures.push(
          `seed=${seed} rule=${r.violation?.rule} id=${r.violation?.id}: ${r.violation?.message}`,
        );
      for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += r.stats[k] ?? 0;
      if ((r.stats['scheduleBrokenSeen'] ?? 0) > 0) brokenSeen++;
    }
    expect(failures).toEqual([]);
    // The runs really exercised the hard parts.
    expect(totals.crashes).toBeGreaterThan(SEEDS);
    expect(totals.partitions).toBeGreaterThan(SEEDS / 2);
    expect(totals.transfers).toBeGreaterThan(SEEDS / 4);
    expect(totals.deliveries).toBeGreaterThan(totals.published);
    // One seed in eight orders its topic by key: its messages carry ordering keys.
    expect(totals.keyed).toBeGreaterThan(SEEDS);
    // A large topic was deleted, and a schedule broken while the other fired, in most seeds.
    expect(totals.deletionAnswered).toBeGreaterThan(SEEDS * 0.9);
    // The topic was paused and resumed, and messages past their deadline were dead-lettered.
    expect(totals.pauses).toBeGreaterThan(SEEDS / 4);
    expect(totals.deadlineDeadLetters).toBeGreaterThan(SEEDS / 4);
    expect(brokenSeen).toBeGreaterThan(SEEDS / 2);
    // A group with rate or in-flight limits, checked by their rules, in about one seed in three.
    expect(totals.limited).toBeGreaterThan(SEEDS / 5);
  }, 900_000);
});
