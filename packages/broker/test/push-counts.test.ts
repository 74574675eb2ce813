// The push figures GetTopicStats answers: the pusher's metric events, counted per group as well.
import { describe, expect, it } from 'vitest';
import { PushCounts } from '../src/leader/push/push-counts.js';
import type { PushMetrics } from '../src/leader/push/push-metrics.js';

describe('a push group’s figures', () => {
  it('count what the metrics count, per group, and start again from zero when cleared', () => {
    const seen: string[] = [];
    const metrics: PushMetrics = {
      requests: { inc: (l) => seen.push(`requests ${l.group} ${l.class}`) },
      latencyMs: { observe: (l, v) => seen.push(`latency ${l.group} ${v}`) },
      retries: { inc: (l) => seen.push(`retries ${l.group}`) },
      deadLetters: { inc: (l) => seen.push(`dead letters ${l.group}`) },
      blocked: { set: (l, why) => seen.push(`blocked ${l.group} ${why}`) },
    };
    const counts = new PushCounts();
    const m = counts.tee(metrics);
    const a = { topic: 't', group: 'a' };
    m.requests.inc({ ...a, class: '2xx' });
    m.requests.inc({ ...a, class: '5xx' });
    m.requests.inc({ ...a, class: '5xx' });
    m.retries.inc(a);
    m.retries.inc(a);
    m.deadLetters.inc(a);
    m.latencyMs.observe(a, 12);
    m.requests.inc({ topic: 't', group: 'b', class: 'timeout' });
    m.blocked.set({ topic: 't', group: 'b' }, 'settings.push.secret_file: /s cannot be read: ENOENT');
    expect(counts.of('t', 'a')).toEqual({
      requests: { '2xx': 1, '5xx': 2 },
      retries: 2,
      deadLetters: 1,
      blocked: '',
    });
    expect(counts.of('t', 'b')).toEqual({
      requests: { timeout: 1 },
      retries: 0,
      deadLetters: 0,
      blocked: 'settings.push.secret_file: /s cannot be read: ENOENT',
    });
    expect(counts.of('t', 'c')).toBeUndefined();
    // The Prometheus metrics still see every event.
    expect(seen).toHaveLength(9);
    counts.clear();
    expect(counts.of('t', 'a')).toBeUndefined();
  });
});
