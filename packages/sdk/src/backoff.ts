/**
 * Exponential backoff: attempt 1 waits `initialMs`, each further attempt
 * `multiplier` times longer, never more than `maxMs`. With `jitter` j (0..1)
 * the wait is drawn from [base * (1 - j), base], so clients that failed
 * together do not retry together.
 */
export interface BackoffPolicy {
  /** Wait before the first retry, in ms. */
  initialMs: number;
  /** Growth factor per attempt (>= 1). */
  multiplier: number;
  /** Upper bound on any single wait, in ms. */
  maxMs: number;
  /** Fraction of the wait that is randomised, 0..1. 0 = deterministic. */
  jitter: number;
}

/** Client call retries: 50 ms doubling to 2 s, half of it random. */
export const DEFAULT_RETRY_BACKOFF: Readonly<BackoffPolicy> = Object.freeze({
  initialMs: 50,
  multiplier: 2,
  maxMs: 2_000,
  jitter: 0.5,
});

/** Redelivery delay after a handler throws: 1 s doubling to 5 min, by delivery attempt. */
export const DEFAULT_NACK_BACKOFF: Readonly<BackoffPolicy> = Object.freeze({
  initialMs: 1_000,
  multiplier: 2,
  maxMs: 300_000,
  jitter: 0,
});

/** Checks a policy (a partial one is completed from `defaults`); throws RangeError naming the bad field. */
export function resolveBackoff(
  policy: Partial<BackoffPolicy> | undefined,
  defaults: Readonly<BackoffPolicy>,
): BackoffPolicy {
  const p: BackoffPolicy = { ...defaults, ...policy };
  if (!(Number.isFinite(p.initialMs) && p.initialMs >= 0))
    throw new RangeError(`initialMs must be >= 0: ${p.initialMs}`);
  if (!(Number.isFinite(p.multiplier) && p.multiplier >= 1))
    throw new RangeError(`multiplier must be >= 1: ${p.multiplier}`);
  if (!(Number.isFinite(p.maxMs) && p.maxMs >= p.initialMs)) {
    throw new RangeError(`maxMs must be >= initialMs (${p.initialMs}): ${p.maxMs}`);
  }
  if (!(p.jitter >= 0 && p.jitter <= 1)) throw new RangeError(`jitter must be within 0..1: ${p.jitter}`);
  return p;
}

/** The wait before retry number `attempt` (1-based). `random01` is a draw from [0, 1). */
export function backoffDelayMs(policy: BackoffPolicy, attempt: number, random01: number): number {
  if (!(Number.isInteger(attempt) && attempt >= 1))
    throw new RangeError(`attempt must be an integer >= 1: ${attempt}`);
  const exponent = Math.min(attempt - 1, 1_000);
  const base = Math.min(policy.maxMs, policy.initialMs * policy.multiplier ** exponent);
  return Math.round(base * (1 - policy.jitter * random01));
}
