// The leader layer's production clock: the wall clock at start, advanced by the monotonic clock.

import { SteadyClock } from '@fermata/base';
import { describe, expect, it } from 'vitest';

describe('SteadyClock', () => {
  it('moves with the monotonic clock, not with steps of the system clock, and reports how far it was stepped', () => {
    let wall = 1_700_000_000_000;
    let mono = 5_000;
    const clock = new SteadyClock(
      () => wall,
      () => mono,
    );
    expect(clock.nowMs()).toBe(wall);
    wall += 1_000;
    mono += 1_000;
    expect(clock.nowMs()).toBe(1_700_000_001_000);
    expect(clock.systemOffsetMs()).toBe(0);
    // An hour forward, then back two: the node's time goes on one millisecond per millisecond.
    wall += 3_600_000;
    mono += 10;
    expect(clock.nowMs()).toBe(1_700_000_001_010);
    expect(clock.systemOffsetMs()).toBe(3_600_000 - 10);
    wall -= 7_200_000;
    mono += 10;
    expect(clock.nowMs()).toBe(1_700_000_001_020);
    expect(clock.systemOffsetMs()).toBe(-3_600_000 - 20);
    expect(clock.monotonicMs()).toBe(mono);
  });

  it('is anchored where the wall clock turns a millisecond, so it is never a millisecond behind it', () => {
    // True time advances 0.01 ms with every read of the monotonic clock; the wall clock truncates it.
    let t = 1_700_000_000_000.5;
    const mono = () => {
      t += 0.01;
      return t - 1_699_999_000_000;
    };
    const clock = new SteadyClock(() => Math.floor(t), mono);
    for (let i = 0; i < 1_000; i++) {
      t += 0.37;
      // Within the few reads between the anchor's wall and monotonic reads (0.02 ms here).
      expect(clock.nowMs()).toBeGreaterThanOrEqual(Math.floor(t - 0.05));
    }
  });

  it('a pause of the starting process between its clock reads is passed over: never ahead of the system clock, behind by under 0.05 ms', () => {
    // True time advances 0.01 ms with every read; the process pauses 3 ms right after the wall
    // read that sees the millisecond turn (a busy machine), or right before it.
    for (const pauseAfter of [true, false]) {
      let t = 1_700_000_000_000.5;
      const mono = () => {
        t += 0.01;
        return t - 1_699_999_000_000;
      };
      let paused = false;
      const wall = () => {
        const before = Math.floor(t);
        if (!paused && !pauseAfter && Math.floor(t + 0.01) > before) {
          paused = true;
          t += 3;
        }
        const w = Math.floor(t);
        if (!paused && pauseAfter && w > 1_700_000_000_000) {
          paused = true;
          t += 3;
        }
        return w;
      };
      const clock = new SteadyClock(wall, mono);
      expect(paused).toBe(true);
      for (let i = 0; i < 100; i++) {
        t += 0.37;
        const node = clock.nowMs();
        expect(node).toBeLessThanOrEqual(Math.floor(t));
        expect(node).toBeGreaterThanOrEqual(Math.floor(t - 0.05));
      }
    }
  });
});
