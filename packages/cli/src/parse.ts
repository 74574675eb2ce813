import { UsageError } from './exit-codes.js';

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

/**
 * A duration in ms: a plain integer is milliseconds (`1500`); otherwise one or
 * more `<number><unit>` parts with units ms, s, m, h, d, w (`250ms`, `5s`,
 * `1h30m`, `1.5d`). Whole milliseconds >= 0.
 */
export function parseDuration(text: string, flag: string): number {
  const t = text.trim();
  if (/^\d+$/.test(t)) return checkMs(Number(t), text, flag);
  let total = 0;
  let at = 0;
  DURATION_PART.lastIndex = 0;
  while (at < t.length) {
    DURATION_PART.lastIndex = at;
    const m = DURATION_PART.exec(t);
    if (!m) {
      throw new UsageError(
        `${flag}: "${text}" is not a duration (use ms, or a number with a unit: 250ms, 5s, 10m, 2h, 1d, 1h30m)`,
      );
    }
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
    at = DURATION_PART.lastIndex;
  }
  if (t.length === 0) throw new UsageError(`${flag}: empty duration`);
  return checkMs(Math.round(total), text, flag);
}

function checkMs(ms: number, text: string, flag: string): number {
  if (!Number.isSafeInteger(ms) || ms < 0) throw new UsageError(`${flag}: "${text}" is out of range`);
  return ms;
}

/**
 * A point in time as epoch ms: `now`, `+<duration>` / `-<duration>` relative
 * to this machine's clock, an integer (epoch ms), or an ISO 8601 date-time
 * (`2026-12-01T09:00:00Z`; without a zone it is local time).
 */
export function parseTime(text: string, flag: string, nowMs: number = Date.now()): number {
  const t = text.trim();
  if (t === 'now') return nowMs;
  if (t.startsWith('+')) return nowMs + parseDuration(t.slice(1), flag);
  if (t.startsWith('-')) return Math.max(0, nowMs - parseDuration(t.slice(1), flag));
  if (/^\d+$/.test(t)) return checkMs(Number(t), text, flag);
  const ms = Date.parse(t);
  if (Number.isNaN(ms) || !/^\d{4}-\d{2}-\d{2}/.test(t)) {
    throw new UsageError(
      `${flag}: "${text}" is not a time (use an ISO 8601 date-time, epoch ms, now, +10m or -1h)`,
    );
  }
  return checkMs(ms, text, flag);
}

/** `name=value` pairs of repeated `--header` flags. */
export function parseHeaders(pairs: readonly string[]): Record<string, string> | undefined {
  if (pairs.length === 0) return undefined;
  const headers: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--header: expected name=value, got "${pair}"`);
    headers[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return headers;
}

/** A whole number within bounds. */
export function parseInteger(text: string, flag: string, min: number, max: number): number {
  const t = text.trim();
  const n = /^-?\d+$/.test(t) ? Number(t) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag}: expected an integer from ${min} to ${max}, got "${text}"`);
  }
  return n;
}

/** A message id: a decimal uint64. */
export function parseId(text: string, what = 'id'): bigint {
  if (!/^\d{1,20}$/.test(text.trim()))
    throw new UsageError(`${what}: expected a message id (digits), got "${text}"`);
  const id = BigInt(text.trim());
  if (id >= 1n << 64n) throw new UsageError(`${what}: ${text} does not fit in 64 bits`);
  return id;
}

/** Collects a repeatable option into an array (Commander's argParser). */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
