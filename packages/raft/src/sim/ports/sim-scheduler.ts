/**
 * Virtual time for simulated ports: one event queue in true simulated time,
 * and per node a clock whose wall time is offset (skew, jumps) from it while
 * its monotonic time is not. Every timer of a node belongs to its current
 * incarnation: a crash cancels them all.
 */
import type { Clock } from '../../node/ports.js';
import { EventQueue } from '../event-queue.js';
import type { Prng } from '../prng.js';

export class SimScheduler {
  readonly queue = new EventQueue();
  /** True simulated time, ms. */
  nowMs = 0;

  constructor(readonly prng: Prng) {}

  at(delayMs: number, describe: () => string, run: () => void): void {
    if (!(delayMs >= 0)) throw new Error(`SimScheduler.at: delay ${delayMs} ms is not >= 0`);
    this.queue.push(this.nowMs + delayMs, describe, run);
  }
}

/** A node's clock: the raft Clock port plus the one-shot timers the broker's leader layer uses. */
export class SimClock implements Clock {
  /** Wall time minus true time, ms: skew and jumps. */
  offsetMs: number;
  private generation = 0;
  private readonly live = new Set<object>();

  constructor(
    private readonly sched: SimScheduler,
    readonly name: string,
    offsetMs = 0,
  ) {
    this.offsetMs = offsetMs;
  }

  nowMs(): number {
    return this.sched.nowMs + this.offsetMs;
  }

  monotonicMs(): number {
    return this.sched.nowMs;
  }

  /** Forgets every timer of the crashed incarnation. */
  crash(): void {
    this.generation++;
    this.live.clear();
  }

  every(ms: number, fn: () => void): () => void {
    const gen = this.generation;
    let stopped = false;
    const tick = (): void => {
      if (stopped || gen !== this.generation) return;
      fn();
      this.sched.at(ms, () => `${this.name} tick`, tick);
    };
    this.sched.at(ms, () => `${this.name} tick`, tick);
    return () => {
      stopped = true;
    };
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimer(resolve, ms));
  }

  setTimer(fn: () => void, delayMs: number): object {
    const gen = this.generation;
    const handle = {};
    this.live.add(handle);
    this.sched.at(
      Math.max(0, delayMs),
      () => `${this.name} timer`,
      () => {
        if (gen !== this.generation || !this.live.delete(handle)) return;
        fn();
      },
    );
    return handle;
  }

  clearTimer(handle: object): void {
    this.live.delete(handle);
  }
}
