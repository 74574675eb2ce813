import { invariant } from '@fermata/raft';
/**
 * A Clock that moves only when told: `advance(ms)` runs every timer that falls
 * due on the way, in time order (ties in the order they were set), with
 * `nowMs()` at each timer's moment. For driving the leader layer on virtual
 * time; wall and monotonic time move together.
 */
import type { Clock, TimerHandle } from './clock.js';

interface Timer {
  readonly atMs: number;
  readonly seq: number;
  readonly fn: () => void;
}

export class ManualClock implements Clock {
  private current: number;
  private seq = 0;
  private readonly timers = new Set<Timer>();

  constructor(startMs = 0) {
    this.current = startMs;
  }

  nowMs(): number {
    return this.current;
  }

  monotonicMs(): number {
    return this.current;
  }

  setTimer(fn: () => void, delayMs: number): TimerHandle {
    invariant(delayMs >= 0, () => `timer delay ${delayMs} ms is not a non-negative number`);
    const timer: Timer = { atMs: this.current + delayMs, seq: this.seq++, fn };
    this.timers.add(timer);
    return timer;
  }

  clearTimer(handle: TimerHandle): void {
    this.timers.delete(handle as Timer);
  }

  /** Timers not yet fired. */
  get pending(): number {
    return this.timers.size;
  }

  /**
   * Moves time forward by `ms`, firing due timers one at a time; after each,
   * `settle` (default: let queued promise continuations run) lets the code it
   * woke do its asynchronous part before time moves on.
   */
  async advance(ms: number, settle: () => Promise<void> = flushAsync): Promise<void> {
    invariant(ms >= 0, () => `advance by ${ms} ms is not a non-negative number`);
    const end = this.current + ms;
    for (;;) {
      await settle();
      const next = this.earliest();
      if (!next || next.atMs > end) break;
      this.timers.delete(next);
      this.current = Math.max(this.current, next.atMs);
      next.fn();
    }
    this.current = end;
    await settle();
  }

  private earliest(): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers) {
      if (!best || t.atMs < best.atMs || (t.atMs === best.atMs && t.seq < best.seq)) best = t;
    }
    return best;
  }
}

/** Lets pending promise continuations and I/O callbacks of the moment run. */
async function flushAsync(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
