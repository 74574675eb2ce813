/**
 * The time ranges of the Timeline page: bucket widths the forecast takes
 * (whole seconds, minutes, hours or days) and the one a range is shown in.
 */

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** Bucket widths the API takes (whole seconds, minutes, hours or days), narrowest first. */
const WIDTHS = [
  SECOND,
  5 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  5 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  7 * DAY,
  30 * DAY,
];
/** Bars a view aims at: enough to see a herd, few enough to click one. */
const TARGET_BARS = 120;
/** The API's most bucket widths in one range. */
export const MAX_BUCKETS = 1440;
export const PRESETS: [string, number][] = [
  ['1 minute', MINUTE],
  ['1 hour', HOUR],
  ['1 day', DAY],
  ['1 week', 7 * DAY],
  ['30 days', 30 * DAY],
  ['1 year', 365 * DAY],
];

/**
 * Buckets the table under the Timeline's chart lists at most. The chart shows
 * every bucket; a table of 1,440 rows takes the browser longer to lay out
 * than the rest of the page together and is no easier to read than the chart.
 */
export const MAX_LISTED_BUCKETS = 100;

/** The buckets the table lists: those holding messages or occurrences, in time order, at most `max`. */
export function listedBuckets<B extends { count: string; scheduled: string }>(
  buckets: readonly B[],
  max = MAX_LISTED_BUCKETS,
): { listed: B[]; nonEmpty: number } {
  const nonEmpty = buckets.filter((b) => Number(b.count) > 0 || Number(b.scheduled) > 0);
  return { listed: nonEmpty.slice(0, max), nonEmpty: nonEmpty.length };
}

/** The narrowest width that shows `spanMs` in at most TARGET_BARS bars. */
export function widthFor(spanMs: number): number {
  return WIDTHS.find((w) => spanMs / w <= TARGET_BARS) ?? (WIDTHS.at(-1) as number);
}

/** `ms` as a width: `1 min`, `6 h`, `7 d`, `30 s`. */
export function widthText(ms: number): string {
  if (ms >= DAY) return `${ms / DAY} d`;
  if (ms >= HOUR) return `${ms / HOUR} h`;
  if (ms >= MINUTE) return `${ms / MINUTE} min`;
  return `${ms / SECOND} s`;
}
