import { DurationSyntaxError, parseDurationMs, safeMs } from '@fermata/base';
import { UsageError } from './exit-codes.js';

/** What `read` returns; its DurationSyntaxError as a UsageError naming `flag`. */
function asUsage<T>(flag: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof DurationSyntaxError) throw new UsageError(`${flag}: ${err.message}`);
    throw err;
  }
}

/**
 * A duration in ms (`parseDurationMs` of @fermata/base: `1500`, `250ms`, `5s`,
 * `1h30m`, `1.5d`), or a UsageError naming `flag`.
 */
export function parseDuration(text: string, flag: string): number {
  return asUsage(flag, () => parseDurationMs(text));
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
  if (/^\d+$/.test(t)) return asUsage(flag, () => safeMs(Number(t), text));
  const ms = Date.parse(t);
  if (Number.isNaN(ms) || !/^\d{4}-\d{2}-\d{2}/.test(t)) {
    throw new UsageError(
      `${flag}: "${text}" is not a time (use an ISO 8601 date-time, epoch ms, now, +10m or -1h)`,
    );
  }
  return asUsage(flag, () => safeMs(ms, text));
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
