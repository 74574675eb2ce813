// `fermata topics stats` prints a line per deletion still under way after the groups' table.

import { afterEach, describe, expect, test, vi } from 'vitest';
import { printStats } from '../src/commands/topics.js';

afterEach(() => {
  vi.restoreAllMocks();
});

function printed(stats: Parameters<typeof printStats>[0]): string {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  printStats(stats);
  vi.restoreAllMocks();
  return out;
}

describe('topics stats', () => {
  const settings = {
    maxDeliveriesPerSecond: 0,
    burst: 0,
    maxInFlight: 0,
    ordering: 'none' as const,
    paused: false,
  };
  const groups = [
    {
      group: 'default',
      pending: 2,
      inFlight: 0,
      deadLettered: 0,
      nextDueMs: undefined,
      settings,
      paused: false,
      throttled: 0,
    },
  ];

  test('no deletion: the table alone', () => {
    const out = printed({ topic: 't', groups, deletions: [] });
    expect(out).toMatch(/^GROUP\s+PENDING/);
    expect(out).not.toContain('deleting');
  });

  test('a deletion under way: what is removed of what, and since when', () => {
    const startedAtMs = Date.parse('2030-01-02T03:04:05.000Z');
    const out = printed({
      topic: 't',
      groups,
      deletions: [
        { group: '', startedAtMs, entriesAtStart: 1000, removedEntries: 250, removedRecords: 7 },
        { group: 'audit', startedAtMs, entriesAtStart: 10, removedEntries: 0, removedRecords: 0 },
      ],
    });
    expect(out).toContain(
      'deleting topic: 250 of 1000 queue entries removed, 7 other records, since 2030-01-02T03:04:05.000Z',
    );
    expect(out).toContain('deleting group audit: 0 of 10 queue entries removed');
  });
});
