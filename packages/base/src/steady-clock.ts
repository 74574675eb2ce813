import { performance } from 'node:perf_hooks';
import { type Clock, systemTimers, type TimerHandle } from './clock.js';

/**
 * A node's time in production: the system's wall clock read once,
 * when the node starts, advanced by the monotonic clock (`performance.now()`,
 * CLOCK_MONOTONIC on Linux: NTP slews its rate with the wall clock's but
 * never steps it). A step of the system clock while the node runs (an NTP
 * step, a VM migration, an operator's `date -s`) therefore moves none of the
 * node's stamps, due times, leases, expiries or schedule instants: nothing
 * falls due early when it steps forward, nothing stands still when it steps
 * back. `systemOffsetMs()` says how far the system clock has moved away
 * (reported as fermata_clock_offset_ms); a restart takes the system clock
 * again (docs/guarantees.md, "Time and clocks").
 */
/** Longest the anchor waits for the wall clock's next millisecond (it turns within 1 ms). */
const ANCHOR_WAIT_MS = 2;
const ANCHOR_MAX_READS = 1_000_000;

export class SteadyClock implements Clock {
  private readonly wallAtStartMs: number;
  private readonly monoAtStartMs: number;

  constructor(
    private readonly wall: () => number = () => Date.now(),
    private readonly mono: () => number = () => performance.now(),
  ) {
    // Anchored where the wall clock's millisecond turns: Date.now() truncates, and an anchor taken
    // mid-millisecond would put every stamp of the node's life up to a millisecond behind the
    // system clock (a due time stamped before the client's own clock said it published). The
    // monotonic time kept is the one read *before* the last wall read that had not turned yet:
    // the turn came after it. (Read after the turn instead, a pause of the process between the
    // two reads, which a busy machine gives a node starting, would put the node behind the
    // system clock by that pause for its whole life.) Any error is ahead, never behind. At most
    // ANCHOR_WAIT_MS of monotonic time, and a bounded number of reads for clocks that stand still.
    let before = mono();
    const first = wall();
    let w = first;
    let m = before;
    const giveUpAt = before + ANCHOR_WAIT_MS;
    for (let reads = 0; w === first && m < giveUpAt && reads < ANCHOR_MAX_READS; reads++) {
      const now = mono();
      w = wall();
      if (w === first) before = now;
      m = now;
    }
    this.wallAtStartMs = w;
    this.monoAtStartMs = before;
  }

  nowMs(): number {
    return Math.floor(this.wallAtStartMs + (this.mono() - this.monoAtStartMs));
  }

  monotonicMs(): number {
    return this.mono();
  }

  setTimer(fn: () => void, delayMs: number): TimerHandle {
    return systemTimers.setTimer(fn, delayMs);
  }

  clearTimer(handle: TimerHandle): void {
    systemTimers.clearTimer(handle);
  }

  every(ms: number, fn: () => void): () => void {
    return systemTimers.every(ms, fn);
  }

  sleep(ms: number): Promise<void> {
    return systemTimers.sleep(ms);
  }

  /** The system clock minus this clock, ms: the sum of the steps the system clock took since the start. */
  systemOffsetMs(): number {
    return this.wall() - this.nowMs();
  }
}
