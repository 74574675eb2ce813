/**
 * What a schedule's spec means: its occurrences as instants, computed from the
 * spec, the time zone and the DST policy alone (no clock). Cron calendars are
 * croner's, evaluated on the zone's local wall-clock timeline; wall times
 * become instants through the platform's IANA data (time-zone.ts): a local
 * time in a spring-forward gap fires once at the first instant after the gap,
 * one in a fall-back overlap at its first instant (`once`) or at both.
 * Intervals (`every 15m`) count from start_at_ms (or the epoch) in absolute time.
 */
import { Cron } from 'croner';
import { LimitError, ValidationError } from '../model/errors.js';
import type { Limits } from '../model/limits.js';
import type { DstPolicy } from '../model/schedules.js';
import { instantsOfWall, isUtc, maxOffsetNear, offsetMs, validateTimeZone, wallMs } from './time-zone.js';

export type ParsedSpec =
  | { readonly kind: 'interval'; readonly intervalMs: number }
  | { readonly kind: 'cron'; readonly cron: Cron };

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const INTERVAL = /^every\s+(\d{1,12})\s*(ms|s|m|h|d)$/;
const NICKNAMES = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);
/** Longest interval accepted (100 years): its occurrences stay far within the instants time arithmetic handles. */
export const MAX_INTERVAL_MS = 100 * 365 * 86_400_000;
/** Longest spec text accepted. */
export const MAX_SPEC_BYTES = 256;
/** Wall times one occurrence search may look at before it gives up (a spec that never matches). */
const MAX_STEPS = 100_000;
/** Longest clock shift of any zone (2 h) plus margin: where a second instant of an overlap can hide. */
const OVERLAP_LOOKBACK_MS = 3 * 3_600_000;

const parsed = new Map<string, ParsedSpec>();
/**
 * Cron occurrence searches answered, by their whole input: schedules sharing a
 * spec and zone mostly share a cursor too (every one of a herd at 00:00), and
 * each fire computes the same search on the leader (plan, next) and on every
 * replica (check); croner's search was the largest schedule cost left in a
 * profile. A pure function's memo: it cannot change an answer.
 */
const searches = new Map<string, readonly number[]>();
/** Searches remembered before the memo starts over, and the longest answer kept (bounds its memory). */
const MAX_MEMO_SEARCHES = 10_000;
const MAX_MEMO_OCCURRENCES = 64;

/** Parses a spec (cached); ValidationError('spec') names what is wrong, LimitError the interval limit. */
export function parseSpec(spec: string, limits: Limits, field = 'spec'): ParsedSpec {
  const hit = parsed.get(spec);
  if (hit) {
    checkInterval(hit, limits, field);
    return hit;
  }
  const text = spec.trim();
  if (text === '') throw new ValidationError(field, 'must not be empty');
  if (text.length > MAX_SPEC_BYTES) throw new ValidationError(field, `at most ${MAX_SPEC_BYTES} characters`);
  let out: ParsedSpec;
  const m = INTERVAL.exec(text);
  if (m) {
    const intervalMs = Number(m[1]) * UNIT_MS[m[2]!]!;
    if (intervalMs <= 0) throw new ValidationError(field, 'an interval must be longer than 0');
    if (intervalMs > MAX_INTERVAL_MS) {
      throw new ValidationError(
        field,
        `an interval must be at most 100 years (${MAX_INTERVAL_MS} ms), got ${intervalMs}`,
      );
    }
    out = { kind: 'interval', intervalMs };
  } else if (text.startsWith('every')) {
    throw new ValidationError(
      field,
      `"${text}" is not an interval: write every <n><ms|s|m|h|d>, e.g. every 15m`,
    );
  } else {
    const fields = text.split(/\s+/).length;
    if (!NICKNAMES.has(text) && fields !== 5 && fields !== 6) {
      throw new ValidationError(field, `a cron expression has 5 or 6 fields, "${text}" has ${fields}`);
    }
    try {
      out = { kind: 'cron', cron: new Cron(text, { utcOffset: 0, paused: true }) };
    } catch (err) {
      throw new ValidationError(field, `"${text}": ${(err as Error).message}`);
    }
    if (out.cron.nextRun(new Date(0)) === null) throw new ValidationError(field, `"${text}" never fires`);
  }
  if (parsed.size > 10_000) parsed.clear();
  parsed.set(spec, out);
  checkInterval(out, limits, field);
  return out;
}

/** The smallest interval: an `every` below it, or 6-field cron when it is above one second. */
function checkInterval(p: ParsedSpec, limits: Limits, field: string): void {
  const min = limits.minScheduleIntervalMs;
  if (p.kind === 'interval' && p.intervalMs < min) {
    throw new LimitError('minScheduleIntervalMs', min, p.intervalMs, field);
  }
  if (p.kind === 'cron' && min > 1000) {
    // Two consecutive runs from a fixed instant tell whether the seconds field repeats within a minute.
    const a = p.cron.nextRun(new Date(0));
    const b = a ? p.cron.nextRun(a) : null;
    if (a && b && b.getTime() - a.getTime() < min) {
      throw new LimitError('minScheduleIntervalMs', min, b.getTime() - a.getTime(), field);
    }
  }
}

export interface SpecInput {
  readonly spec: string;
  readonly timeZone: string;
  readonly dstPolicy: DstPolicy;
  readonly startAtMs: number;
  readonly endAtMs: number;
}

/** Checks spec and zone together (INVALID_ARGUMENT naming `prefix` + the field). */
export function validateSpec(s: SpecInput, limits: Limits, prefix = ''): ParsedSpec {
  validateTimeZone(s.timeZone, `${prefix}time_zone`);
  return parseSpec(s.spec, limits, `${prefix}spec`);
}

/**
 * Up to `max` occurrences after `afterMs`, ascending, none after `untilMs`,
 * within [startAtMs, endAtMs] (0 = unbounded).
 */
export function occurrencesAfter(
  s: SpecInput,
  limits: Limits,
  afterMs: number,
  max: number,
  untilMs = Number.MAX_SAFE_INTEGER,
): readonly number[] {
  const p = parseSpec(s.spec, limits);
  const from = Math.max(afterMs, s.startAtMs - 1);
  const until = s.endAtMs > 0 ? Math.min(untilMs, s.endAtMs) : untilMs;
  if (max <= 0 || from >= until) return [];
  if (p.kind === 'interval') return intervalOccurrences(p.intervalMs, s.startAtMs, from, until, max);
  const key = `${s.spec}\u0000${s.timeZone}\u0000${s.dstPolicy}\u0000${from}\u0000${until}\u0000${max}`;
  const hit = searches.get(key);
  if (hit) return hit;
  const out = cronOccurrences(p.cron, s, from, until, max);
  if (out.length > MAX_MEMO_OCCURRENCES) return out;
  if (searches.size >= MAX_MEMO_SEARCHES) searches.clear();
  searches.set(key, out);
  return out;
}

function intervalOccurrences(
  intervalMs: number,
  anchor: number,
  from: number,
  until: number,
  max: number,
): number[] {
  const out: number[] = [];
  let k = Math.floor((from - anchor) / intervalMs) + 1;
  for (; out.length < max; k++) {
    const t = anchor + k * intervalMs;
    if (t > until) break;
    if (t > from) out.push(t);
  }
  return out;
}

function cronOccurrences(cron: Cron, s: SpecInput, from: number, until: number, max: number): number[] {
  const out: number[] = [];
  const zone = s.timeZone;
  if (isUtc(zone)) {
    let d: Date | null = new Date(from);
    while (out.length < max) {
      d = cron.nextRun(d);
      if (!d || d.getTime() > until) break;
      out.push(d.getTime());
    }
    return out;
  }
  // Wall times in order; their instants are final once no later wall time can give an earlier one.
  // Second instants of an overlap can follow `from` from earlier wall times only near a transition.
  const here = offsetMs(zone, from);
  const both =
    s.dstPolicy === 'both' &&
    (offsetMs(zone, from - OVERLAP_LOOKBACK_MS) !== here ||
      offsetMs(zone, from + OVERLAP_LOOKBACK_MS) !== here);
  let wall = wallMs(zone, from) - (both ? OVERLAP_LOOKBACK_MS : 1);
  const pending: number[] = [];
  for (let step = 0; step < MAX_STEPS && out.length < max; step++) {
    const next = cron.nextRun(new Date(wall));
    if (!next) break;
    wall = next.getTime();
    const instants = instantsOfWall(zone, wall);
    for (const t of s.dstPolicy === 'both' ? instants : instants.slice(0, 1)) {
      if (t > from && t <= until && !pending.includes(t) && t !== out[out.length - 1]) pending.push(t);
    }
    pending.sort((a, b) => a - b);
    const bound = wall - maxOffsetNear(zone, wall);
    while (pending.length > 0 && pending[0]! < bound && out.length < max) out.push(pending.shift()!);
    if (bound > until) break;
  }
  while (pending.length > 0 && out.length < max) out.push(pending.shift()!);
  return out;
}

/**
 * Why the spec's next occurrence after `afterMs` cannot be computed (a limit
 * it no longer meets, a time the platform's time-zone data cannot handle),
 * or undefined when it can. Such a schedule is broken: it fires nothing, and
 * every other schedule fires as usual.
 */
export function nextOccurrenceProblem(s: SpecInput, limits: Limits, afterMs: number): string | undefined {
  try {
    occurrencesAfter(s, limits, afterMs, 1);
    return undefined;
  } catch (err) {
    return (err as Error).message || String(err);
  }
}

/** True when `instantMs` is an occurrence of the spec. */
export function isOccurrence(s: SpecInput, limits: Limits, instantMs: number): boolean {
  return occurrencesAfter(s, limits, instantMs - 1, 1, instantMs)[0] === instantMs;
}
