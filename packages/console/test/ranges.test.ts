/** The Timeline page asks the forecast for widths it takes, and a range it can show in at most 120 bars. */
import { describe, expect, it } from 'vitest';
import { DAY, HOUR, MAX_BUCKETS, MINUTE, SECOND, widthFor, widthText } from '../src/pages/ranges.js';

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
});
