/**
 * The Cluster page's charts read /metrics samples: a counter's rate is its
 * growth over the time between two samples, a restart reads as no growth,
 * and lateness quantiles come from the growth of the histogram's buckets.
 */
import { describe, expect, it } from 'vitest';
import { latenessQuantile, parseMetrics, rate } from '../src/metrics.js';

function sample(atMs: number, published: number, buckets: [string, number][]): string {
  return [
    '# HELP fermata_publishes_total Messages published (committed and applied), by topic.',
    '# TYPE fermata_publishes_total counter',
    `fermata_publishes_total{topic="a"} ${published / 2}`,
    `fermata_publishes_total{topic="b"} ${published / 2}`,
    '# TYPE fermata_delivery_lateness_ms histogram',
    ...buckets.map(([le, n]) => `fermata_delivery_lateness_ms_bucket{le="${le}"} ${n}`),
    `fermata_delivery_lateness_ms_count ${buckets.at(-1)?.[1] ?? 0}`,
    `fermata_pending_messages{topic="a",group="default"} 7`,
  ]
    .join('\n')
    .concat(`\n# at ${atMs}\n`);
}

describe('metrics samples', () => {
  it('sums a counter over its labels and rates its growth per second', () => {
    const a = parseMetrics(sample(0, 100, []), 0);
    const b = parseMetrics(sample(5000, 600, []), 5000);
    expect(a.counters.get('fermata_publishes_total')).toBe(100);
    expect(rate(a, b, 'fermata_publishes_total')).toBe(100);
    expect(a.counters.has('fermata_pending_messages')).toBe(false);
  });

  it('reads a counter set back by a restart as no growth, not a negative rate', () => {
    const a = parseMetrics(sample(0, 600, []), 0);
    const b = parseMetrics(sample(5000, 10, []), 5000);
    expect(rate(a, b, 'fermata_publishes_total')).toBe(0);
  });

  it('takes lateness quantiles from the deliveries made between two samples, within a bucket', () => {
    const a = parseMetrics(
      sample(0, 0, [
        ['5', 1000],
        ['10', 1000],
        ['100', 1000],
        ['+Inf', 1000],
      ]),
      0,
    );
    // Since a: 50 deliveries within 5 ms, 40 in (5, 10], 10 in (10, 100].
    const b = parseMetrics(
      sample(5000, 0, [
        ['5', 1050],
        ['10', 1090],
        ['100', 1100],
        ['+Inf', 1100],
      ]),
      5000,
    );
    expect(latenessQuantile(a, b, 0.5)).toBe(5);
    expect(latenessQuantile(a, b, 0.7)).toBe(7.5);
    expect(latenessQuantile(a, b, 0.99)).toBe(91);
  });

  it('has no lateness quantile when nothing was delivered between two samples', () => {
    const buckets: [string, number][] = [
      ['5', 3],
      ['+Inf', 3],
    ];
    expect(
      latenessQuantile(parseMetrics(sample(0, 0, buckets), 0), parseMetrics(sample(1, 0, buckets), 1), 0.5),
    ).toBeNull();
  });
});
