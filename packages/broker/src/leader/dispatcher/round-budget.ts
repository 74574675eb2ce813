import { InvariantError } from '@fermata/base';

/**
 * How the dispatcher shares lease rounds between queues: deficit round robin
 * over the queues that have due entries and free consumer credit, within a
 * budget of entries in lease commands not yet applied (`budget`, summed over
 * every queue). Pure bookkeeping (no timers, no I/O): the dispatcher asks
 * `plan` what each queue may lease in one dispatch round, and tells `release`
 * when granted entries stop being in flight (the read found fewer, the lease
 * command was applied, or it failed).
 *
 * Why: every lease command is a Raft round on every node, applied in log
 * order. Without a shared budget, a queue with a burst keeps its own rounds in
 * flight back to back and a queue with a few due entries waits behind however
 * many commands all busy queues have queued. With it, what is queued ahead of
 * any lease is at most `budget` entries, and a queue that comes due takes a
 * share of the first round that has room: a burst never delays another
 * queue's due entry past one round.
 *
 * Each round, every demanding queue's deficit grows by a quantum (the room
 * divided by the number of demanding queues) and the queue is granted what
 * its deficit, its demand and the room allow, least recently served first.
 * Room left over (a queue wanted less than its quantum) is split evenly among
 * the queues that still want more, and what a queue takes beyond its quantum
 * it owes back next round: room one queue does not use goes to the others,
 * and over rounds busy queues get equal shares. A deficit carries to the next
 * round (at most one `maxGrant` either way); a queue whose demand was met is
 * owed nothing, and one with no demand keeps nothing.
 */
/** Rounds after which a queue's last service is forgotten (it then sorts first, as it would anyway). */
const FORGET_AFTER_ROUNDS = 1024;

export class RoundBudget<Q> {
  private inFlightEntries = 0;
  private round = 0;
  private readonly deficit = new Map<Q, number>();
  /** Per queue, the last round it was granted entries in (least recently served goes first). */
  private readonly lastServed = new Map<Q, number>();

  /**
   * @param budget most entries in lease commands not yet applied, over every queue
   * @param maxGrant most entries one queue is granted in one round (one lease command)
   */
  constructor(
    readonly budget: number,
    readonly maxGrant: number,
  ) {
    if (!Number.isInteger(budget) || budget < 1)
      throw new RangeError(`lease round budget must be >= 1, got ${budget}`);
    if (!Number.isInteger(maxGrant) || maxGrant < 1)
      throw new RangeError(`maxGrant must be >= 1, got ${maxGrant}`);
  }

  /** Entries granted and not yet released. */
  get inFlight(): number {
    return this.inFlightEntries;
  }

  /** Room for new grants. */
  get available(): number {
    return Math.max(0, this.budget - this.inFlightEntries);
  }

  /**
   * One dispatch round: what each demanding queue may lease now (only queues
   * granted entries appear). `want` is the queue's demand this round (its free
   * consumer credit); a queue listed twice counts once with its larger demand.
   * The grants are counted in flight until released.
   */
  plan(
    demands: ReadonlyArray<{ readonly queue: Q; readonly want: number }>,
  ): Array<{ queue: Q; grant: number }> {
    this.round++;
    const wants = new Map<Q, number>();
    for (const d of demands) {
      const want = Math.min(this.maxGrant, Math.floor(d.want));
      if (want > 0) wants.set(d.queue, Math.max(want, wants.get(d.queue) ?? 0));
    }
    for (const q of this.deficit.keys()) if (!wants.has(q)) this.deficit.delete(q);
    let room = this.available;
    if (wants.size === 0 || room === 0) return [];
    const deficitOf = (q: Q): number => this.deficit.get(q) ?? 0;
    // Least recently served first; among those served together, the one owed most.
    const order = [...wants.keys()].sort(
      (a, b) =>
        (this.lastServed.get(a) ?? -1) - (this.lastServed.get(b) ?? -1) || deficitOf(b) - deficitOf(a),
    );
    const granted = new Map<Q, number>();
    const give = (q: Q, n: number): void => {
      granted.set(q, (granted.get(q) ?? 0) + n);
      this.deficit.set(q, deficitOf(q) - n);
      room -= n;
    };
    const leftOf = (q: Q): number => wants.get(q)! - (granted.get(q) ?? 0);
    // The round's quantum: each queue is owed its share, and served up to what it is owed.
    const quantum = Math.max(1, Math.floor(room / order.length));
    for (const q of order) {
      this.deficit.set(q, Math.min(this.maxGrant, deficitOf(q) + quantum));
      const grant = Math.min(Math.max(0, deficitOf(q)), leftOf(q), room);
      if (grant > 0) give(q, grant);
    }
    // Room left (some were owed less than they could take, or wanted less): split it evenly among
    // those who still want; what a queue takes beyond its due is owed back by it next round.
    for (let active = order.filter((q) => leftOf(q) > 0); room > 0 && active.length > 0; ) {
      const share = Math.floor(room / active.length);
      const extra = room % active.length;
      active.forEach((q, i) => {
        const grant = Math.min(leftOf(q), share + (i < extra ? 1 : 0));
        if (grant > 0) give(q, grant);
      });
      active = active.filter((q) => leftOf(q) > 0);
    }
    for (const q of order) {
      // A queue whose demand was met is owed nothing; a debt never exceeds one command.
      if (leftOf(q) === 0) this.deficit.set(q, Math.min(0, deficitOf(q)));
      this.deficit.set(q, Math.max(-this.maxGrant, deficitOf(q)));
    }
    const out: Array<{ queue: Q; grant: number }> = [];
    for (const q of order) {
      const grant = granted.get(q) ?? 0;
      if (grant === 0) continue;
      out.push({ queue: q, grant });
      this.lastServed.set(q, this.round);
      this.inFlightEntries += grant;
    }
    if (this.round % FORGET_AFTER_ROUNDS === 0) {
      // A queue not served for this long sorts first whether remembered or not: forget it (queues come and go).
      for (const [q, at] of this.lastServed)
        if (at <= this.round - FORGET_AFTER_ROUNDS) this.lastServed.delete(q);
    }
    return out;
  }

  /** `n` granted entries are no longer in flight. */
  release(n: number): void {
    if (!Number.isInteger(n) || n < 0 || n > this.inFlightEntries)
      throw new InvariantError(
        `lease round budget: released ${n} entries with ${this.inFlightEntries} in flight`,
      );
    this.inFlightEntries -= n;
  }

  /** Leadership lost: nothing is in flight any more, nobody is owed. */
  reset(): void {
    this.inFlightEntries = 0;
    this.round = 0;
    this.deficit.clear();
    this.lastServed.clear();
  }
}

/**
 * The default budget: what one queue alone may have in flight
 * (`maxLeaseRoundsInFlight` commands of `maxLeaseBatch`), so a single busy
 * queue leases as fast as without the budget, and a queue coming due waits
 * behind at most that many entries whatever the number of busy queues.
 */
export function defaultLeaseRoundBudget(maxLeaseBatch: number, maxLeaseRoundsInFlight: number): number {
  return maxLeaseBatch * maxLeaseRoundsInFlight;
}
