import { describe, expect, it } from 'vitest';
import type { InjectedBug } from '../src/sim/injected-bugs.js';
import { nodesForSeed } from '../src/sim/run-options.js';
import { runSeed, type SimOptions, type SimResult } from '../src/sim/simulation.js';

const MAX_SEEDS = 300;
const STEPS = 3000;

/** Runs seeds 1.. until the simulator reports a failure; returns it and the options that produced it. */
function firstFailure(
  bug: InjectedBug,
  config: Partial<SimOptions>,
): { result: SimResult; options: SimOptions } {
  for (let seed = 1; seed <= MAX_SEEDS; seed++) {
    const options: SimOptions = { seed, steps: STEPS, nodes: nodesForSeed(seed), bug, ...config };
    const result = runSeed(options);
    if (!result.ok) return { result, options };
  }
  throw new Error(`bug ${bug} not caught in ${MAX_SEEDS} seeds`);
}

/** The same run without the bug keeps every invariant: the bug, not the schedule, broke it. */
function expectCleanWithoutBug(options: SimOptions): void {
  const { bug: _bug, ...clean } = options;
  const r = runSeed(clean);
  expect(r.ok, `${r.invariant} ${JSON.stringify(r.values)}`).toBe(true);
}

describe('the simulator catches injected bugs', () => {
  it('counting replicas to commit an entry of a previous term (§5.4.2, Figure 8) breaks leader completeness', () => {
    const { result, options } = firstFailure('commit-previous-term', { nodes: 3, hostile: true });
    expect(result.invariant).toBe('leader-completeness');
    expect(result.values).toMatchObject({ index: expect.any(Number), committed: expect.any(String) });
    expectCleanWithoutBug(options);
  });

  it('answering a vote before it is durable lets a crash erase it: at most one vote per term breaks', () => {
    const { result, options } = firstFailure('vote-before-persist', {});
    expect(result.invariant).toBe('one-vote-per-term');
    expectCleanWithoutBug(options);
  });

  it('truncating the log on a stale append (no conflict) is reported as truncation without conflict', () => {
    const { result, options } = firstFailure('truncate-stale-append', {});
    expect(result.invariant).toBe('follower-truncates-only-on-conflict');
    expect(result.values).toMatchObject({ writingTo: expect.any(Number), droppedUpTo: expect.any(Number) });
    expectCleanWithoutBug(options);
  });
});
