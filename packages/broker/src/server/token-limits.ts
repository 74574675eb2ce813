/**
 * Per-token limits (docs/operations.md, "Per-token limits"): what one token
 * may hold or take on this node, so that one tenant at its limit leaves the
 * cluster to the others. Each limit is the token's own (`limits:` in the
 * token file) or the node's default (`auth.tokenLimits.*`); 0 = none.
 *
 * - `schedules`: schedules the token created that exist. The count is
 *   replicated (apply counts per owner and refuses past the limit the
 *   command carries), so every leader counts the same.
 * - `publishPerSecond`: messages a second, a token bucket of one second's
 *   worth on the leader; a publish past it is refused before it is queued,
 *   so it costs the others nothing.
 * - `streams`: consume streams open at once on this node.
 *
 * Each refusal is RESOURCE_EXHAUSTED naming the limit (maxSchedulesPerToken,
 * publishPerSecondPerToken, maxStreamsPerToken).
 */
import { LimitError } from '../state/model/errors.js';
import type { TokenLimitValues, TokenTable } from './auth.js';

export class TokenLimits {
  private readonly buckets = new Map<string, { tokens: number; atMs: number }>();
  private readonly streams = new Map<string, number>();

  constructor(
    private readonly defaults: TokenLimitValues,
    private readonly tokens: () => TokenTable,
    private readonly nowMs: () => number = () => performance.now(),
  ) {}

  /** The limits of the token named `name` ('' = no token: none). */
  of(name: string): TokenLimitValues {
    if (name === '') return { schedules: 0, publishPerSecond: 0, streams: 0 };
    const own = this.tokens().principalByName(name)?.spec.limits ?? {};
    return { ...this.defaults, ...own };
  }

  /** Takes `messages` from the token's publish rate, or throws LimitError (nothing taken). */
  takePublish(name: string, messages: number): void {
    const rate = this.of(name).publishPerSecond;
    if (rate === 0) return;
    const now = this.nowMs();
    const b = this.buckets.get(name) ?? { tokens: rate, atMs: now };
    b.tokens = Math.min(rate, b.tokens + ((now - b.atMs) * rate) / 1000);
    b.atMs = now;
    this.buckets.set(name, b);
    if (messages > b.tokens) {
      throw tokenLimitError(
        new LimitError('publishPerSecondPerToken', rate, messages, 'messages'),
        `token "${name}" publishes past its limit publishPerSecondPerToken = ${rate} messages a second; retry later`,
      );
    }
    b.tokens -= messages;
  }

  /** Counts a consume stream of the token open, or throws LimitError; returns its release. */
  openStream(name: string): () => void {
    if (name === '') return () => undefined;
    const max = this.of(name).streams;
    const open = this.streams.get(name) ?? 0;
    if (max > 0 && open >= max) {
      throw tokenLimitError(
        new LimitError('maxStreamsPerToken', max, open + 1, 'subscribe'),
        `token "${name}" has ${open} consume streams open on this node, its limit maxStreamsPerToken = ${max}`,
      );
    }
    this.streams.set(name, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const n = (this.streams.get(name) ?? 1) - 1;
      if (n > 0) this.streams.set(name, n);
      else this.streams.delete(name);
    };
  }
}

/** A LimitError whose message names the token (the limit, maximum and field stay for the status). */
export function tokenLimitError(err: LimitError, message: string): LimitError {
  err.message = `${err.field ?? err.limit}: ${message}`;
  return err;
}
