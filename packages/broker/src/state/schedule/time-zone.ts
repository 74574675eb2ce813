/**
 * Instant arithmetic in an IANA time zone through the platform's Intl data:
 * the zone's UTC offset at an instant, and the instants a local wall time
 * names (none in a spring-forward gap, two in a fall-back overlap). Wall times
 * are "naive" epoch ms: the local calendar date and time read as if in UTC.
 * No clock is read.
 */
import { ValidationError } from '../model/errors.js';

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();
const UTC_NAMES = new Set([
  'UTC',
  'Etc/UTC',
  'Etc/GMT',
  'GMT',
  'Etc/Universal',
  'Etc/Zulu',
  'Universal',
  'Zulu',
]);

/** True for a zone whose offset is always 0 (no Intl lookups needed). */
export function isUtc(zone: string): boolean {
  return zone === '' || UTC_NAMES.has(zone);
}

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Checks an IANA zone name; '' is UTC. Throws ValidationError(field) for a zone the platform does not know. */
export function validateTimeZone(zone: string, field = 'time_zone'): void {
  if (isUtc(zone)) return;
  if (zone.length > 64) throw new ValidationError(field, `at most 64 characters, got ${zone.length}`);
  try {
    formatter(zone);
  } catch {
    throw new ValidationError(field, `"${zone}" is not an IANA time zone this server knows`);
  }
}

/** Offsets by zone and minute: zone transitions fall on whole minutes, so one lookup serves a minute. */
const offsetCache = new Map<string, number>();
const MAX_CACHED_OFFSETS = 100_000;

/** The zone's offset from UTC at `instantMs` (local = instant + offset), whole seconds. */
export function offsetMs(zone: string, instantMs: number): number {
  if (isUtc(zone)) return 0;
  const key = `${zone}|${Math.floor(instantMs / 60_000)}`;
  const hit = offsetCache.get(key);
  if (hit !== undefined) return hit;
  const o = computeOffsetMs(zone, instantMs);
  if (offsetCache.size >= MAX_CACHED_OFFSETS) offsetCache.clear();
  offsetCache.set(key, o);
  return o;
}

function computeOffsetMs(zone: string, instantMs: number): number {
  const p: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(instantMs)) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return wall - Math.floor(instantMs / 1000) * 1000;
}

/** The local wall time (naive ms) at an instant. */
export function wallMs(zone: string, instantMs: number): number {
  return instantMs + offsetMs(zone, instantMs);
}

/**
 * The instants a wall time names, ascending: one usually; two in a fall-back
 * overlap; in a spring-forward gap (the wall time does not exist) the first
 * instant after the gap, alone.
 */
export function instantsOfWall(zone: string, wall: number): number[] {
  if (isUtc(zone)) return [wall];
  const before = offsetMs(zone, wall - DAY_MS);
  const after = offsetMs(zone, wall + DAY_MS);
  const out: number[] = [];
  for (const o of before === after ? [before] : [Math.max(before, after), Math.min(before, after)]) {
    const t = wall - o;
    if (offsetMs(zone, t) === o) out.push(t);
  }
  if (out.length > 0) return out;
  // A gap: the offset goes from `before` to `after` (> before) somewhere in (wall - after, wall - before].
  let lo = wall - after; // offset here is `before`
  let hi = wall - before; // offset here is `after`
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetMs(zone, mid) === before) lo = mid;
    else hi = mid;
  }
  return [hi];
}

/** The largest offset the zone has near a wall time (bounds how early a later wall time's instant can be). */
export function maxOffsetNear(zone: string, wall: number): number {
  if (isUtc(zone)) return 0;
  return Math.max(offsetMs(zone, wall - DAY_MS), offsetMs(zone, wall + DAY_MS));
}
