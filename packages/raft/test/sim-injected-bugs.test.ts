import { describe, expect, it } from 'vitest';
import type { InjectedBug } from '../src/sim/injected-bugs.js';
import { nodesForSeed } from '../src/sim/run-options.js';
import { runSeed, type SimOptions, type SimResult } from '../src/sim/simulation.js';

const MAX_SEEDS = 300;
const STEPS = 4000;

/** Runs seeds 1.. until the simulator reports a failure; returns it and the options that produced it. */
async function firstFailure(
  bug: InjectedBug,
  config: Partial<SimOptions>,
): Promise<{ result: SimResult; options: SimOptions }> {
  for (let seed = 1; seed <= MAX_SEEDS; seed++) {
    const options: SimOptions = { seed, steps: STEPS, nodes: nodesForSeed(seed), bug, ...config };
    const result = await runSeed(options);
    if (!result.ok) return { result, options };
  }
  throw new Error(`bug ${bug} not caught in ${MAX_SEEDS} seeds`);
}

/** The same run without the bug keeps every invariant: the bug, not the schedule, broke it. */
async function expectCleanWithoutBug(options: SimOptions): Promise<void> {
  const { bug: _bug, ...clean } = options;
  const r = await runSeed(clean);
  expect(r.ok, `${r.invariant} ${JSON.stringify(r.values)}`).toBe(true);
}

describe('the simulator (shipped driver) catches injected bugs by general invariants', () => {
  it('counting replicas to commit an entry of a previous term (§5.4.2, Figure 8) breaks leader completeness', async () => {
    // Seed 82144 of a catch-rate run (`npm run sim -- --seeds 1000 --first 82001 --steps 4000
    // --bug commit-previous-term --general-only`: a hostile seed).
    const options: SimOptions = {
      seed: 82144,
      steps: STEPS,
      nodes: 3,
      hostile: true,
      bug: 'commit-previous-term',
    };
    const result = await runSeed(options);
    expect(result.invariant).toBe('leader-completeness');
    expect(result.values).toMatchObject({ index: expect.any(Number), committed: expect.any(String) });
    await expectCleanWithoutBug(options);
  }, 300_000);

  it('answering a vote before it is durable lets a crash erase it: at most one vote per term breaks', async () => {
    const { result, options } = await firstFailure('vote-before-persist', {});
    expect(result.invariant).toBe('one-vote-per-term');
    await expectCleanWithoutBug(options);
  }, 300_000);

  it('truncating the log on a stale append (no conflict) is refused by the driver: it never rewrites an entry it holds with the same term', async () => {
    const { result, options } = await firstFailure('truncate-stale-append', {});
    expect(result.invariant).toBe('core:the log is rewritten only from the first index whose term differs');
    expect(result.values).toMatchObject({
      firstHandedOut: expect.any(String),
      lastIndex: expect.any(Number),
    });
    await expectCleanWithoutBug(options);
  }, 300_000);
});
