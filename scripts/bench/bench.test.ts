// Keeps every benchmark scenario working: each runs at its --quick size and must
// print well-formed JSON lines. Figures are not judged here (see docs/benchmarks.md).
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '../..');

function runBench(scenario: string): Array<Record<string, unknown>> {
  const out = execFileSync(
    process.execPath,
    ['--conditions=fermata-source', '--import', 'tsx', 'scripts/bench/index.ts', scenario, '--quick'],
    { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 },
  );
  return out
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('benchmarks (--quick)', () => {
  it('storage prints one JSON line per engine with every figure', () => {
    const lines = runBench('storage');
    expect(lines.map((l) => l['engine'])).toEqual(['leveldb', 'memory']);
    for (const line of lines) {
      for (const field of [
        'batch_put_ops_per_s_sync_off',
        'batch_put_ops_per_s_sync_on',
        'range_scan_entries_per_s',
        'point_get_ops_per_s',
      ]) {
        expect(line[field], field).toBeGreaterThan(0);
      }
      expect(line['entries']).toBe(40_000);
    }
  });

  it('raft prints commits/s, latency and fsync figures for 1 and 256 proposers', () => {
    const lines = runBench('raft');
    expect(lines.map((l) => l['proposers'])).toEqual([1, 256]);
    for (const line of lines) {
      for (const field of [
        'commits_per_s',
        'commit_latency_p50_ms',
        'commit_latency_p99_ms',
        'fsyncs_per_s',
      ]) {
        expect(line[field], field).toBeGreaterThan(0);
      }
      expect(line['entry_bytes']).toBe(256);
      expect(line['entries_per_fsync']).toBeGreaterThanOrEqual(1);
    }
    // Group commit: with 256 proposers one fsync carries many entries.
    expect(lines[1]?.['entries_per_fsync']).toBeGreaterThan(4);
  });
});
