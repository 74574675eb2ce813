/**
 * The leader's view of one follower (or learner), after etcd's tracker:
 * - probe: one append at a time until the follower's match point is found;
 * - replicate: optimistic pipelining, at most `maxInflight` appends in flight;
 * - snapshot: paused while the driver streams a snapshot.
 */
export type ProgressState = 'probe' | 'replicate' | 'snapshot';

export class Progress {
  match = 0;
  next: number;
  state: ProgressState = 'probe';
  /** Index of the snapshot being sent (snapshot state only). */
  pendingSnapshot = 0;
  /** The highest index the follower reported it knows committed durably (its responses' `commit`). */
  commit = 0;
  /** Heard from since the last check-quorum round. */
  recentActive = false;
  /**
   * Heard from in the check-quorum round before (assumed for a leader's or a
   * new member's first round): with `recentActive`, whether the follower
   * answered within the last one to two election timeouts.
   */
  activeBefore = true;
  /** Probe state: an append is outstanding; wait for its answer or a heartbeat response. */
  probeSent = false;
  /** Replicate state: last index of each append in flight, ascending. */
  private inflights: number[] = [];

  constructor(next: number) {
    this.next = next;
  }

  becomeProbe(): void {
    this.next =
      this.state === 'snapshot' ? Math.max(this.match + 1, this.pendingSnapshot + 1) : this.match + 1;
    this.state = 'probe';
    this.pendingSnapshot = 0;
    this.probeSent = false;
    this.inflights = [];
  }

  becomeReplicate(): void {
    this.state = 'replicate';
    this.next = this.match + 1;
    this.pendingSnapshot = 0;
    this.inflights = [];
  }

  becomeSnapshot(index: number): void {
    this.state = 'snapshot';
    this.pendingSnapshot = index;
    this.inflights = [];
  }

  /** An acknowledgement of `index`; false if it tells us nothing new (stale or duplicated). */
  maybeUpdate(index: number): boolean {
    let updated = false;
    if (this.match < index) {
      this.match = index;
      this.probeSent = false;
      updated = true;
    }
    this.next = Math.max(this.next, index + 1);
    return updated;
  }

  /**
   * A rejection of the append after `rejected`; `hint` is the highest index that may
   * match. False when the rejection is stale (answers an append we no longer wait for).
   */
  maybeDecrTo(rejected: number, hint: number): boolean {
    if (this.state === 'replicate') {
      if (rejected <= this.match) return false;
      this.next = this.match + 1;
      return true;
    }
    if (this.next - 1 !== rejected) return false;
    this.next = Math.max(Math.min(rejected, hint + 1), this.match + 1);
    this.probeSent = false;
    return true;
  }

  isPaused(maxInflight: number): boolean {
    switch (this.state) {
      case 'probe':
        return this.probeSent;
      case 'replicate':
        return this.inflights.length >= maxInflight;
      case 'snapshot':
        return true;
    }
  }

  /** An append ending at `lastIndex` went out (lastIndex = next - 1 for an empty probe). */
  sentEntries(lastIndex: number, count: number): void {
    if (this.state === 'replicate') {
      if (count > 0) {
        this.next = lastIndex + 1;
        this.inflights.push(lastIndex);
      }
    } else if (this.state === 'probe') {
      this.probeSent = true;
    }
  }

  /** Frees every in-flight append acknowledged by `index`. */
  freeTo(index: number): void {
    let drop = 0;
    while (drop < this.inflights.length && this.inflights[drop]! <= index) drop++;
    if (drop > 0) this.inflights = this.inflights.slice(drop);
  }

  /** A heartbeat answered while the window is full: an append may have been lost, let one more through. */
  freeFirstIfFull(maxInflight: number): void {
    if (this.state === 'replicate' && this.inflights.length >= maxInflight)
      this.inflights = this.inflights.slice(1);
  }

  inflightCount(): number {
    return this.inflights.length;
  }
}
