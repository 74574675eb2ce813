/**
 * Virtual time for simulated ports: one event queue in true simulated time.
 * Each node's clock is a VirtualClock (@fermata/base) on it, whose wall time
 * is offset (skew, jumps) from true time while its monotonic time is not.
 */

import type { Timeline } from '@fermata/base';
import { EventQueue } from '../event-queue.js';
import type { Prng } from '../prng.js';
import { SimulationError } from '../sim-error.js';

export class SimScheduler implements Timeline {
  readonly queue = new EventQueue();
  /** True simulated time, ms. */
  nowMs = 0;

  constructor(readonly prng: Prng) {}

  now(): number {
    return this.nowMs;
  }

  at(delayMs: number, describe: () => string, run: () => void): void {
    if (!(delayMs >= 0)) throw new SimulationError(`SimScheduler.at: delay ${delayMs} ms is not >= 0`);
    this.queue.push(this.nowMs + delayMs, describe, run);
  }
}
