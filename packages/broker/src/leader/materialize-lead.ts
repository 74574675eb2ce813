/**
 * How much earlier than SCHEDULE_AHEAD_MS the materialiser starts when many
 * schedules fall due together: storing N occurrences takes N / (the rate the
 * cluster stores them), so a herd of 100,000 at one instant must start that
 * long before it, or its last ones are stored (and delivered) late by it.
 * Pure: the due times and the measured rate come in.
 */

/** Width of the buckets the due times within the horizon are counted in. */
export const LEAD_BUCKET_MS = 1_000;
/** Rate assumed before any fire was measured (occurrences stored per second): low, so early rather than late. */
export const INITIAL_STORE_RATE_PER_S = 1_000;
/** Weight of the newest measurement in the rate's moving average. */
const RATE_WEIGHT = 0.3;
/** Fires smaller than this are not measured: a lone occurrence says nothing of the rate under load. */
export const MIN_MEASURED_OCCURRENCES = 100;

/**
 * The lead, ms (>= 0): how much earlier than `aheadMs` before its due time
 * each schedule must enter the window so that, stored one after another at
 * `ratePerS`, every schedule due within `horizonMs` is stored `aheadMs`
 * before its due time. For the schedules due in buckets j..k that is the
 * time storing them takes less the time between bucket j and bucket k; the
 * lead is the largest of these. `dueAtMs` yields one due time per schedule.
 */
export function materializeLeadMs(
  dueAtMs: Iterable<number>,
  nowMs: number,
  aheadMs: number,
  horizonMs: number,
  ratePerS: number,
): number {
  if (!(ratePerS > 0)) throw new RangeError(`store rate must be > 0, got ${ratePerS}`);
  const buckets = new Array<number>(Math.max(1, Math.ceil(horizonMs / LEAD_BUCKET_MS))).fill(0);
  const end = nowMs + aheadMs;
  for (const at of dueAtMs) {
    const d = at - end;
    if (d >= horizonMs) continue;
    buckets[Math.max(0, Math.floor(d / LEAD_BUCKET_MS))]!++;
  }
  const msPerSchedule = 1000 / ratePerS;
  let stored = 0;
  let lead = 0;
  // min over j <= k of (schedules due before bucket j) * msPerSchedule - j * bucket.
  let least = Number.POSITIVE_INFINITY;
  for (const [k, n] of buckets.entries()) {
    least = Math.min(least, stored * msPerSchedule - k * LEAD_BUCKET_MS);
    stored += n;
    lead = Math.max(lead, stored * msPerSchedule - k * LEAD_BUCKET_MS - least);
  }
  return Math.ceil(lead);
}

/**
 * Occurrences the cluster stored per second over measured fires: a slower
 * fire is believed at once, a faster one moves the average by RATE_WEIGHT
 * (erring towards storing early, never late).
 */
export class StoreRate {
  private rate = INITIAL_STORE_RATE_PER_S;

  get perS(): number {
    return this.rate;
  }

  /** One fire of `occurrences` that took `elapsedMs` from proposal to applied. */
  observe(occurrences: number, elapsedMs: number): void {
    if (occurrences < MIN_MEASURED_OCCURRENCES || elapsedMs <= 0) return;
    const sample = (occurrences / elapsedMs) * 1000;
    this.rate = sample < this.rate ? sample : this.rate * (1 - RATE_WEIGHT) + sample * RATE_WEIGHT;
  }
}
