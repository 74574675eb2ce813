/**
 * Durations written for people, read the same way everywhere they are taken
 * (the CLI's flags, the HTTP API's headers): a plain integer is milliseconds
 * (`1500`); otherwise one or more `<number><unit>` parts with units ms, s, m,
 * h, d, w (`250ms`, `5s`, `1h30m`, `1.5d`).
 */

/** Milliseconds per duration unit. */
const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

const DURATION_PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/y;

/** A duration that does not parse; the message says why, without naming where it came from. */
export class DurationSyntaxError extends Error {
  override readonly name = 'DurationSyntaxError';
}

/** The duration `text` in whole milliseconds >= 0 (module comment), or DurationSyntaxError. */
export function parseDurationMs(text: string): number {
  const t = text.trim();
  if (t.length === 0) throw new DurationSyntaxError('empty duration');
  if (/^\d+$/.test(t)) return safeMs(Number(t), text);
  let total = 0;
  let at = 0;
  while (at < t.length) {
    DURATION_PART.lastIndex = at;
    const m = DURATION_PART.exec(t);
    if (!m) {
      throw new DurationSyntaxError(
        `"${text}" is not a duration (use ms, or a number with a unit: 250ms, 5s, 10m, 2h, 1d, 1h30m)`,
      );
    }
    total += Number(m[1]) * (UNIT_MS[m[2] as string] as number);
    at = DURATION_PART.lastIndex;
  }
  return safeMs(Math.round(total), text);
}

/** `ms` (read from `text`) when it is a whole number of ms from 0 to 2^53 - 1, else DurationSyntaxError. */
export function safeMs(ms: number, text: string): number {
  if (!Number.isSafeInteger(ms) || ms < 0) throw new DurationSyntaxError(`"${text}" is out of range`);
  return ms;
}
