/**
 * What one node holds for all its consume streams together: payload bytes of
 * deliveries written to a stream and not yet taken by HTTP/2 (its client is
 * not reading fast enough, or at all); the dispatcher adds those it has
 * loaded and not yet written (leader/dispatcher: `loadedBytes`) and leases
 * no more while the two reach the limit. Each stream is bounded by its prefetch;
 * this bounds the sum (limits.maxConsumeBufferBytes), so that many unread
 * streams together cannot hold more than a configured share of the node's
 * memory. The dispatcher asks before it pushes (`accepts`) and waits for
 * `onRoom` when the answer is no; the deliveries it holds back stay leased
 * and waiting, and go out as room frees.
 */
export class ConsumeBuffer {
  private used = 0;
  private full = false;
  /** Called when bytes are released after a push was refused for want of room. */
  onRoom: (() => void) | undefined;

  constructor(readonly limitBytes: number) {}

  /** Payload bytes written to streams and not yet sent. */
  get bytes(): number {
    return this.used;
  }

  /**
   * Whether a delivery of `bytes` may be written now after `pendingBytes`
   * the caller is about to write with it: they fit under the limit, or
   * nothing is held nor pending (one delivery larger than the limit still
   * goes, alone). A refusal is remembered: the next release calls `onRoom`.
   */
  accepts(pendingBytes: number, bytes: number): boolean {
    const held = this.used + pendingBytes;
    if (held === 0 || held + bytes <= this.limitBytes) return true;
    this.full = true;
    return false;
  }

  /** The next release calls `onRoom` (the dispatcher held back leases for want of room). */
  waitForRoom(): void {
    this.full = true;
  }

  /** `bytes` written (positive) or released (negative: sent, or dropped with a closed stream). */
  add(bytes: number): void {
    this.used += bytes;
    if (bytes < 0 && this.full && this.used < this.limitBytes) {
      this.full = false;
      this.onRoom?.();
    }
  }
}
