// The checker's calm-deliveries-timely rule on hand-made histories: it begins once the
// backlog the faults left has drained, and holds what falls due after it to TIMELY_MS.
import { describe, expect, it } from 'vitest';
import { CALM_GRACE_MS, calmWindow, check, type FinalState, History, TIMELY_MS } from '../src/sim/index.js';

const CALM = 100_000;
const END: FinalState = {
  stillPresent: new Map(),
  digests: new Map([['n1', 'd']]),
  applied: new Map([['n1', 9]]),
  maxAttempts: 3,
  endLeaderMs: 200_000,
  calmFromMs: CALM,
  epochMs: 0,
  maxClockAheadMs: 0,
};

/** A message published at `publishedMs`, due at `dueMs`, delivered once at `deliveredMs` and acked. */
function deliver(h: History, id: bigint, publishedMs: number, dueMs: number, deliveredMs: number): void {
  h.publishes.push({
    key: `k${id}`,
    invokedAtMs: publishedMs - 1,
    answeredAtMs: publishedMs,
    answer: { id, dueAtMs: dueMs, deduplicated: false },
    ttlMs: 0,
    delayMs: dueMs - publishedMs,
  });
  const tag = `t${id}`;
  h.deliveries.push({
    atMs: deliveredMs,
    id,
    tag,
    attempt: 1,
    dueAtMs: dueMs,
    sentLeaderMs: deliveredMs,
    handoverLeaderMs: deliveredMs,
    node: 'n1',
    consumer: 0,
  });
  h.settles.push({
    kind: 'ack',
    id,
    tag,
    invokedAtMs: deliveredMs + 1,
    answeredAtMs: deliveredMs + 2,
    outcome: 'ok',
  });
}

/** 50 messages due before the healing, handed out one per 100 ms after it (the consumers' pace). */
function withBacklog(): History {
  const h = new History();
  for (let i = 1; i <= 50; i++) deliver(h, BigInt(i), 80_000, 90_000, CALM + i * 100);
  return h;
}

describe('calm-deliveries-timely', () => {
  it('a message due while the backlog drains waits behind it; one due after the drain is held to TIMELY_MS', () => {
    const h = withBacklog();
    // Due 3.5 s into the calm, reached at 5.1 s: behind the backlog, which drained at 5.0 s.
    deliver(h, 100n, 99_000, CALM + CALM_GRACE_MS + 500, CALM + 5_100);
    expect(calmWindow(h, END).drainedMs).toBe(CALM + 5_000);
    expect(calmWindow(h, END).checked).toEqual([]);
    expect(check(h, END)).toBeUndefined();

    // Due after the drain and reached on time: checked, no violation.
    deliver(h, 101n, 99_000, CALM + 6_000, CALM + 6_000 + TIMELY_MS);
    expect(calmWindow(h, END).checked.map((c) => c.id)).toEqual([101n]);
    expect(check(h, END)).toBeUndefined();

    // Due after the drain and held back past TIMELY_MS: the rule's violation.
    deliver(h, 102n, 99_000, CALM + 7_000, CALM + 7_000 + TIMELY_MS + 1);
    expect(check(h, END)).toMatchObject({ rule: 'calm-deliveries-timely', id: 102n });
  });

  it('with no backlog the rule begins CALM_GRACE_MS after the healing', () => {
    const h = new History();
    deliver(h, 1n, 99_000, CALM + CALM_GRACE_MS - 1, CALM + CALM_GRACE_MS + 2_000);
    deliver(h, 2n, 99_000, CALM + CALM_GRACE_MS, CALM + CALM_GRACE_MS + TIMELY_MS + 1);
    expect(calmWindow(h, END).drainedMs).toBe(CALM);
    expect(check(h, END)).toMatchObject({ rule: 'calm-deliveries-timely', id: 2n });
  });
});
