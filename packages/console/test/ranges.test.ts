/** The Timeline page asks the forecast for widths it takes, and a range it can show in at most 120 bars. */
import { describe, expect, it } from 'vitest';
import {
  DAY,
  HOUR,
  listedBuckets,
  MAX_BUCKETS,
  MAX_LISTED_BUCKETS,
  MINUTE,
  SECOND,
  widthFor,
  widthText,
} from '../src/pages/ranges.js';

describe('timeline ranges', () => {
  it('picks the narrowest width that shows the range in at most 120 bars', () => {
    expect(widthFor(MINUTE)).toBe(SECOND);
    expect(widthFor(HOUR)).toBe(30 * SECOND);
    expect(widthFor(DAY)).toBe(15 * MINUTE);
    expect(widthFor(7 * DAY)).toBe(3 * HOUR);
    expect(widthFor(365 * DAY)).toBe(7 * DAY);
  });

  it('asks for whole seconds, minutes, hours or days, never more than the API’s 1,440 buckets', () => {
    for (let span = SECOND; span <= 4 * 365 * DAY; span *= 1.7) {
      const w = widthFor(span);
      const unit = w < MINUTE ? SECOND : w < HOUR ? MINUTE : w < DAY ? HOUR : DAY;
      expect(w % unit, `width ${w} for ${span}`).toBe(0);
      expect(span / w).toBeLessThanOrEqual(MAX_BUCKETS);
    }
  });

  it('names a width in its unit', () => {
    expect([SECOND * 30, MINUTE, 6 * HOUR, 7 * DAY].map(widthText)).toEqual(['30 s', '1 min', '6 h', '7 d']);
  });

  it('lists the buckets that hold anything, in time order, at most 100, and counts them all', () => {
    const bucket = (i: number, count: number, scheduled = 0) => ({
      startMs: String(i * MINUTE),
      count: String(count),
      scheduled: String(scheduled),
    });
    const few = [bucket(0, 0), bucket(1, 3), bucket(2, 0, 1), bucket(3, 0)];
    expect(listedBuckets(few)).toEqual({ listed: [few[1], few[2]], nonEmpty: 2 });
    const day = Array.from({ length: MAX_BUCKETS }, (_, i) => bucket(i, i % 2));
    const { listed, nonEmpty } = listedBuckets(day);
    expect(nonEmpty).toBe(MAX_BUCKETS / 2);
    expect(listed).toHaveLength(MAX_LISTED_BUCKETS);
    expect(listed.map((b) => b.startMs)).toEqual(
      Array.from({ length: MAX_LISTED_BUCKETS }, (_, i) => String((2 * i + 1) * MINUTE)),
    );
  });
});
