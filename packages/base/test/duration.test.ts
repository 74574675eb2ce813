import { describe, expect, it } from 'vitest';
import { DurationSyntaxError, parseDurationMs } from '../src/index.js';

describe('durations written for people', () => {
  it('reads plain ms and unit parts, summed and rounded to whole ms', () => {
    expect(parseDurationMs('1500')).toBe(1500);
    expect(parseDurationMs(' 250ms ')).toBe(250);
    expect(parseDurationMs('1h30m')).toBe(5_400_000);
    expect(parseDurationMs('1.5d')).toBe(129_600_000);
    expect(parseDurationMs('2w')).toBe(1_209_600_000);
    expect(parseDurationMs('0.0004s')).toBe(0);
  });

  it('refuses what is not a duration, a negative one, and one past 2^53 ms', () => {
    for (const text of ['', '5 parsecs', '-5s', '1h 30m', 's', '1e3']) {
      expect(() => parseDurationMs(text), text).toThrow(DurationSyntaxError);
    }
    expect(() => parseDurationMs('99999999999999999999w')).toThrow(/out of range/);
  });
});
