export { type Clock, systemClock, systemTimers, type TimerHandle } from './clock.js';
export { DurationSyntaxError, parseDurationMs, safeMs } from './duration.js';
export { InvariantError, invariant, LimitError } from './errors.js';
export { SteadyClock } from './steady-clock.js';
export { ManualClock, type Timeline, VirtualClock, type VirtualClockOptions } from './virtual-clock.js';
