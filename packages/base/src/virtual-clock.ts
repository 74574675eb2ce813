/**
 * Virtual time: the one Clock that simulations and tests hand the code under
 * test. A `VirtualClock` reads true time from a `Timeline` and sets its
 * timers as the timeline's events; what moves the timeline is its owner's:
 * a simulator's event queue (raft's and the broker's simulators), or
 * `ManualClock.advance` in a test.
 */
import type { Clock, TimerHandle } from './clock.js';
import { invariant } from './errors.js';

/** True virtual time and its events. */
export interface Timeline {
  /** True virtual time, ms. */
  now(): number;
  /**
   * Runs `run` after `delayMs` of virtual time; `describe` names the event
   * (a simulator's trace shows it). It may return the event, for `drop`.
   */
  at(delayMs: number, describe: () => string, run: () => void): unknown;
  /** Forgets an event of `at` that will never do anything (a cleared timer); a timeline may keep it instead. */
  drop?(event: unknown): void;
}

export interface VirtualClockOptions {
  /** Names the timers' events: `tick <name>`, `wake <name>`, `timer <name>`. */
  readonly name?: string;
  /** Wall time minus true time, ms (skew; a simulation jumps it). Monotonic time is true time. */
  readonly offsetMs?: number;
  /** Delay of a repeating timer's first call (default: one period); a simulation spreads the nodes' ticks. */
  readonly firstTickMs?: (periodMs: number) => number;
}

/**
 * A node's clock on a timeline. Its timers belong to the current incarnation
 * of what uses it: `crash()` forgets them all, and none of them fires after.
 */
export class VirtualClock implements Clock {
  /** Wall time minus true time, ms: skew and jumps. */
  offsetMs: number;
  readonly name: string;
  private generation = 0;
  /** Timers set and not yet fired or cleared, with their timeline events. */
  private readonly live = new Map<TimerHandle, unknown>();
  private readonly firstTickMs: ((periodMs: number) => number) | undefined;

  constructor(
    private readonly timeline: Timeline,
    options: VirtualClockOptions = {},
  ) {
    this.name = options.name ?? 'clock';
    this.offsetMs = options.offsetMs ?? 0;
    this.firstTickMs = options.firstTickMs;
  }

  nowMs(): number {
    return this.timeline.now() + this.offsetMs;
  }

  monotonicMs(): number {
    return this.timeline.now();
  }

  /** Timers not yet fired. */
  get pending(): number {
    return this.live.size;
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
      this.timeline.at(ms, () => `tick ${this.name}`, tick);
    };
    this.timeline.at(this.firstTickMs ? this.firstTickMs(ms) : ms, () => `tick ${this.name}`, tick);
    return () => {
      stopped = true;
    };
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.arm(resolve, ms, 'wake'));
  }

  setTimer(fn: () => void, delayMs: number): TimerHandle {
    return this.arm(fn, delayMs, 'timer');
  }

  clearTimer(handle: TimerHandle): void {
    const event = this.live.get(handle);
    if (!this.live.delete(handle)) return;
    if (event !== undefined) this.timeline.drop?.(event);
  }

  private arm(fn: () => void, delayMs: number, what: string): TimerHandle {
    const gen = this.generation;
    const handle = {};
    const event = this.timeline.at(
      Math.max(0, delayMs),
      () => `${what} ${this.name}`,
      () => {
        if (gen !== this.generation || !this.live.delete(handle)) return;
        fn();
      },
    );
    this.live.set(handle, event);
    return handle;
  }
}

interface ManualEvent {
  readonly atMs: number;
  readonly seq: number;
  readonly run: () => void;
}

/** The timeline of a ManualClock: it moves only when told. */
class ManualTimeline implements Timeline {
  current: number;
  private seq = 0;
  readonly events = new Set<ManualEvent>();

  constructor(startMs: number) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  at(delayMs: number, _describe: () => string, run: () => void): ManualEvent {
    invariant(delayMs >= 0, () => `timer delay ${delayMs} ms is not a non-negative number`);
    const event: ManualEvent = { atMs: this.current + delayMs, seq: this.seq++, run };
    this.events.add(event);
    return event;
  }

  drop(event: unknown): void {
    this.events.delete(event as ManualEvent);
  }

  earliest(): ManualEvent | undefined {
    let best: ManualEvent | undefined;
    for (const e of this.events) {
      if (!best || e.atMs < best.atMs || (e.atMs === best.atMs && e.seq < best.seq)) best = e;
    }
    return best;
  }
}

/**
 * A VirtualClock on a timeline of its own that moves only when told:
 * `advance(ms)` runs every timer that falls due on the way, in time order
 * (ties in the order they were set), with `nowMs()` at each timer's moment.
 * For driving the leader layer on virtual time in a test; wall and monotonic
 * time move together.
 */
export class ManualClock extends VirtualClock {
  private readonly manual: ManualTimeline;

  constructor(startMs = 0) {
    const timeline = new ManualTimeline(startMs);
    super(timeline);
    this.manual = timeline;
  }

  /**
   * Moves time forward by `ms`, firing due timers one at a time; after each,
   * `settle` (default: let queued promise continuations run) lets the code it
   * woke do its asynchronous part before time moves on.
   */
  async advance(ms: number, settle: () => Promise<void> = flushAsync): Promise<void> {
    invariant(ms >= 0, () => `advance by ${ms} ms is not a non-negative number`);
    const t = this.manual;
    const end = t.current + ms;
    for (;;) {
      await settle();
      const next = t.earliest();
      if (!next || next.atMs > end) break;
      t.events.delete(next);
      t.current = Math.max(t.current, next.atMs);
      next.run();
    }
    t.current = end;
    await settle();
  }
}

/** Lets pending promise continuations and I/O callbacks of the moment run. */
async function flushAsync(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
