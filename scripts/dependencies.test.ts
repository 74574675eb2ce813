// The module graph of packages/*/src: no import cycle, and no layer importing
// one above it (base below everything; broker: keys < state < leader <
// server; the SDK and the lower packages never import server code). dependency-cruiser resolves the
// TypeScript sources as tsc does (`./x.js` is `./x.ts`).
import { cruise, type IForbiddenRuleType } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const SOURCES = ['base', 'protocol', 'storage', 'raft', 'broker', 'sdk', 'cli'].map(
  (p) => `packages/${p}/src`,
);
const BROKER = 'packages/broker/src';
const RAFT = 'packages/raft/src';
const STATE = `${BROKER}/state`;

/**
 * The parts of broker/src/state from the bottom up; each imports only its
 * own folder and the parts before it (state-machine.ts and index.ts, on top,
 * may import any).
 */
const STATE_PARTS = ['model', 'codec', 'schedule', 'commands', 'stores', 'apply'] as const;
/** Beside each other above the stores: neither imports apply or the other. */
const STATE_VIEWS = ['read', 'snapshot'] as const;

function stateRules(): IForbiddenRuleType[] {
  const below = (i: number) => STATE_PARTS.slice(0, i + 1);
  const part = (name: string, allowed: readonly string[]): IForbiddenRuleType => ({
    name: `broker-state-${name}-imports-only-${allowed.join('-')}`,
    severity: 'error',
    from: { path: `^${STATE}/${name}/` },
    to: { path: `^${STATE}/(?!(${allowed.join('|')})/)` },
  });
  return [
    ...STATE_PARTS.map((name, i) => part(name, below(i))),
    ...STATE_VIEWS.map((name) => part(name, [...below(STATE_PARTS.indexOf('stores')), name])),
  ];
}

const rules: IForbiddenRuleType[] = [
  { name: 'no-cycle', severity: 'error', from: {}, to: { circular: true } },
  {
    name: 'base-imports-nothing-of-the-project',
    severity: 'error',
    from: { path: '^packages/base/src/' },
    to: { path: '^(packages/(?!base/)|@fermata/|test-cluster/|scripts/)' },
  },
  // Raft: core < log, transport < node; the simulator (sim) on top, for tests.
  {
    // The pure algorithm: its own folder, the package's plain data types and @fermata/base.
    name: 'raft-core-imports-only-core-and-base',
    severity: 'error',
    from: { path: `^${RAFT}/core/` },
    to: { pathNot: `^(${RAFT}/(core/|types\\.ts$)|@fermata/base$)` },
  },
  {
    name: 'raft-log-and-transport-below-node',
    severity: 'error',
    from: { path: `^${RAFT}/(log|transport)/` },
    to: { path: `^${RAFT}/(node|sim)/` },
  },
  {
    // Tests, scripts and the broker's simulator use it; no shipped code does.
    name: 'raft-sim-is-for-tests',
    severity: 'error',
    from: { pathNot: `^${RAFT}/sim/` },
    to: { path: `^${RAFT}/sim/` },
  },
  {
    name: 'raft-sim-ports-only-for-the-broker-simulator',
    severity: 'error',
    from: { pathNot: `^${BROKER}/sim/` },
    to: { path: '^@fermata/raft/sim-ports$' },
  },
  ...stateRules(),
  {
    // The stores are the only code that knows the records' keys and encodings: every other
    // part (apply, the reader, snapshots, the state machine, backups, the server) goes
    // through their functions.
    name: 'broker-state-layout-and-codecs-only-in-stores',
    severity: 'error',
    from: { pathNot: `^${STATE}/(stores|codec)/` },
    to: { path: `^${STATE}/(model/layout\\.ts$|codec/)` },
  },
  {
    name: 'broker-keys-is-the-bottom',
    severity: 'error',
    from: { path: `^${BROKER}/keys\\.ts$` },
    to: { path: `^${BROKER}/(state|leader|server)/` },
  },
  {
    name: 'broker-state-below-leader-and-server',
    severity: 'error',
    from: { path: `^${BROKER}/state/` },
    to: { path: `^${BROKER}/(leader|server)/` },
  },
  {
    name: 'broker-leader-below-server',
    severity: 'error',
    from: { path: `^${BROKER}/leader/` },
    to: { path: `^${BROKER}/server/` },
  },
  {
    name: 'leader-layer-has-no-grpc',
    severity: 'error',
    from: { path: `^${BROKER}/(leader|state)/` },
    to: { path: '@grpc/grpc-js' },
  },
  {
    name: 'sdk-never-imports-server-code',
    severity: 'error',
    from: { path: '^packages/sdk/src/' },
    to: { path: '^(packages/(broker|raft|storage|cli)/|@fermata/(broker|raft|storage|cli)$)' },
  },
  {
    name: 'lower-packages-never-import-upper-ones',
    severity: 'error',
    from: { path: '^packages/(protocol|storage|raft)/src/' },
    to: { path: '^(packages/(broker|sdk|cli)/|@fermata/(broker|sdk|cli)$)' },
  },
];

describe('the module graph of packages/*/src', () => {
  it('has no import cycle and no layer imports one above it', async () => {
    const result = await cruise(
      SOURCES,
      {
        validate: true,
        ruleSet: { forbidden: rules },
        tsPreCompilationDeps: true,
        doNotFollow: { path: 'node_modules' },
        exclude: { path: '/generated/' },
      },
      {},
      { tsConfig: { fileName: 'tsconfig.json' } },
    );
    if (typeof result.output === 'string') throw new Error('dependency-cruiser returned text, not a graph');
    const { summary, modules } = result.output;
    // The scan saw the sources (a wrong path would pass vacuously).
    expect(modules.filter((m) => m.source.startsWith(`${BROKER}/leader/`)).length).toBeGreaterThan(4);
    expect(modules.filter((m) => m.source.startsWith(`${RAFT}/core/`)).length).toBeGreaterThan(4);
    for (const part of [...STATE_PARTS, ...STATE_VIEWS]) {
      expect(modules.some((m) => m.source.startsWith(`${STATE}/${part}/`))).toBe(true);
    }
    expect(modules.filter((m) => m.source.startsWith('packages/base/src/')).length).toBeGreaterThan(2);
    const violations = summary.violations.map(
      (v) =>
        `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(' -> ')})` : ''}`,
    );
    expect(violations).toEqual([]);
  }, 120_000);
});
