import { describe, expect, it } from 'vitest';
import { materializeLeadMs, StoreRate } from '../src/leader/materialize-lead.js';

const now = 1_000_000;
const ahead = 2_000;
const horizon = 60_000;

describe('the materialiser opens its window earlier by the time a herd takes to store', () => {
  it('1,000 schedules due at one instant, stored 100 a second: 10 s earlier', () => {
    const due = Array.from({ length: 1000 }, () => now + 30_000);
    expect(materializeLeadMs(due, now, ahead, horizon, 100)).toBe(10_000);
  });

  it('the same 1,000 spread evenly over 50 s (20 due a second, 100 stored): less than one bucket', () => {
    const due = Array.from({ length: 1000 }, (_, i) => now + ahead + i * 50);
    expect(materializeLeadMs(due, now, ahead, horizon, 100)).toBeLessThanOrEqual(1_000);
  });

  it('two herds: the larger one sets the lead, less the time between them', () => {
    const due = [
      ...Array.from({ length: 500 }, () => now + 20_000),
      ...Array.from({ length: 1500 }, () => now + 25_000),
    ];
    // 500 then 1500 at 100/s: from the first, 20 s to store, 5 s between them -> 15 s.
    expect(materializeLeadMs(due, now, ahead, horizon, 100)).toBe(15_000);
  });

  it('nothing due within the horizon needs no lead; a rate of 0 is refused', () => {
    expect(materializeLeadMs([now + horizon + ahead + 1], now, ahead, horizon, 100)).toBe(0);
    expect(materializeLeadMs([], now, ahead, horizon, 100)).toBe(0);
    expect(() => materializeLeadMs([], now, ahead, horizon, 0)).toThrow(/store rate must be > 0, got 0/);
  });

  it('the measured rate believes a slower fire at once and a faster one gradually', () => {
    const r = new StoreRate();
    r.observe(1000, 2000); // 500/s
    expect(r.perS).toBe(500);
    r.observe(1000, 500); // 2,000/s: moves 30% of the way
    expect(r.perS).toBe(950);
    r.observe(10, 1); // too small a fire to say anything
    expect(r.perS).toBe(950);
  });
});
