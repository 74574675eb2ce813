// The checker's rule that every acknowledged publish ends as answered (acked, cancelled,
// expired or dead-lettered), on hand-made histories.
import { describe, expect, it } from 'vitest';
import { check, type FinalState, History } from '../src/sim/index.js';

const END: FinalState = {
  stillPresent: new Map(),
  digests: new Map([['n1', 'd']]),
  applied: new Map([['n1', 9]]),
  maxAttempts: 3,
  endLeaderMs: 100_000,
  calmFromMs: 100_000,
  epochMs: 0,
  maxClockAheadMs: 0,
};

/** One acknowledged publish, delivered `attempts` times and never acked. */
function history(attempts: number): History {
  const h = new History();
  h.publishes.push({
    key: 'k1',
    invokedAtMs: 0,
    answeredAtMs: 5,
    answer: { id: 1n, dueAtMs: 5, deduplicated: false },
    ttlMs: 0,
    delayMs: 0,
  });
  for (let a = 1; a <= attempts; a++) {
    const atMs = 1_000 * a;
    h.deliveries.push({
      atMs,
      id: 1n,
      tag: `t${a}`,
      attempt: a,
      dueAtMs: atMs,
      sentLeaderMs: atMs,
      handoverLeaderMs: atMs,
      node: 'n1',
      consumer: 0,
    });
  }
  return h;
}

describe('acknowledged-publish-ends-as-answered', () => {
  it('a message gone without an ack is a violation unless its last attempt was seen or its dead letter is in the store', () => {
    expect(check(history(3), END)).toBeUndefined();
    // The lease of its last attempt never reached a consumer: the history saw 2 of 3.
    expect(check(history(2), END)?.rule).toBe('acknowledged-publish-ends-as-answered');
    expect(check(history(2), { ...END, deadLettered: new Map([[1n, 3]]) })).toBeUndefined();
    // A dead letter of fewer attempts than the bound is no end of this kind.
    expect(check(history(2), { ...END, deadLettered: new Map([[1n, 2]]) })?.rule).toBe(
      'acknowledged-publish-ends-as-answered',
    );
  });
});
