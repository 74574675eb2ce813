/**
 * The broker simulation's command line (docs in README.md beside it):
 *   npm run sim -- --broker --seeds N [--first F] [--seed S] [--nodes 3|5] [--chaos-ms K]
 *                   [--faults crash,partition,loss,skew,transfer,membership[,hostile]] [--bug NAME]
 *                   [--ordering on|off] [--verbose]
 * Ends with `P passed, F failed`; exits 1 on any failure.
 */
import { parseArgs } from 'node:util';
import { INJECTED_BUGS, type InjectedBug } from './injected-bugs.js';
import {
  DEFAULT_CHAOS_MS,
  FAULT_KINDS,
  type FaultKind,
  faultsForBrokerSeed,
  nodesForBrokerSeed,
  orderingForBrokerSeed,
} from './run-options.js';
import { runBrokerSeed } from './simulation.js';

const { values } = parseArgs({
  options: {
    broker: { type: 'boolean', default: true },
    seeds: { type: 'string' },
    seed: { type: 'string' },
    first: { type: 'string' },
    'chaos-ms': { type: 'string' },
    nodes: { type: 'string' },
    bug: { type: 'string' },
    faults: { type: 'string' },
    ordering: { type: 'string' },
    verbose: { type: 'boolean', default: false },
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

const chaosMs = intArg('chaos-ms', values['chaos-ms'], DEFAULT_CHAOS_MS);
const nodesArg = values.nodes === undefined ? undefined : intArg('nodes', values.nodes, 3);
if (nodesArg !== undefined && nodesArg !== 3 && nodesArg !== 5) {
  console.error(`--nodes must be 3 or 5, got ${nodesArg}`);
  process.exit(2);
}
const bug = values.bug as InjectedBug | undefined;
if (bug !== undefined && !INJECTED_BUGS.includes(bug)) {
  console.error(`--bug must be one of ${INJECTED_BUGS.join(', ')}, got ${bug}`);
  process.exit(2);
}
const faults = values.faults?.split(',').filter((f) => f !== '') as FaultKind[] | undefined;
for (const f of faults ?? []) {
  if (f !== 'hostile' && !FAULT_KINDS.includes(f)) {
    console.error(
      `--faults takes a comma-separated list of ${[...FAULT_KINDS, 'hostile'].join(', ')}, got ${f}`,
    );
    process.exit(2);
  }
}
if (values.ordering !== undefined && values.ordering !== 'on' && values.ordering !== 'off') {
  console.error(`--ordering must be on or off, got ${values.ordering}`);
  process.exit(2);
}
const orderingArg = values.ordering === undefined ? undefined : values.ordering === 'on';
const first = intArg('first', values.first, 1);
const seeds =
  values.seed !== undefined
    ? [intArg('seed', values.seed, 1)]
    : Array.from({ length: intArg('seeds', values.seeds, 100) }, (_, i) => first + i);

const startedMs = Date.now();
let passed = 0;
let failed = 0;
for (const seed of seeds) {
  const nodes = (nodesArg ?? nodesForBrokerSeed(seed)) as 3 | 5;
  const ordering = orderingArg ?? orderingForBrokerSeed(seed);
  const r = await runBrokerSeed({
    seed,
    nodes,
    chaosMs,
    ...(bug ? { bug } : {}),
    faults: faults ?? faultsForBrokerSeed(seed),
    ordering,
  });
  if (r.ok) {
    passed++;
    if (values.verbose || seeds.length === 1) {
      console.log(`seed ${seed} ok nodes=${nodes} digest=${r.digest} ${JSON.stringify(r.stats)}`);
    }
    continue;
  }
  failed++;
  const v = r.violation!;
  console.log(
    `FAIL seed=${seed} nodes=${nodes} rule=${v.rule}${v.id !== undefined ? ` id=${v.id}` : ''}: ${v.message}`,
  );
  console.log(
    `  replay: npm run sim -- --broker --seed ${seed} --nodes ${nodes} --chaos-ms ${chaosMs}${bug ? ` --bug ${bug}` : ''} --faults ${(faults ?? faultsForBrokerSeed(seed)).join(',')} --ordering ${ordering ? 'on' : 'off'}`,
  );
  console.log(`  digest=${r.digest}`);
  for (const line of r.traceTail) console.log(`  | ${line}`);
}
console.error(`(${((Date.now() - startedMs) / 1000).toFixed(1)} s wall)`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
