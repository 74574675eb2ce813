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

const rules: IForbiddenRuleType[] = [
  { name: 'no-cycle', severity: 'error', from: {}, to: { circular: true } },
  {
    name: 'base-imports-nothing-of-the-project',
    severity: 'error',
    from: { path: '^packages/base/src/' },
    to: { path: '^(packages/(?!base/)|@fermata/|test-cluster/|scripts/)' },
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
    const violations = summary.violations.map(
      (v) =>
        `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(' -> ')})` : ''}`,
    );
    expect(violations).toEqual([]);
  }, 120_000);
});
