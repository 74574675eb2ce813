import { describe, expect, it } from 'vitest';
import { encodeKey } from '../src/keys.js';
import { QueueRound } from '../src/leader/dispatcher/queue-round.js';
import { LEASE_ROUND_INTERVAL_MS, RoundCadence } from '../src/leader/dispatcher/round-cadence.js';

const Q = 0x51n;
/** A queue key of Q due at `dueMs` (no time buckets: the due field is the ms). */
const keyAt = (dueMs: number, id = 1n): Uint8Array => encodeKey(Q, BigInt(dueMs), id);
/** A read that stopped at an entry due at `resumeMs`, passing no running lease. */
const stoppedAt = (resumeMs: number) => ({
  nextDueMs: resumeMs,
  resumeTag: keyAt(resumeMs),
  passedLeaseEndMs: Number.POSITIVE_INFINITY,
});

/** A round whose one read stopped at an entry due at `resumeMs` (its cursor). */
function readTo(resumeMs: number): QueueRound {
  const round = new QueueRound();
  round.beginRead();
  round.afterRead(stoppedAt(resumeMs), 0, 100);
  round.endRead();
  return round;
}

describe('QueueRound: where the next read of a queue starts', () => {
  it('a read goes on from where the last one stopped, and answers the next due time', () => {
    const round = new QueueRound();
    round.beginRead();
    expect(round.readFrom(0, 1_000)).toBeUndefined();
    expect(round.afterRead(stoppedAt(5_000), 0, 100)).toBe(5_000);
    round.endRead();
    expect(round.readFrom(0, 1_000)).toEqual(keyAt(5_000));
  });

  it('an entry due at or before the cursor drops it; a later one keeps it', () => {
    const round = readTo(5_000);
    round.noteDue(6_000);
    expect(round.readFrom(0, 1_000)).toEqual(keyAt(5_000));
    round.noteDue(5_000);
    expect(round.readFrom(0, 1_000)).toBeUndefined();
  });

  it('an entry noted during a read at or before where it stopped leaves no cursor, and is due next', () => {
    const round = new QueueRound();
    round.beginRead();
    round.readFrom(0, 1_000);
    round.noteDue(3_000);
    expect(round.afterRead(stoppedAt(5_000), 0, 100)).toBe(3_000);
    round.endRead();
    expect(round.readFrom(0, 1_000)).toBeUndefined();
    // Noted outside a read: only the cursor rule applies, nothing is carried into the next read.
    round.beginRead();
    expect(round.afterRead(stoppedAt(5_000), 0, 100)).toBe(5_000);
  });

  it('a lease behind the cursor that runs out makes the queue due at its end plus the look-ahead, then read from its start', () => {
    const round = new QueueRound();
    round.beginRead();
    round.readFrom(0, 1_000);
    expect(round.afterRead({ ...stoppedAt(9_000), passedLeaseEndMs: 2_000 }, 0, 100)).toBe(2_100);
    round.endRead();
    expect(round.readFrom(0, 1_999)).toEqual(keyAt(9_000));
    expect(round.readFrom(0, 2_000)).toBeUndefined();
  });

  it('a change of time buckets drops the cursor', () => {
    const round = readTo(5_000);
    expect(round.readFrom(1_000, 1_000)).toBeUndefined();
  });

  it('entries handed back behind the cursor make the next read start over', () => {
    const round = readTo(5_000);
    round.rereadFrom(7_000);
    expect(round.readFrom(0, 1_000)).toBeUndefined();
  });
});

describe('QueueRound: rounds in flight', () => {
  it('reads one at a time and holds at most maxInFlight commands, whose tags reads skip', () => {
    const round = new QueueRound();
    expect(round.mayStart(2)).toBe(true);
    round.beginRead();
    expect(round.mayStart(2)).toBe(false);
    round.endRead();
    round.proposed(['a', 'b']);
    round.proposed(['c']);
    expect([...round.leasing]).toEqual(['a', 'b', 'c']);
    expect(round.mayStart(2)).toBe(false);
    round.answered(['a', 'b']);
    expect(round.mayStart(2)).toBe(true);
    expect([...round.leasing]).toEqual(['c']);
  });

  it('is idle once nothing is read, in flight, noted or known of the queue', () => {
    const round = new QueueRound();
    expect(round.idle).toBe(true);
    round.beginRead();
    round.proposed(['a']);
    expect(round.idle).toBe(false);
    // The queue was read to its end: nothing due, no cursor left.
    expect(
      round.afterRead({ nextDueMs: undefined, resumeTag: undefined, passedLeaseEndMs: Infinity }, 0, 100),
    ).toBe(Number.POSITIVE_INFINITY);
    round.endRead();
    expect(round.idle).toBe(false);
    round.answered(['a']);
    expect(round.idle).toBe(true);
  });
});

describe('RoundCadence: when lease rounds start', () => {
  /** A cadence over a monotonic clock the test sets. */
  function cadenceAt(start: number) {
    const clock = { ms: start, monotonicMs: () => clock.ms };
    return { clock, cadence: new RoundCadence(clock) };
  }

  it('waits LEASE_ROUND_INTERVAL_MS between rounds unless the next entry is urgent', () => {
    const { clock, cadence } = cadenceAt(0);
    expect(cadence.allowedAtMs(1_000, 5_000, 10)).toBe(1_000);
    expect(cadence.open()).toBe(true);
    cadence.started(true);
    // 10 ms later, next entry far off: when the interval ends.
    clock.ms = 10;
    expect(cadence.open()).toBe(false);
    expect(cadence.allowedAtMs(1_010, 5_000, 10)).toBe(1_000 + LEASE_ROUND_INTERVAL_MS);
    // Next entry within the interval (push-ahead shorter than it): at once.
    expect(cadence.allowedAtMs(1_010, 1_020, 10)).toBe(1_010);
    clock.ms = LEASE_ROUND_INTERVAL_MS;
    expect(cadence.allowedAtMs(1_030, 5_000, 10)).toBe(1_030);
  });

  it('is one cadence for every queue: a queue coming due after a round waits for the next, and an urgent round moves nothing', () => {
    const { clock, cadence } = cadenceAt(100);
    cadence.started(cadence.open()); // queue A's round, on the cadence
    clock.ms = 103;
    // Queue B, due in 5 s, came due 3 ms later: it joins the next round, not one of its own.
    expect(cadence.allowedAtMs(2_003, 7_000, 250)).toBe(2_000 + LEASE_ROUND_INTERVAL_MS);
    // An urgent queue's round meanwhile (off the cadence) does not push B further.
    clock.ms = 110;
    expect(cadence.allowedAtMs(2_010, 2_100, 250)).toBe(2_010);
    cadence.started(cadence.open());
    expect(cadence.allowedAtMs(2_010, 7_000, 250)).toBe(2_000 + LEASE_ROUND_INTERVAL_MS);
    cadence.reset();
    expect(cadence.allowedAtMs(2_010, 7_000, 250)).toBe(2_010);
  });
});
