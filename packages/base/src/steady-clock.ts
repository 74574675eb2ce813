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
/** Longest the anchor waits for a turn of the wall clock's millisecond it can time closely. */
const ANCHOR_WAIT_MS = 20;
const ANCHOR_MAX_READS = 1_000_000;
/**
 * How closely a turn must be timed to anchor on it: the monotonic time from
 * before the last wall read that had not turned to after the one that had.
 * A pause of the process between them (a node starting on a busy machine)
 * makes it longer: the anchor then waits for the next turn.
 */
const ANCHOR_TIGHT_MS = 0.05;

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
    // monotonic time kept is read just after the wall read that saw the turn, so the node is never
    // ahead of the system clock (nothing falls due early by it), and it is behind by at most the
    // time since the read before, which must be under ANCHOR_TIGHT_MS: a pause of the process
    // there would put the node behind by the pause for its whole life, so a turn timed that
    // loosely is passed over for the next. At most ANCHOR_WAIT_MS of monotonic time, and a bounded
    // number of reads for clocks that stand still; then the last reads, up to 1 ms behind.
    let before = mono();
    let w = wall();
    let after = mono();
    const giveUpAt = before + ANCHOR_WAIT_MS;
    for (let reads = 0; after < giveUpAt && reads < ANCHOR_MAX_READS; reads++) {
      const b = mono();
      const next = wall();
      const a = mono();
      const turned = next !== w;
      const tight = a - before <= ANCHOR_TIGHT_MS;
      w = next;
      after = a;
      if (turned && tight) break;
      before = b;
    }
    this.wallAtStartMs = w;
    this.monoAtStartMs = after;
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
