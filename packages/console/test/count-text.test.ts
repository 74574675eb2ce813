/** The Timeline chart's counts read as uPlot's en-US Intl formatter wrote them, without Intl. */
import { describe, expect, it } from 'vitest';
import { countText } from '../src/dom.js';

describe('countText', () => {
  const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 20 });

  it('groups thousands as en-US does, for counts and for the fractional ticks of a small axis', () => {
    const values = [0, 1, 12, 999, 1000, 1001, 12_345, 999_999, 1_000_000, 72_000, 10_000_000, 123_456_789];
    const ticks = [0.5, 2.5, 0.25, 1234.5, -1, -1200, -1_234_567.75];
    for (const v of [...values, ...ticks]) expect(countText(v), String(v)).toBe(intl.format(v));
  });

  it('matches en-US over random integers up to 2^53', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed;
    };
    for (let i = 0; i < 2_000; i++) {
      const v = Math.floor((next() / 2_147_483_647) * 10 ** (next() % 16));
      expect(countText(v), String(v)).toBe(intl.format(v));
    }
  });
});
