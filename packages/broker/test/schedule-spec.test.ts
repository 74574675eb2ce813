import { describe, expect, it } from 'vitest';
import { LimitError, ValidationError } from '../src/state/model/errors.js';
import { DEFAULT_LIMITS } from '../src/state/model/limits.js';
import type { DstPolicy } from '../src/state/model/schedules.js';
import { checkFire, jitterMs, planFire, renderKey } from '../src/state/schedule/fire.js';
import { occurrencesAfter, parseSpec, validateSpec } from '../src/state/schedule/spec.js';
import { offsetMs } from '../src/state/schedule/time-zone.js';
import { scheduleRec } from './schedule-support.js';

const L = DEFAULT_LIMITS;
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
function next(
  spec: string,
  timeZone: string,
  from: string,
  n: number,
  dstPolicy: DstPolicy = 'once',
): string[] {
  return occurrencesAfter({ spec, timeZone, dstPolicy, startAtMs: 0, endAtMs: 0 }, L, at(from), n).map(iso);
}

describe('DST: a local time in a spring-forward gap fires once, at the first instant after the gap', () => {
  it('Europe/Berlin daily 02:30 on 2026-03-29 fires at 03:00 CEST (01:00Z), then 02:30 CEST', () => {
    expect(next('30 2 * * *', 'Europe/Berlin', '2026-03-28T00:00:00Z', 3)).toEqual([
      '2026-03-28T01:30:00Z',
      '2026-03-29T01:00:00Z',
      '2026-03-30T00:30:00Z',
    ]);
  });
  it('Europe/Berlin hourly: 02:00 does not exist, 03:00 CEST fires once', () => {
    expect(next('0 * * * *', 'Europe/Berlin', '2026-03-28T23:30:00Z', 3)).toEqual([
      '2026-03-29T00:00:00Z',
      '2026-03-29T01:00:00Z',
      '2026-03-29T02:00:00Z',
    ]);
  });
  it('Europe/Berlin every minute: the 60 missing minutes fire once, at 03:00 CEST', () => {
    expect(next('* * * * *', 'Europe/Berlin', '2026-03-29T00:58:00Z', 3)).toEqual([
      '2026-03-29T00:59:00Z',
      '2026-03-29T01:00:00Z',
      '2026-03-29T01:01:00Z',
    ]);
  });
  it('America/New_York daily 02:30 on 2026-03-08 fires at 03:00 EDT (07:00Z)', () => {
    expect(next('30 2 * * *', 'America/New_York', '2026-03-07T00:00:00Z', 3)).toEqual([
      '2026-03-07T07:30:00Z',
      '2026-03-08T07:00:00Z',
      '2026-03-09T06:30:00Z',
    ]);
  });
  it('America/New_York hourly and every minute across 02:00 -> 03:00 EDT', () => {
    expect(next('0 * * * *', 'America/New_York', '2026-03-08T06:30:00Z', 2)).toEqual([
      '2026-03-08T07:00:00Z',
      '2026-03-08T08:00:00Z',
    ]);
    expect(next('* * * * *', 'America/New_York', '2026-03-08T06:58:00Z', 3)).toEqual([
      '2026-03-08T06:59:00Z',
      '2026-03-08T07:00:00Z',
      '2026-03-08T07:01:00Z',
    ]);
  });
  it('Australia/Lord_Howe (a 30-minute shift): 02:15 on 2026-10-04 fires at 02:30 LHDT', () => {
    expect(next('15 2 * * *', 'Australia/Lord_Howe', '2026-10-03T00:00:00Z', 2)).toEqual([
      '2026-10-03T15:30:00Z',
      '2026-10-04T15:15:00Z',
    ]);
  });
});

describe('DST: a local time in a fall-back overlap fires at its first instant (once) or at both (both)', () => {
  it('Europe/Berlin daily 02:30 on 2026-10-25', () => {
    expect(next('30 2 * * *', 'Europe/Berlin', '2026-10-24T12:00:00Z', 2)).toEqual([
      '2026-10-25T00:30:00Z',
      '2026-10-26T01:30:00Z',
    ]);
    expect(next('30 2 * * *', 'Europe/Berlin', '2026-10-24T12:00:00Z', 3, 'both')).toEqual([
      '2026-10-25T00:30:00Z',
      '2026-10-25T01:30:00Z',
      '2026-10-26T01:30:00Z',
    ]);
  });
  it('Europe/Berlin hourly: 02:00 fires once (CEST) or twice', () => {
    expect(next('0 * * * *', 'Europe/Berlin', '2026-10-24T23:30:00Z', 3)).toEqual([
      '2026-10-25T00:00:00Z',
      '2026-10-25T02:00:00Z',
      '2026-10-25T03:00:00Z',
    ]);
    expect(next('0 * * * *', 'Europe/Berlin', '2026-10-24T23:30:00Z', 3, 'both')).toEqual([
      '2026-10-25T00:00:00Z',
      '2026-10-25T01:00:00Z',
      '2026-10-25T02:00:00Z',
    ]);
  });
  it('Europe/Berlin every minute: the repeated hour fires once, or both times', () => {
    expect(next('* * * * *', 'Europe/Berlin', '2026-10-25T00:58:00Z', 2)).toEqual([
      '2026-10-25T00:59:00Z',
      '2026-10-25T02:00:00Z',
    ]);
    expect(next('* * * * *', 'Europe/Berlin', '2026-10-25T00:58:00Z', 3, 'both')).toEqual([
      '2026-10-25T00:59:00Z',
      '2026-10-25T01:00:00Z',
      '2026-10-25T01:01:00Z',
    ]);
  });
  it('both: starting inside the overlap, the second instants still follow', () => {
    expect(next('30 1 * * *', 'America/New_York', '2026-11-01T05:45:00Z', 2, 'both')).toEqual([
      '2026-11-01T06:30:00Z',
      '2026-11-02T06:30:00Z',
    ]);
  });
  it('America/New_York daily 01:30, hourly and every minute on 2026-11-01', () => {
    expect(next('30 1 * * *', 'America/New_York', '2026-10-31T12:00:00Z', 2)).toEqual([
      '2026-11-01T05:30:00Z',
      '2026-11-02T06:30:00Z',
    ]);
    expect(next('0 * * * *', 'America/New_York', '2026-11-01T04:30:00Z', 3)).toEqual([
      '2026-11-01T05:00:00Z',
      '2026-11-01T07:00:00Z',
      '2026-11-01T08:00:00Z',
    ]);
    expect(next('0 * * * *', 'America/New_York', '2026-11-01T04:30:00Z', 3, 'both')).toEqual([
      '2026-11-01T05:00:00Z',
      '2026-11-01T06:00:00Z',
      '2026-11-01T07:00:00Z',
    ]);
    expect(next('* * * * *', 'America/New_York', '2026-11-01T05:58:00Z', 2)).toEqual([
      '2026-11-01T05:59:00Z',
      '2026-11-01T07:00:00Z',
    ]);
  });
  it('Australia/Lord_Howe: 01:45 on 2026-04-05 occurs at +11:00 and again at +10:30', () => {
    expect(next('45 1 * * *', 'Australia/Lord_Howe', '2026-04-04T00:00:00Z', 3, 'both')).toEqual([
      '2026-04-04T14:45:00Z',
      '2026-04-04T15:15:00Z',
      '2026-04-05T15:15:00Z',
    ]);
    expect(next('45 1 * * *', 'Australia/Lord_Howe', '2026-04-04T00:00:00Z', 2)).toEqual([
      '2026-04-04T14:45:00Z',
      '2026-04-05T15:15:00Z',
    ]);
  });
});

describe('calendar specs', () => {
  it('L fires on the last day of each month, 29 February in a leap year', () => {
    expect(next('0 0 L * *', 'UTC', '2028-01-15T00:00:00Z', 4)).toEqual([
      '2028-01-31T00:00:00Z',
      '2028-02-29T00:00:00Z',
      '2028-03-31T00:00:00Z',
      '2028-04-30T00:00:00Z',
    ]);
    expect(next('0 9 L 2 *', 'Europe/Berlin', '2027-01-01T00:00:00Z', 2)).toEqual([
      '2027-02-28T08:00:00Z',
      '2028-02-29T08:00:00Z',
    ]);
  });
  it('a leap-day spec fires only on 29 February', () => {
    expect(next('0 12 29 2 *', 'America/New_York', '2026-01-01T00:00:00Z', 2)).toEqual([
      '2028-02-29T17:00:00Z',
      '2032-02-29T17:00:00Z',
    ]);
  });
  it('# and W: the second Monday, the weekday nearest the 15th', () => {
    expect(next('0 9 * * 1#2', 'UTC', '2026-01-01T00:00:00Z', 2)).toEqual([
      '2026-01-12T09:00:00Z',
      '2026-02-09T09:00:00Z',
    ]);
    expect(next('0 9 15W * *', 'UTC', '2026-02-01T00:00:00Z', 1)).toEqual(['2026-02-16T09:00:00Z']);
  });
  it('6-field cron fires by the second; an interval counts from start_at_ms or the epoch', () => {
    expect(next('*/20 * * * * *', 'UTC', '2026-01-01T00:00:00Z', 2)).toEqual([
      '2026-01-01T00:00:20Z',
      '2026-01-01T00:00:40Z',
    ]);
    expect(next('every 15m', 'Asia/Kolkata', '2026-01-01T00:07:00Z', 2)).toEqual([
      '2026-01-01T00:15:00Z',
      '2026-01-01T00:30:00Z',
    ]);
    const s = {
      spec: 'every 10s',
      timeZone: '',
      dstPolicy: 'once' as const,
      startAtMs: 5_000,
      endAtMs: 40_000,
    };
    expect(occurrencesAfter(s, L, 0, 10)).toEqual([5_000, 15_000, 25_000, 35_000]);
  });
  it('the offsets come from the platform zone data', () => {
    expect(offsetMs('Australia/Lord_Howe', at('2026-01-01T00:00:00Z'))).toBe(11 * 3_600_000);
    expect(offsetMs('Australia/Lord_Howe', at('2026-07-01T00:00:00Z'))).toBe(10.5 * 3_600_000);
  });
});

describe('a bad spec or zone is refused naming the field', () => {
  it('unknown zone -> time_zone', () => {
    const e = (() => {
      try {
        validateSpec(
          { spec: '0 * * * *', timeZone: 'Mars/Olympus', dstPolicy: 'once', startAtMs: 0, endAtMs: 0 },
          L,
        );
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).field).toBe('time_zone');
  });
  it('bad cron, wrong field count, bad interval -> spec', () => {
    for (const spec of ['61 * * * *', '* * *', '* * * * * * *', 'every 15 minutes', '']) {
      expect(() => parseSpec(spec, L), spec).toThrow(ValidationError);
      try {
        parseSpec(spec, L);
      } catch (err) {
        expect((err as ValidationError).field).toBe('spec');
      }
    }
  });
  it('an interval below minScheduleIntervalMs is refused with the limit named', () => {
    expect(() => parseSpec('every 500ms', L)).toThrow(LimitError);
    expect(() => parseSpec('every 1s', L)).not.toThrow();
    expect(() => parseSpec('* * * * * *', { ...L, minScheduleIntervalMs: 60_000 })).toThrow(
      /minScheduleIntervalMs/,
    );
  });
});

const rec = scheduleRec;

describe('catch-up after a 2-hour outage (misfire threshold 60 s)', () => {
  const t0 = at('2026-06-01T10:00:00Z');
  const now = t0 + 2 * 3_600_000 + 5_000;
  // 10:01 .. 11:59 are missed by more than 60 s; 12:00 is 5 s late, not missed.
  it('none skips the 119 missed minutes and fires 12:00 (late, not missed)', () => {
    const r = rec('* * * * *', t0, { catchUp: 'none' });
    const f = planFire(r, L, now, 2_000, 100)!;
    expect(f.skipped).toBe(119);
    expect(f.skipToMs).toBe(t0 + 119 * 60_000);
    expect(f.occurrences).toEqual([t0 + 120 * 60_000]);
    expect(checkFire(r, f, L, now)).toBe('ok');
  });
  it('latest fires the latest missed minute once, then 12:00', () => {
    const f = planFire(rec('* * * * *', t0, { catchUp: 'latest' }), L, now, 2_000, 100)!;
    expect(f.skipped).toBe(118);
    expect(f.occurrences).toEqual([t0 + 119 * 60_000, t0 + 120 * 60_000]);
  });
  it('all fires every missed minute, capped by maxScheduleCatchUp', () => {
    const f = planFire(rec('* * * * *', t0, { catchUp: 'all' }), L, now, 2_000, 1000)!;
    expect(f.skipped).toBe(0);
    expect(f.occurrences).toHaveLength(120);
    const limits = { ...L, maxScheduleCatchUp: 50 };
    const r = rec('* * * * *', t0, { catchUp: 'all' });
    const capped = planFire(r, limits, now, 2_000, 1000)!;
    expect(capped.skipped).toBe(69);
    expect(capped.occurrences).toEqual(Array.from({ length: 51 }, (_, i) => t0 + (70 + i) * 60_000));
    expect(checkFire(r, capped, limits, now)).toBe('ok');
  });
});

describe("apply accepts only the spec's next occurrences after the cursor", () => {
  const t0 = at('2026-06-01T10:00:00Z');
  const r = rec('* * * * *', t0);
  const base = { topic: 't', name: 's', generation: 1, afterMs: t0, skipToMs: 0, skipped: 0 };
  it('a fire from another cursor or generation is stale (stores nothing)', () => {
    expect(checkFire(r, { ...base, afterMs: t0 - 60_000, occurrences: [t0] }, L, t0)).toBe('stale');
    expect(checkFire(r, { ...base, generation: 2, occurrences: [t0 + 60_000] }, L, t0)).toBe('stale');
  });
  it('an instant that is not the next occurrence is refused naming it', () => {
    expect(() => checkFire(r, { ...base, occurrences: [t0 + 120_000] }, L, t0 + 90_000)).toThrow(
      /next occurrence/,
    );
    expect(() => checkFire(r, { ...base, occurrences: [t0 + 60_000, t0 + 60_500] }, L, t0 + 30_000)).toThrow(
      ValidationError,
    );
    expect(() => checkFire(r, { ...base, occurrences: [t0 + 60_000, t0 + 120_000] }, L, t0)).toThrow(
      /maxScheduleAheadMs/,
    );
  });
  it('an occurrence not yet missed cannot be skipped', () => {
    expect(() =>
      checkFire(r, { ...base, skipToMs: t0 + 60_000, skipped: 1, occurrences: [] }, L, t0 + 90_000),
    ).toThrow(/not missed/);
  });
  it('jitter is deterministic per (schedule, occurrence) and within jitter_ms', () => {
    const h = (s: string) => BigInt(Buffer.from(s).reduce((a, b) => (a * 31 + b) % 1_000_003, 7));
    const a = jitterMs(h, 't', 's', t0, 5_000);
    expect(a).toBe(jitterMs(h, 't', 's', t0, 5_000));
    expect(a).toBeGreaterThanOrEqual(0);
    expect(a).toBeLessThanOrEqual(5_000);
    expect(jitterMs(h, 't', 's', t0, 0)).toBe(0);
    expect(renderKey('{schedule}@{occurrence_ms}/{occurrence}', 'daily', 0)).toBe(
      'daily@0/1970-01-01T00:00:00.000Z',
    );
  });
});
