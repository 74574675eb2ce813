/**
 * Time as the leader layer sees it. The proposer, dispatcher and janitor take
 * a `Clock` instead of calling `Date.now`, `performance.now` or timers, so a
 * simulation can hand them virtual time; `systemClock` is the real one.
 */

/** What `setTimer` returns; only `clearTimer` of the same clock reads it. */
export type TimerHandle = object;

export interface Clock {
  /** Wall-clock ms since the epoch: the leader's time for stamps, due times and leases. */
  nowMs(): number;
  /** Monotonic ms from an arbitrary origin, for intervals that must not jump with the wall clock. */
  monotonicMs(): number;
  /**
   * Calls `fn` once after `delayMs`. Real timers may fire a little early
   * (Node runs them on a cached loop clock): callers that need a moment check
   * `nowMs()` and re-arm. A pending timer never keeps the process alive.
   */
  setTimer(fn: () => void, delayMs: number): TimerHandle;
  clearTimer(handle: TimerHandle): void;
}

/** `Date.now`, `performance.now` and unref'd `setTimeout`. */
export const systemClock: Clock = {
  nowMs: () => Date.now(),
  monotonicMs: () => performance.now(),
  setTimer(fn, delayMs) {
    const t = setTimeout(fn, delayMs);
    t.unref();
    return t;
  },
  clearTimer(handle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
};
