/**
 * Time as every layer sees it. Raft's node driver, the broker's proposer,
 * dispatcher, janitor and purger take a `Clock` instead of calling
 * `Date.now`, `performance.now` or timers, so a simulation or a test can hand
 * them virtual time (virtual-clock.ts); `systemClock` and `SteadyClock` are
 * the real ones.
 */
import { performance } from 'node:perf_hooks';

/** What `setTimer` returns; only `clearTimer` of the same clock reads it. */
export type TimerHandle = object;

export interface Clock {
  /** Wall-clock ms since the epoch: stamps, due times and leases. */
  nowMs(): number;
  /** Monotonic ms from an arbitrary origin, for deadlines and intervals: it never steps when the wall clock does. */
  monotonicMs(): number;
  /**
   * Calls `fn` once after `delayMs` (a delay <= 0 fires at the next turn).
   * Real timers may fire a little early (Node runs them on a cached loop
   * clock): callers that need a moment check `nowMs()` and re-arm. A pending
   * timer never keeps the process alive.
   */
  setTimer(fn: () => void, delayMs: number): TimerHandle;
  clearTimer(handle: TimerHandle): void;
  /** Calls `fn` every `ms` until the returned function is called. */
  every(ms: number, fn: () => void): () => void;
  /** Resolves after `ms`. */
  sleep(ms: number): Promise<void>;
}

/** The timers of the real clocks: unref'd one-shot timers; `every` and `sleep` keep the process alive, as Node's own do. */
export const systemTimers: Pick<Clock, 'setTimer' | 'clearTimer' | 'every' | 'sleep'> = {
  setTimer(fn, delayMs) {
    const t = setTimeout(fn, delayMs);
    t.unref();
    return t;
  },
  clearTimer(handle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
  every(ms, fn) {
    const timer = setInterval(fn, ms);
    return () => clearInterval(timer);
  },
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** `Date.now`, `performance.now` and the system's timers. */
export const systemClock: Clock = {
  nowMs: () => Date.now(),
  monotonicMs: () => performance.now(),
  ...systemTimers,
};
