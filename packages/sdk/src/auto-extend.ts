import type { Message } from './message.js';

/** Lease extension while a handler runs. */
export interface AutoExtendOptions {
  /** Each extension sets the lease to this many ms from now (default: the subscription's lease). */
  extendByMs?: number;
  /** Stop extending once a message has been extended for this long in total, in ms (default 1 h). */
  maxTotalMs?: number;
}

/** Default of {@link AutoExtendOptions.maxTotalMs}. */
export const DEFAULT_MAX_EXTEND_MS = 3_600_000;
/** Extensions are never closer together than this. */
const MIN_EXTEND_INTERVAL_MS = 10;

/**
 * Keeps extending `message`'s lease while its handler runs: first when half
 * the lease (counted from receipt) is gone, then every half `extendByMs`, until
 * the returned stop function is called, the message is settled, an extension
 * fails, or `maxTotalMs` of extension is used up. Returns the stop function.
 */
export function startAutoExtend(
  message: Message,
  leaseMs: number,
  options: AutoExtendOptions,
  report: { exhausted(extendedMs: number): void; failed(error: unknown): void },
): () => void {
  const extendByMs = options.extendByMs ?? leaseMs;
  const maxTotalMs = options.maxTotalMs ?? DEFAULT_MAX_EXTEND_MS;
  let extendedMs = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = (delayMs: number) => {
    timer = setTimeout(async () => {
      if (stopped || message.settled !== undefined) return;
      if (extendedMs + extendByMs > maxTotalMs) {
        report.exhausted(extendedMs);
        return;
      }
      try {
        await message.extend(extendByMs);
        extendedMs += extendByMs;
        if (!stopped) schedule(Math.max(MIN_EXTEND_INTERVAL_MS, Math.floor(extendByMs / 2)));
      } catch (e) {
        if (!stopped) report.failed(e);
      }
    }, delayMs);
  };
  schedule(Math.max(0, message.receivedAtMs + Math.floor(leaseMs / 2) - Date.now()));
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
