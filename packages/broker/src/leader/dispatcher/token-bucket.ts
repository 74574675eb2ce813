/**
 * A group's token bucket on the leader (limits.ts): `rate` tokens a second,
 * at most `burst` held, kept as the time it is full again (the generic cell
 * rate algorithm). A token is taken for the time a delivery starts, which may
 * be ahead of now (a lease taken ahead) or, after one, behind it: in any
 * window of W ms at most `burst + rate * W / 1000` tokens are taken, in
 * whatever order their times come.
 */

/** Slack for the rounding of token times (an interval may be a fraction of a ms). */
const EPSILON_MS = 1e-6;

/**
 * A token bucket as the time it is full again (GCRA): before `fullAtMs` it
 * lacks `(fullAtMs - t) / intervalMs` tokens. Tokens taken for times ahead
 * of `t` push `fullAtMs` past `t + burst * intervalMs`: a debt, paid before
 * any token is given for `t`.
 */
export class TokenBucket {
  private intervalMs: number;
  private burst: number;
  /**
   * When it is full again, less `originMs`: times are kept relative to its
   * making, so that adding fractions of a ms to them keeps their precision
   * (an epoch ms is a double whose last bit is 1/4096 ms).
   */
  private fullAtMs: number;
  private readonly originMs: number;

  /** An empty bucket at `emptyAtMs`. */
  constructor(ratePerSecond: number, burst: number, emptyAtMs: number) {
    if (!(ratePerSecond > 0) || !Number.isInteger(burst) || burst < 1)
      throw new RangeError(
        `a token bucket needs a rate > 0 and a burst >= 1, got ${ratePerSecond}, ${burst}`,
      );
    this.intervalMs = 1000 / ratePerSecond;
    this.burst = burst;
    this.originMs = emptyAtMs;
    this.fullAtMs = burst * this.intervalMs;
  }

  /** Tokens it holds at `t` (negative while it owes some), at most the burst. */
  tokensAt(t: number): number {
    return Math.min(this.burst, this.burst - (this.fullAtMs - (t - this.originMs)) / this.intervalMs);
  }

  /** Whether it holds a token at `t`. */
  holds(t: number): boolean {
    return t - this.originMs >= this.fullAtMs - (this.burst - 1) * this.intervalMs - EPSILON_MS;
  }

  /** Takes a token for a delivery starting at `t`, if the bucket holds one then. */
  take(t: number): boolean {
    if (!this.holds(t)) return false;
    this.fullAtMs = Math.max(this.fullAtMs, t - this.originMs) + this.intervalMs;
    return true;
  }

  /** The earliest time it holds `n` tokens (`n` <= the burst). */
  timeFor(n: number): number {
    return this.originMs + this.fullAtMs - (this.burst - n) * this.intervalMs;
  }

  /** Whether it runs at this rate and burst. */
  shapedAs(ratePerSecond: number, burst: number): boolean {
    return this.burst === burst && this.intervalMs === 1000 / ratePerSecond;
  }

  /**
   * A new rate and burst from `t` on: it keeps the tokens it holds at `t`,
   * at most the new burst (a lowered burst never lets the old bucket's tokens
   * through), and what it owes.
   */
  reshape(ratePerSecond: number, burst: number, t: number): void {
    const tokens = Math.min(this.tokensAt(t), burst);
    this.intervalMs = 1000 / ratePerSecond;
    this.burst = burst;
    this.fullAtMs = t - this.originMs + (burst - tokens) * this.intervalMs;
  }
}
