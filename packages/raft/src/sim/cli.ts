/**
 * The deterministic cluster simulator.
 *   npm run sim -- --seeds N [--first F] [--seed S] [--steps K] [--nodes 3|5] [--bug NAME] [--general-only] [--hostile] [--verbose]
 * Runs seeds F..F+N-1 (F defaults to 1; or only S), so a long run can be split over processes. Nodes alternate 3/5 by seed unless --nodes is given; every
 * fourth seed runs the hostile schedule (all seeds with --hostile).
 * Prints every failure (seed, step, invariant, values, trace tail) and ends with
 * `N passed, M failed`; exits 1 on any failure.
 */
import { parseArgs } from 'node:util';
import type { InjectedBug } from './injected-bugs.js';
import { DEFAULT_STEPS, hostileForSeed, nodesForSeed } from './run-options.js';
import { runSeed } from './simulation.js';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string' },
    seed: { type: 'string' },
    first: { type: 'string' },
    steps: { type: 'string' },
    nodes: { type: 'string' },
    bug: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    hostile: { type: 'boolean', default: false },
    'general-only': { type: 'boolean', default: false },
  },
  strict: true,
});

function intArg(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) {
    console.error(`--${name} must be a non-negative integer, got ${raw}`);
    process.exit(2);
  }
  return n;
}

const steps = intArg('steps', values.steps, DEFAULT_STEPS);
const nodesArg = values.nodes === undefined ? undefined : intArg('nodes', values.nodes, 3);
if (nodesArg !== undefined && nodesArg !== 3 && nodesArg !== 5) {
  console.error(`--nodes must be 3 or 5, got ${nodesArg}`);
  process.exit(2);
}
const seeds =
  values.seed !== undefined
    ? [intArg('seed', values.seed, 1)]
    : Array.from(
        { length: intArg('seeds', values.seeds, 100) },
        (_, i) => intArg('first', values.first, 1) + i,
      );
const bug = values.bug as InjectedBug | undefined;

const startedMs = Date.now();
let passed = 0;
let failed = 0;
for (const seed of seeds) {
  const nodes = (nodesArg ?? nodesForSeed(seed)) as 3 | 5;
  const hostile = values.hostile || hostileForSeed(seed);
  const generalOnly = values['general-only'];
  const result = await runSeed({ seed, steps, nodes, hostile, generalOnly, ...(bug ? { bug } : {}) });
  if (result.ok) {
    passed++;
    if (values.verbose || seeds.length === 1) {
      console.log(
        `seed ${seed} ok nodes=${nodes} steps=${result.step} digest=${result.digest} ${JSON.stringify(result.stats)}`,
      );
    }
    continue;
  }
  failed++;
  console.log(
    `FAIL seed=${seed} nodes=${nodes} step=${result.step} invariant=${result.invariant} values=${JSON.stringify(result.values)}`,
  );
  console.log(
    `  replay: npm run sim -- --seed ${seed} --steps ${steps} --nodes ${nodes}${bug ? ` --bug ${bug}` : ''}${generalOnly ? ' --general-only' : ''}`,
  );
  console.log(`  digest=${result.digest}`);
  for (const line of result.traceTail) console.log(`  | ${line}`);
}
console.error(`(${((Date.now() - startedMs) / 1000).toFixed(1)} s wall)`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
