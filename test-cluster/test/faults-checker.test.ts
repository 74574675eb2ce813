/**
 * The total-queue checker the container fault tests rely on: it must flag
 * exactly the broken promises (lost, unexpected, early) and only count the
 * allowed ones (duplicates, indeterminate publishes).
 */
import { describe, expect, it } from 'vitest';
import { checkQueueHistory, summarizeLeaders } from '../src/containers/checker.js';
import { History } from '../src/containers/history.js';

function publish(h: History, value: string, delayMs: number, atMs: number, outcome: 'ok' | 'fail' | 'info') {
  const op = h.invokePublish(value, delayMs, atMs);
  op.outcome = outcome;
  op.completedAtMs = atMs + 5;
  if (outcome === 'ok') {
    op.id = `id-${value}`;
    op.dueAtMs = atMs + 2 + delayMs;
  }
  return op;
}
const deliver = (h: History, value: string, receivedAtMs: number, id = `id-${value}`, dueAtMs = 0) =>
  h.deliver({ value, id, dueAtMs, attempt: 1, consumer: 0, receivedAtMs });

describe('total-queue checker', () => {
  it('a history where every acknowledged publish was delivered on time is valid', () => {
    const h = new History();
    publish(h, 'a', 1000, 0, 'ok');
    publish(h, 'b', 0, 10, 'ok');
    deliver(h, 'b', 20, 'id-b', 12);
    deliver(h, 'a', 1010, 'id-a', 1002);
    const r = checkQueueHistory(h.ops);
    expect(r).toMatchObject({ valid: true, attempted: 2, acknowledged: 2, delivered: 2, lost: 0 });
  });

  it('an acknowledged publish never delivered is lost', () => {
    const h = new History();
    publish(h, 'a', 0, 0, 'ok');
    publish(h, 'b', 0, 0, 'ok');
    deliver(h, 'b', 10, 'id-b', 2);
    const r = checkQueueHistory(h.ops);
    expect(r.valid).toBe(false);
    expect(r.examples.lost).toEqual(['a']);
  });

  it('a delivery of a value never published, or of a publish that certainly failed, is unexpected', () => {
    const h = new History();
    publish(h, 'failed', 0, 0, 'fail');
    deliver(h, 'failed', 10);
    deliver(h, 'ghost', 10);
    const r = checkQueueHistory(h.ops);
    expect(r.valid).toBe(false);
    expect([...r.examples.unexpected].sort()).toEqual(['failed', 'ghost']);
  });

  it('a delivery received before invocation + delay is early, and so is a due time stamped before the publish', () => {
    const h = new History();
    publish(h, 'a', 1000, 0, 'ok');
    deliver(h, 'a', 900, 'id-a', 1002);
    publish(h, 'b', 1000, 0, 'ok');
    deliver(h, 'b', 1500, 'id-b', 500);
    const r = checkQueueHistory(h.ops);
    expect(r.valid).toBe(false);
    expect(r.examples.early).toEqual([
      { value: 'a', byMs: 100, reason: 'received-before-due' },
      { value: 'b', byMs: 500, reason: 'due-stamped-before-publish' },
    ]);
  });

  it('redeliveries are counted as duplicates, a value under two ids as stored twice, neither fails', () => {
    const h = new History();
    publish(h, 'a', 0, 0, 'ok');
    deliver(h, 'a', 10, 'id-a', 2);
    deliver(h, 'a', 3010, 'id-a', 2);
    deliver(h, 'a', 3020, 'id-a2', 2);
    const r = checkQueueHistory(h.ops);
    expect(r).toMatchObject({ valid: true, duplicates: 2, storedTwice: 1, deliveries: 3, delivered: 1 });
  });

  it('an indeterminate publish may or may not be delivered', () => {
    const h = new History();
    publish(h, 'maybe-stored', 0, 0, 'info');
    publish(h, 'maybe-not', 0, 0, 'info');
    deliver(h, 'maybe-stored', 10);
    const r = checkQueueHistory(h.ops);
    expect(r).toMatchObject({ valid: true, indeterminate: 2, recovered: 1, lost: 0 });
  });
});

describe('leader availability summary', () => {
  it('the longest gap runs from the first leaderless sample to the next sample with a leader', () => {
    const s = summarizeLeaders([
      { atMs: 0, leaders: ['n1'] },
      { atMs: 100, leaders: [] },
      { atMs: 200, leaders: [] },
      { atMs: 900, leaders: ['n2'] },
      { atMs: 1000, leaders: [] },
      { atMs: 1100, leaders: ['n2'] },
      { atMs: 1200, leaders: ['n2', 'n3'] },
    ]);
    expect(s).toEqual({ maxNoLeaderMs: 800, leaderChanges: 1, multiLeaderSamples: 1 });
  });

  it('a run that ends without a leader counts the gap up to the last sample', () => {
    expect(
      summarizeLeaders([
        { atMs: 0, leaders: ['n1'] },
        { atMs: 100, leaders: [] },
        { atMs: 5100, leaders: [] },
      ]).maxNoLeaderMs,
    ).toBe(5000);
  });
});
