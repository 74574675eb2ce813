import type { SteadyClock } from '@fermata/base';
import { Gauge, type Registry } from 'prom-client';

/**
 * `fermata_clock_offset_ms`: the system wall clock minus the node's own time
 * (SteadyClock), read at each scrape. 0 on a node whose system clock has not
 * been stepped since it started; an NTP step, a VM migration or `date -s`
 * shows here (the alert FermataClockStepped), and a restart takes the system
 * clock again.
 */
export function registerClockGauge(registry: Registry, clock: SteadyClock): Gauge<never> {
  return new Gauge({
    name: 'fermata_clock_offset_ms',
    help: 'The system wall clock minus the time this node runs on (its wall clock at start advanced by the monotonic clock), ms: how far the system clock was stepped since the node started.',
    registers: [registry],
    collect() {
      this.set(clock.systemOffsetMs());
    },
  });
}

/** A step of the system clock larger than this is logged. */
export const CLOCK_STEP_LOG_MS = 1_000;

/**
 * Logs a warning each time the system clock has moved more than
 * CLOCK_STEP_LOG_MS away from where it was last seen relative to the node's
 * time (checked every `everyMs`; the timer does not keep the process alive).
 */
export function watchClockSteps(
  clock: SteadyClock,
  log: { warn(fields: object, message: string): void },
  everyMs = 5_000,
): void {
  let seen = clock.systemOffsetMs();
  const timer = setInterval(() => {
    const offset = clock.systemOffsetMs();
    if (Math.abs(offset - seen) <= CLOCK_STEP_LOG_MS) return;
    log.warn(
      { stepMs: offset - seen, offsetMs: offset },
      'the system clock was stepped; this node keeps its own time (the wall clock at start advanced by the monotonic clock) until it restarts',
    );
    seen = offset;
  }, everyMs);
  timer.unref();
}
