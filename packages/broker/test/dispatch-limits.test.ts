// The rules of the leader's rate and in-flight limits (leader/dispatcher/limits.ts), one test per
// rule, on times handed in: no clock, no store.
import { describe, expect, it } from 'vitest';
import { InFlightLedger } from '../src/leader/dispatcher/in-flight-ledger.js';
import { DeliveryLimits, RATE_LIMITED_LEASE_AHEAD_MS, roundTokens } from '../src/leader/dispatcher/limits.js';
import { TokenBucket } from '../src/leader/dispatcher/token-bucket.js';
import { rng } from './state-harness.js';

const T0 = 1_700_000_000_000;
const Q = 0x1234_5678_9abc_def0n;

/** A 20-byte run tag of queue `q` (its first 8 bytes name the queue), numbered `n`. */
function tagOf(n: number, q = Q): Uint8Array {
  const tag = new Uint8Array(20);
  const view = new DataView(tag.buffer);
  view.setBigUint64(0, q);
  view.setUint32(16, n);
  return tag;
}

/** The most tokens any closed window [a, a + W] holds, over-the-bound: max of (count - burst - rate * W / 1000). */
function worstExcess(times: readonly number[], ratePerSecond: number, burst: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  // count(i..j) = j - i + 1 <= burst + rate * (t_j - t_i) / 1000  <=>  g(j) - g(i) <= burst - 1
  let minG = Number.POSITIVE_INFINITY;
  let worst = Number.NEGATIVE_INFINITY;
  sorted.forEach((t, k) => {
    const g = k - ((t - T0) * ratePerSecond) / 1000;
    minG = Math.min(minG, g);
    worst = Math.max(worst, g - minG + 1 - burst);
  });
  return worst;
}

const limits = (maxDeliveriesPerSecond: number, burst: number, maxInFlight = 0) => ({
  maxDeliveriesPerSecond,
  burst,
  maxInFlight,
});

describe('token bucket', () => {
  it('a new bucket is empty: its first token comes one interval after it starts', () => {
    const b = new TokenBucket(100, 10, T0);
    expect(b.take(T0)).toBe(false);
    expect(b.take(T0 + 9)).toBe(false);
    expect(b.take(T0 + 10)).toBe(true);
    expect(b.take(T0 + 10)).toBe(false);
  });

  it('a bucket holds at most burst: after idling, burst deliveries start at once, then one per interval', () => {
    const b = new TokenBucket(100, 10, T0);
    const at = T0 + 60_000;
    let n = 0;
    while (b.take(at)) n++;
    expect(n).toBe(10);
    expect(b.take(at + 9)).toBe(false);
    expect(b.take(at + 10)).toBe(true);
  });

  it('in any window of W ms at most burst + rate x W/1000 tokens are taken, in whatever order the times come', () => {
    for (const [seed, rate, burst] of [
      [1, 100, 10],
      [2, 3, 1],
      [3, 2_000, 50],
      [4, 7, 4],
    ] as const) {
      const r = rng(seed);
      const b = new TokenBucket(rate, burst, T0);
      const taken: number[] = [];
      let now = T0;
      for (let i = 0; i < 5_000; i++) {
        now += r() * (2_000 / rate);
        // Most are overdue (taken at now); some are leased ahead, at a due time up to 25 ms later.
        const t = r() < 0.3 ? now + Math.floor(r() * 25) : now;
        if (b.take(t)) taken.push(t);
      }
      expect(taken.length).toBeGreaterThan(100);
      expect(worstExcess(taken, rate, burst)).toBeLessThanOrEqual(1e-6);
    }
  });

  it('a token taken for a later time is owed: none is given for an earlier time until it is paid', () => {
    const b = new TokenBucket(10, 1, T0 - 1_000); // full at T0
    expect(b.take(T0 + 500)).toBe(true); // leased ahead: starts at T0 + 500
    // At T0 the bucket held one token, but it went to the delivery at T0 + 500.
    expect(b.take(T0)).toBe(false);
    expect(b.take(T0 + 500)).toBe(false);
    expect(b.take(T0 + 600)).toBe(true);
  });

  it('a lowered burst does not let the old bucket`s tokens through: it keeps at most the new burst', () => {
    const b = new TokenBucket(100, 100, T0 - 10_000); // full: 100 tokens
    b.reshape(10, 5, T0);
    let n = 0;
    while (b.take(T0)) n++;
    expect(n).toBe(5);
    expect(b.take(T0 + 99)).toBe(false);
    expect(b.take(T0 + 100)).toBe(true);
  });

  it('a raised rate applies at once: the tokens held are kept and refill at the new rate', () => {
    const b = new TokenBucket(1, 2, T0);
    expect(b.take(T0 + 1_000)).toBe(true); // one token after 1 s, taken: empty at T0 + 1000
    b.reshape(100, 10, T0 + 1_000);
    expect(b.take(T0 + 1_009)).toBe(false);
    expect(b.take(T0 + 1_010)).toBe(true);
  });

  it('a round waits for 50 ms of tokens, at most half the burst, at least 1', () => {
    expect(roundTokens(limits(100, 10))).toBe(5);
    expect(roundTokens(limits(100, 100))).toBe(5);
    expect(roundTokens(limits(2_000, 2_000))).toBe(100);
    expect(roundTokens(limits(2_000, 10))).toBe(5);
    expect(roundTokens(limits(1, 1))).toBe(1);
    expect(roundTokens(limits(100, 1))).toBe(1);
  });
});

describe('in-flight ledger', () => {
  it('a lease counts until its end', () => {
    const l = new InFlightLedger();
    l.add('a', T0 + 100);
    l.add('b', T0 + 200);
    expect(l.running(T0 + 99)).toBe(2);
    expect(l.running(T0 + 100)).toBe(1);
    expect(l.nextEndMs()).toBe(T0 + 200);
    expect(l.running(T0 + 200)).toBe(0);
  });

  it('an extend being proposed keeps its lease counted past its old end, until it is answered', () => {
    const l = new InFlightLedger();
    l.add('a', T0 + 100);
    l.pin('a');
    expect(l.running(T0 + 500)).toBe(1);
    l.extended('a', 'a2', T0 + 1_000);
    l.unpin('a');
    expect(l.running(T0 + 999)).toBe(1);
    expect(l.running(T0 + 1_000)).toBe(0);
    // An extend that did not take: the lease ends when it did.
    l.add('b', T0 + 2_000);
    l.pin('b');
    l.unpin('b');
    expect(l.running(T0 + 2_000)).toBe(0);
  });

  it('a lease command whose outcome is unknown counts its leases until they must have ended', () => {
    const l = new InFlightLedger();
    l.addUnknown(3, T0 + 32_000);
    expect(l.running(T0 + 31_999)).toBe(3);
    expect(l.running(T0 + 32_000)).toBe(0);
  });
});

describe('delivery limits of a queue', () => {
  it('a queue without limits is not held back: infinite room, every entry admitted', () => {
    const d = new DeliveryLimits(2_000);
    d.begin(T0);
    expect(d.configure(Q, limits(0, 0, 0), T0)).toBe(false);
    expect(d.limited(Q)).toBe(false);
    expect(d.room(Q, T0, 0, T0)).toBe(Number.POSITIVE_INFINITY);
    expect(d.admit(Q, [{ dueAtMs: T0 }, { dueAtMs: T0 }], T0, 0)).toBe(2);
  });

  it('a new leader`s bucket starts empty, no earlier than the rate-limited look-ahead after it became leader', () => {
    const d = new DeliveryLimits(2_000);
    d.begin(T0);
    d.configure(Q, limits(100, 10), T0 + 10);
    // The previous leader may have taken tokens for starts up to T0 + RATE_LIMITED_LEASE_AHEAD_MS.
    expect(RATE_LIMITED_LEASE_AHEAD_MS).toBe(25);
    expect(d.room(Q, T0 + 25, 0, T0)).toBe(0);
    expect(d.admit(Q, [{ dueAtMs: T0 }], T0 + 34, 0)).toBe(0);
    expect(d.admit(Q, [{ dueAtMs: T0 }], T0 + 35, 0)).toBe(1);
    // Long after becoming leader, a bucket made then is empty from then.
    const later = T0 + 60_000;
    d.configure(Q + 1n, limits(100, 10), later);
    expect(d.admit(Q + 1n, [{ dueAtMs: T0 }], later + 10, 0)).toBe(1);
  });

  it('a rate-limited group is leased at most 25 ms ahead (a token taken ahead holds back all before it)', () => {
    const d = new DeliveryLimits(2_000);
    d.begin(T0 - 10_000);
    d.configure(Q, limits(100, 10), T0 - 10_000);
    d.configure(Q + 1n, limits(0, 0, 5), T0 - 10_000);
    expect(d.leaseAheadMs(Q, 2_000)).toBe(25);
    expect(d.leaseAheadMs(Q + 1n, 2_000)).toBe(2_000);
    // Due in 500 ms: no round yet, and nothing is held back.
    expect(d.room(Q, T0, 0, T0 + 500)).toBe(0);
    expect(d.room(Q, T0, 0, T0 + 25)).toBe(10);
    expect(d.admit(Q, [{ dueAtMs: T0 + 20 }, { dueAtMs: T0 + 500 }], T0, 0)).toBe(1);
  });

  it('room is 0 until the bucket holds a round`s worth of tokens, and readyAtMs says when it will', () => {
    const d = new DeliveryLimits(0);
    d.begin(T0);
    d.configure(Q, limits(100, 10), T0);
    expect(d.room(Q, T0 + 49, 0, T0)).toBe(0);
    expect(d.readyAtMs(Q, T0, 0)).toBe(T0 + 50);
    expect(d.room(Q, T0 + 50, 0, T0)).toBe(5);
    expect(d.room(Q, T0 + 10_000, 0, T0)).toBe(10);
  });

  it('at most max_in_flight run at once: running leases, those being proposed and the admitted together', () => {
    const d = new DeliveryLimits(0);
    d.begin(T0);
    expect(d.configure(Q, limits(0, 0, 5), T0)).toBe(true); // its count starts: seed it
    d.seed(Q, [{ tag: tagOf(1), leaseEndMs: T0 + 1_000 }]);
    d.leased(Q, tagOf(2), T0 + 1_000);
    // 2 running, 1 in a lease command not yet answered: room for 2.
    expect(d.room(Q, T0, 1, T0)).toBe(2);
    const due = Array.from({ length: 4 }, () => ({ dueAtMs: T0 }));
    expect(d.admit(Q, due, T0, 1)).toBe(2);
    expect(d.room(Q, T0, 3, T0)).toBe(0);
    // The first lease ends: a slot frees then, and readyAtMs names it.
    expect(d.readyAtMs(Q, T0, 3)).toBe(T0 + 1_000);
  });

  it('a lease counts against max_in_flight until its settle is applied', () => {
    const d = new DeliveryLimits(0);
    d.begin(T0);
    d.configure(Q, limits(0, 0, 1), T0);
    d.leased(Q, tagOf(1), T0 + 30_000);
    expect(d.room(Q, T0 + 1, 0, T0)).toBe(0);
    d.settled([tagOf(1)]);
    expect(d.room(Q, T0 + 1, 0, T0)).toBe(1);
    // A settle of another queue's tag changes nothing here.
    d.leased(Q, tagOf(2), T0 + 30_000);
    d.settled([tagOf(2, Q + 1n)]);
    expect(d.room(Q, T0 + 1, 0, T0)).toBe(0);
  });

  it('admit takes entries in due order and stops at the first that does not fit', () => {
    const d = new DeliveryLimits(0);
    d.begin(T0 - 10_000);
    d.configure(Q, limits(10, 3), T0 - 10_000); // full by T0: 3 tokens
    const entries = [T0 - 500, T0 - 400, T0 - 300, T0 - 250, T0 + 1_000].map((dueAtMs) => ({ dueAtMs }));
    // The 5th, due in a second, would fit at its due time, but it must not pass the 4th, overdue.
    expect(d.admit(Q, entries, T0, 0)).toBe(3);
    expect(d.admit(Q, [{ dueAtMs: T0 - 200 }, { dueAtMs: T0 + 1_000 }], T0, 0)).toBe(0);
  });

  it('an entry due when a limit held its queue back is throttled; one due after is not', () => {
    const d = new DeliveryLimits(0);
    d.begin(T0);
    d.configure(Q, limits(10, 1), T0);
    // Due at T0 + 50, held back at T0 + 60 (no token until T0 + 100).
    expect(d.room(Q, T0 + 60, 0, T0 + 50)).toBe(0);
    const held = { dueAtMs: T0 + 50 };
    expect(d.admit(Q, [held], T0 + 100, 0)).toBe(1);
    expect(d.throttledBy(held)).toBe('rate');
    // Due after the last hold, leased on time: not throttled.
    const onTime = { dueAtMs: T0 + 250 };
    expect(d.admit(Q, [onTime], T0 + 250, 0)).toBe(1);
    expect(d.throttledBy(onTime)).toBeUndefined();
    // A queue held back by its in-flight limit counts under it.
    d.configure(Q + 1n, limits(0, 0, 1), T0);
    d.leased(Q + 1n, tagOf(1, Q + 1n), T0 + 500);
    const waiting = { dueAtMs: T0 + 100 };
    expect(d.admit(Q + 1n, [waiting], T0 + 200, 0)).toBe(0);
    expect(d.admit(Q + 1n, [waiting], T0 + 500, 0)).toBe(1);
    expect(d.throttledBy(waiting)).toBe('in_flight');
    d.countThrottled(Q + 1n);
    expect(d.throttled(Q + 1n)).toBe(1);
  });

  it('an entry due while the bucket is empty is throttled, though no round came to be refused', () => {
    const d = new DeliveryLimits(0);
    d.begin(T0);
    d.configure(Q, limits(10, 1), T0); // a new leader's bucket: empty, its first token at T0 + 100
    const early = { dueAtMs: T0 + 50 };
    expect(d.admit(Q, [early], T0 + 100, 0)).toBe(1);
    expect(d.throttledBy(early)).toBe('rate');
    // Its token was the last: one due before the next (T0 + 200) waits for it too; one due after, not.
    const next = { dueAtMs: T0 + 150 };
    expect(d.admit(Q, [next], T0 + 200, 0)).toBe(1);
    expect(d.throttledBy(next)).toBe('rate');
    const onTime = { dueAtMs: T0 + 300 };
    expect(d.admit(Q, [onTime], T0 + 300, 0)).toBe(1);
    expect(d.throttledBy(onTime)).toBeUndefined();
  });

  it('a round cut short by a limit while more is due holds the queue back', () => {
    const d = new DeliveryLimits(0);
    d.begin(T0 - 10_000);
    d.configure(Q, limits(10, 2), T0 - 10_000); // full by T0: 2 tokens
    // The read took the 2 tokens' worth; the queue's next entry, due at T0, is left.
    expect(d.admit(Q, [{ dueAtMs: T0 - 50 }, { dueAtMs: T0 - 40 }], T0, 0, T0)).toBe(2);
    const next = { dueAtMs: T0 };
    expect(d.admit(Q, [next], T0 + 100, 0)).toBe(1);
    expect(d.throttledBy(next)).toBe('rate');
    // A read that took all that was due holds nothing back.
    const d2 = new DeliveryLimits(0);
    d2.begin(T0 - 10_000);
    d2.configure(Q, limits(10, 2), T0 - 10_000);
    expect(d2.admit(Q, [{ dueAtMs: T0 - 50 }, { dueAtMs: T0 - 40 }], T0, 0, T0 + 500)).toBe(2);
    const later = { dueAtMs: T0 + 500 };
    expect(d2.admit(Q, [later], T0 + 500, 0)).toBe(1);
    expect(d2.throttledBy(later)).toBeUndefined();
  });

  it('a group whose settings changed is not held back until its next round reads them', () => {
    const d = new DeliveryLimits(0);
    d.begin(T0);
    d.configure(Q, limits(0, 0, 1), T0);
    d.leased(Q, tagOf(1), T0 + 30_000);
    expect(d.room(Q, T0, 0, T0)).toBe(0);
    d.changed(Q);
    expect(d.room(Q, T0, 0, T0)).toBe(Number.POSITIVE_INFINITY);
    expect(d.readyAtMs(Q, T0, 0)).toBe(T0);
    // The round reads the raised limit: the running lease still counts.
    expect(d.configure(Q, limits(0, 0, 3), T0)).toBe(false);
    expect(d.room(Q, T0, 0, T0)).toBe(2);
  });

  it('leadership lost forgets every group, and the throttled figures (they are this leader`s)', () => {
    const d = new DeliveryLimits(0);
    d.begin(T0);
    d.configure(Q, limits(10, 1), T0);
    d.countThrottled(Q);
    d.clear();
    expect(d.limited(Q)).toBe(false);
    expect(d.throttled(Q)).toBe(0);
  });
});
