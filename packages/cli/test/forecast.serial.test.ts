// The due-load forecast end to end: GetDueForecast through the SDK and `fermata topics
// forecast` against a real node over gRPC, as messages are published, cancelled and
// rescheduled, with a schedule's occurrences counted apart.

import { InvalidArgumentError } from '@fermata/sdk';
import { describe, expect, test, vi } from 'vitest';
import { clusterForFile, lines } from './fixture.js';

vi.setConfig({ testTimeout: 120_000 });

const HOUR = 3_600_000;

const { client, cli } = clusterForFile(1);

describe('fermata topics forecast', () => {
  test('counts what falls due per bucket as messages change; schedules apart; JSON and chart agree', async () => {
    // A day ahead, on the hour: no lease and no schedule fire reaches it while the test runs.
    const t = Math.ceil((Date.now() + 24 * HOUR) / HOUR) * HOUR;
    const at = (ms: number) => ({ topic: 'fc', payload: 'x', deliverAt: t + ms });
    const published = await client().publishBatch([
      at(5_000),
      at(6_000),
      at(59 * 60_000),
      at(HOUR + 1),
      at(HOUR + 2),
      at(3 * HOUR),
      at(30 * HOUR),
    ]);
    await client().upsertSchedule('fc', 'hourly', { spec: 'every 1h', payload: 'tick' });
    const range = { from: t, to: t + 6 * HOUR, bucketMs: HOUR };

    const f = await client().dueForecast('fc', range);
    expect(f).toMatchObject({ pending: 7, inFlight: 0, complete: true, schedulesTruncated: false });
    expect(f.buckets.map((b) => b.startMs)).toEqual([0, 1, 2, 3, 4, 5].map((i) => t + i * HOUR));
    expect(f.buckets.map((b) => b.count)).toEqual([3, 2, 0, 1, 0, 0]);
    // Every hour on the hour, from t: one occurrence per bucket, not a message yet.
    expect(f.buckets.map((b) => b.scheduled)).toEqual([1, 1, 1, 1, 1, 1]);

    // A cancel and a reschedule move the counts at once.
    expect((await client().cancel('fc', published[0]!.id)).status).toBe('cancelled');
    await client().reschedule('fc', published[3]!.id, { deliverAt: t + 5 * HOUR + 7 });
    const g = await client().dueForecast('fc', range);
    expect(g.buckets.map((b) => b.count)).toEqual([2, 1, 0, 1, 0, 1]);
    expect(g.pending).toBe(6);

    // Minute buckets over the first hour: the first minute and the last.
    const m = await client().dueForecast('fc', { from: t, to: t + HOUR, bucketMs: 60_000 });
    expect(m.buckets).toHaveLength(60);
    expect(m.buckets[0]!.count).toBe(1);
    expect(m.buckets[59]!.count).toBe(1);
    expect(m.buckets.reduce((n, b) => n + b.count, 0)).toBe(2);

    // The same range as the CLI takes it: --from as epoch ms, --to as ISO 8601.
    const range6h = [
      'topics',
      'forecast',
      'fc',
      '--from',
      String(t),
      '--to',
      new Date(t + 6 * HOUR).toISOString(),
    ];
    const json = await cli([...range6h, '--bucket', '1h', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toEqual(
      g.buckets.map((b) => ({ startMs: b.startMs, endMs: b.endMs, count: b.count, scheduled: b.scheduled })),
    );

    const chart = await cli([...range6h, '--bucket', '1h']);
    expect(chart.code, chart.stderr).toBe(0);
    const rows = lines(chart.stdout);
    expect(rows[0]).toBe(
      'topic fc, group default: 6 pending (5 in the range, 1 before or after it), 0 in flight',
    );
    expect(rows[1]).toBe('░ 6 occurrences of schedules, not messages yet');
    expect(rows).toHaveLength(2 + 6);
    // The fullest bucket (2 messages + 1 occurrence) has the widest bar; an empty one only its occurrence.
    // 2 of its 3 are messages: two thirds of the 50 cells █ (the last cell in eighths), the rest ░.
    expect(rows[2]).toBe(
      `${new Date(t).toISOString()}  ${'█'.repeat(33)}▍${'░'.repeat(16)}      2  +1 scheduled`,
    );
    expect(rows[4]).toMatch(/^\S+ {2}░+ +0 {2}\+1 scheduled$/);
  });

  test('a bad bucket or range is refused with the field named; an unknown topic is not found', async () => {
    const now = Date.now();
    await expect(client().dueForecast('fc', { from: now, to: now + HOUR, bucketMs: 90_000 })).rejects.toThrow(
      InvalidArgumentError,
    );
    const bad = await cli(['topics', 'forecast', 'fc', '--bucket', '90s']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bucket_ms: 90000 is not a whole number of minutes/);
    const wide = await cli(['topics', 'forecast', 'fc', '--bucket', '1s', '--to', '+1d']);
    expect(wide.code).toBe(2);
    expect(wide.stderr).toMatch(/to_ms: the range is \d+ buckets of 1000 ms wide; at most 1440/);
    const missing = await cli(['topics', 'forecast', 'no.such.topic']);
    expect(missing.code).toBe(3);
  });
});
